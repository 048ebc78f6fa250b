/** Admin API: the request log (in process; the mock server runs in-process on a free port). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import { apiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

type Json = Record<string, unknown>;

/** A sandbox whose project "reqs" logged five requests: GET /a x2, POST /a, GET /fail, GET /missing. */
async function logged(t: AfterHook) {
  const api = apiSandbox(t);
  await makeProject(api.dataDir, 'reqs', [
    { path: '/a', body: '{"a":1}' },
    { method: 'POST', path: '/a', status: 201, body: '{"created":true}' },
    { path: '/fail', status: 500, body: 'boom' },
  ]);
  await makeProject(api.dataDir, 'other', []);
  const server = await startServer(api.ctx, { project: 'reqs', port: 0 });
  t.after(() => server.stop());
  for (const [method, path] of [
    ['GET', '/a?x=1'],
    ['GET', '/a'],
    ['POST', '/a'],
    ['GET', '/fail'],
    ['GET', '/missing'],
  ] as const) {
    await (
      await fetch(`${server.url}${path}`, { method, body: method === 'POST' ? '{"n":1}' : undefined })
    ).text();
  }
  const list = async (query = '') => {
    const r = await api.call('GET', `/api/v1/projects/reqs/requests${query}`);
    assert.equal(r.status, 200, r.body);
    return r.json as Json[];
  };
  await waitUntil(async () => (await list()).length === 5, 'the five requests in the log');
  return { api, list };
}

describe('admin API: requests', () => {
  it('lists newest first with the CLI filters: limit, method, status (code, class, list), starred', async (t) => {
    const { api, list } = await logged(t);
    const all = await list();
    assert.deepEqual(
      all.map((r) => `${r.method as string} ${r.path as string} ${r.status as number}`),
      ['GET /missing 404', 'GET /fail 500', 'POST /a 201', 'GET /a 200', 'GET /a 200'],
    );
    const first = all.at(-1)!;
    assert.deepEqual(first.query, { x: '1' });
    assert.deepEqual([first.protocol, first.clientAddress], ['http/1.1', '127.0.0.1']);
    assert.deepEqual(Object.keys(first).sort(), [
      'body',
      'clientAddress',
      'durationMs',
      'endpointId',
      'headers',
      'id',
      'method',
      'path',
      'projectId',
      'protocol',
      'query',
      'response',
      'starred',
      'status',
      'timestamp',
      'truncated',
      'variation',
    ]);
    assert.equal((await list('?limit=2')).length, 2);
    assert.deepEqual(
      (await list('?method=post')).map((r) => r.path),
      ['/a'],
    );
    assert.deepEqual(
      (await list('?status=2xx')).map((r) => r.status),
      [201, 200, 200],
    );
    assert.deepEqual(
      (await list('?status=404,500')).map((r) => r.status),
      [404, 500],
    );
    assert.deepEqual(await list('?starred=true'), []);
    assert.equal((await list('?starred=false')).length, 5);
    assert.deepEqual(
      (await list('?path=a')).map((r) => `${r.method as string} ${r.path as string}`),
      ['GET /fail', 'POST /a', 'GET /a', 'GET /a'],
      'a text the path contains',
    );
    assert.deepEqual(
      (await list('?path=x')).map((r) => r.path),
      [],
      'never the query (?x=1)',
    );
    const byName = await api.call(
      'GET',
      `/api/v1/projects/${encodeURIComponent('reqs')}/requests?limit=1000`,
    );
    assert.equal((byName.json as Json[]).length, 5);
    assert.deepEqual((await api.call('GET', '/api/v1/projects/other/requests')).json, []);
  });

  it('refuses bad filters (400) and unknown projects (404)', async (t) => {
    const { api } = await logged(t);
    for (const q of [
      'limit=0',
      'limit=1001',
      'limit=abc',
      'status=abc',
      'status=600',
      'starred=maybe',
      'method=G%20T',
    ]) {
      const r = await api.call('GET', `/api/v1/projects/reqs/requests?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.body}`);
      assert.equal((r.json as Json).code, 'INVALID_ARGUMENT', q);
    }
    const missing = await api.call('GET', '/api/v1/projects/nope/requests');
    assert.equal(missing.status, 404);
    assert.equal((missing.json as Json).code, 'PROJECT_NOT_FOUND');
    assert.equal((await api.call('DELETE', '/api/v1/projects/nope/requests')).status, 404);
  });

  it('shows, stars, unstars and deletes one request; unknown ids are 404', async (t) => {
    const { api, list } = await logged(t);
    const post = (await list('?method=POST'))[0]!;
    const id = post.id as string;
    const shown = await api.call('GET', `/api/v1/requests/${id}`);
    assert.equal(shown.status, 200);
    assert.equal((shown.json as Json).body, '{"n":1}');
    assert.deepEqual(((shown.json as Json).response as Json).body, '{"created":true}');

    const starred = await api.call('PUT', `/api/v1/requests/${id}/star`);
    assert.equal(starred.status, 200, starred.body);
    assert.equal((starred.json as Json).starred, true);
    assert.deepEqual(
      (await list('?starred=true')).map((r) => r.id),
      [id],
    );
    const unstarred = await api.call('DELETE', `/api/v1/requests/${id}/star`);
    assert.equal((unstarred.json as Json).starred, false);
    assert.deepEqual(await list('?starred=true'), []);

    const deleted = await api.call('DELETE', `/api/v1/requests/${id}`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.deepEqual(deleted.json, { deleted: [id] });
    assert.equal((await list()).length, 4);
    for (const [method, url] of [
      ['GET', `/api/v1/requests/${id}`],
      ['DELETE', `/api/v1/requests/${id}`],
      ['PUT', `/api/v1/requests/${id}/star`],
      ['DELETE', `/api/v1/requests/${id}/star`],
      ['GET', '/api/v1/requests/not-an-id'],
    ] as const) {
      const r = await api.call(method, url);
      assert.equal(r.status, 404, `${method} ${url}: ${r.body}`);
      assert.equal((r.json as Json).code, 'NOT_FOUND');
    }
  });

  it("clears a project's requests, starred ones too, and says how many", async (t) => {
    const { api, list } = await logged(t);
    const [one] = await list();
    await api.call('PUT', `/api/v1/requests/${one!.id as string}/star`);
    const cleared = await api.call('DELETE', '/api/v1/projects/reqs/requests');
    assert.equal(cleared.status, 200, cleared.body);
    assert.deepEqual(cleared.json, { deleted: 5 });
    assert.deepEqual(await list(), []);
  });
});
