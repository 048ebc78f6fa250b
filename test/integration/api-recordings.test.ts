import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import type { NewRecording } from '../../src/core/ports.js';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

/** A proxied exchange as a server hands it to the recordings. */
const exchange = (endpointId: string, n: number, body = `{"n":${n}}`): NewRecording => ({
  endpointId,
  ts: 1_700_000_000_000 + n,
  durationMs: 12,
  target: `https://up.example/users/${n}`,
  request: { method: 'GET', url: `/users/${n}`, rawHeaders: ['Accept', '*/*'], body: null, truncated: false },
  response: {
    status: 200,
    rawHeaders: ['Content-Type', 'application/json', 'Content-Length', String(body.length)],
    body: Buffer.from(body),
    truncated: false,
  },
});

/** A project with a recording proxy endpoint "Upstream" (ANY /users/*) and three recordings of it. */
async function withRecordings(api: ApiSandbox): Promise<{ projectId: string; endpointId: string }> {
  const project = (await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).json as Json;
  const projectId = project.id as string;
  const proxy = await addEndpoint(api.ctx, projectId, {
    name: 'Upstream',
    method: 'GET',
    path: '/users/*',
    kind: 'proxy',
    proxy: { target: 'https://up.example', record: true },
  });
  const writer = api.ctx.recordings.openWriter({ projectId, bodyLimitBytes: 1024 * 1024 });
  for (const n of [1, 2, 3]) writer.push(exchange(proxy.id, n));
  await writer.close();
  return { projectId, endpointId: proxy.id };
}

describe('admin API: recordings', () => {
  it('lists an endpoint’s recordings newest first (by endpoint id or name), with a limit', async (t) => {
    const api = apiSandbox(t);
    const { endpointId } = await withRecordings(api);
    const all = await api.call('GET', `/api/v1/projects/Shop/endpoints/${endpointId}/recordings`);
    assert.equal(all.status, 200, all.body);
    assert.deepEqual(
      (all.json as Json[]).map((r) => (r.request as Json).path),
      ['/users/3', '/users/2', '/users/1'],
    );
    const limited = await api.call('GET', '/api/v1/projects/Shop/endpoints/Upstream/recordings?limit=1');
    assert.equal((limited.json as Json[]).length, 1);
    const one = await api.call('GET', `/api/v1/recordings/${(limited.json as Json[])[0]!.id as string}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.json, (limited.json as Json[])[0]);

    const bad = await api.call('GET', '/api/v1/projects/Shop/endpoints/Upstream/recordings?limit=0');
    assert.equal(bad.status, 400);
    assert.match((bad.json as Json).detail as string, /limit/);
    const noEndpoint = await api.call('GET', '/api/v1/projects/Shop/endpoints/nope/recordings');
    assert.equal(noEndpoint.status, 404);
    assert.equal((noEndpoint.json as Json).code, 'NOT_FOUND');
    const noProject = await api.call('GET', '/api/v1/projects/nope/endpoints/Upstream/recordings');
    assert.equal(noProject.status, 404);
    assert.equal((noProject.json as Json).code, 'PROJECT_NOT_FOUND');
    const noRecording = await api.call('GET', '/api/v1/recordings/nope');
    assert.equal(noRecording.status, 404);
    assert.match(
      (noRecording.json as Json).detail as string,
      /call GET \/api\/v1\/projects\/.*\/recordings/i,
    );
  });

  it('counts per endpoint and in total (as `recording count --json`)', async (t) => {
    const api = apiSandbox(t);
    const { endpointId } = await withRecordings(api);
    const r = await api.call('GET', '/api/v1/projects/Shop/recordings/count');
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      project: { id: (r.json as { project: Json }).project.id, name: 'Shop' },
      endpoints: [{ id: endpointId, name: 'Upstream', method: 'GET', path: '/users/*', count: 3 }],
      total: 3,
    });
    assert.equal((await api.call('GET', '/api/v1/projects/nope/recordings/count')).status, 404);
  });

  it('deletes one recording, then clears the endpoint’s', async (t) => {
    const api = apiSandbox(t);
    const { endpointId } = await withRecordings(api);
    const url = `/api/v1/projects/Shop/endpoints/${endpointId}/recordings`;
    const [first] = (await api.call('GET', url)).json as Json[];
    const deleted = await api.call('DELETE', `/api/v1/recordings/${first!.id as string}`);
    assert.equal(deleted.status, 204, deleted.body);
    const again = await api.call('DELETE', `/api/v1/recordings/${first!.id as string}`);
    assert.equal(again.status, 404);
    assert.equal((again.json as Json).code, 'NOT_FOUND');
    assert.equal(((await api.call('GET', url)).json as Json[]).length, 2);

    const cleared = await api.call('DELETE', url);
    assert.equal(cleared.status, 200, cleared.body);
    assert.equal((cleared.json as Json).deleted, 2);
    assert.equal(((cleared.json as Json).endpoint as Json).id, endpointId);
    assert.deepEqual((await api.call('GET', url)).json, []);
    assert.equal((await api.call('DELETE', '/api/v1/projects/Shop/endpoints/nope/recordings')).status, 404);
  });

  it('turns a recording into a mock endpoint (201), or into a variation of it', async (t) => {
    const api = apiSandbox(t);
    const { endpointId } = await withRecordings(api);
    const recordings = (await api.call('GET', `/api/v1/projects/Shop/endpoints/${endpointId}/recordings`))
      .json as Json[];
    const [third, second] = recordings as [Json, Json];

    const noMockYet = await api.call('POST', `/api/v1/recordings/${third.id as string}/to-mock`, {
      body: { asVariation: true },
    });
    assert.equal(noMockYet.status, 404, noMockYet.body);

    const mock = await api.call('POST', `/api/v1/recordings/${third.id as string}/to-mock`, {
      body: { name: 'User 3' },
    });
    assert.equal(mock.status, 201, mock.body);
    const endpoint = mock.json as Json;
    assert.deepEqual(
      [endpoint.name, endpoint.method, endpoint.path, endpoint.status, endpoint.body],
      ['User 3', 'GET', '/users/3', 200, '{"n":3}'],
    );
    assert.equal((endpoint.headers as Json)['Content-Length'], undefined, 'no stale Content-Length');

    // The second recording has another path: it cannot be a variation of /users/3.
    const otherPath = await api.call('POST', `/api/v1/recordings/${second.id as string}/to-mock`, {
      body: { asVariation: true },
    });
    assert.equal(otherPath.status, 404);
    const variation = await api.call('POST', `/api/v1/recordings/${third.id as string}/to-mock`, {
      body: { asVariation: true, name: 'replayed' },
    });
    assert.equal(variation.status, 201, variation.body);
    assert.equal((variation.json as Json).id, endpoint.id);
    assert.deepEqual(
      ((variation.json as Json).variations as Json[]).map((v) => v.name),
      ['replayed'],
    );
    const bad = await api.call('POST', `/api/v1/recordings/${third.id as string}/to-mock`, {
      body: { asVariation: 'yes' },
    });
    assert.equal(bad.status, 400);
    assert.equal((await api.call('POST', '/api/v1/recordings/nope/to-mock', { body: {} })).status, 404);
  });
});
