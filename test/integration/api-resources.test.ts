/**
 * Admin API: resources (in process, through the handler): every route of `mockdev resource …`,
 * bad bodies as 400 problem+json naming the field, unknown resources and projects as 404, a
 * clash as 409; and the `resources` live event, over a socket, for a change from another process.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { addResource, replaceResourceData } from '../../src/app/resources.js';
import { createProject } from '../../src/app/projects.js';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createApiServices } from '../../src/api/services.js';
import { apiSandbox, type ApiResult, type ApiSandbox } from '../helpers/api.js';
import { tempDir } from '../helpers/cli.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { openSse } from '../helpers/sse.js';

type Json = Record<string, unknown>;
type View = {
  id: string;
  name: string;
  path: string;
  idField: string;
  seed: Json[];
  revision: number;
  itemCount: number;
};
type Data = { resource: View; items: Json[] };

const BASE = '/api/v1/projects/Shop/resources';

async function shopApi(t: AfterHook): Promise<ApiSandbox> {
  const api = apiSandbox(t);
  assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).status, 201);
  return api;
}

async function ok<T>(r: Promise<ApiResult>, status = 200): Promise<T> {
  const res = await r;
  assert.equal(res.status, status, res.body);
  return res.json as T;
}

function assertProblem(r: ApiResult, status: number, code: string, field?: string): void {
  assert.equal(r.status, status, r.body);
  assert.match(r.headers['Content-Type']!, /^application\/problem\+json/);
  const p = r.json as Json;
  assert.equal(p.code, code, r.body);
  if (field !== undefined) assert.equal((p.details as Json | undefined)?.field, field, r.body);
}

describe('admin API: resources', () => {
  it('adds, lists, shows, changes and removes a resource', async (t) => {
    const api = await shopApi(t);
    const seed = [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Linus' },
    ];
    const added = await ok<View>(api.call('POST', BASE, { body: { path: '/api/users', seed } }), 201);
    assert.equal(added.name, 'users', 'the name defaults from the path');
    assert.equal(added.idField, 'id');
    assert.equal(added.itemCount, 2);

    const list = await ok<View[]>(api.call('GET', BASE));
    assert.deepEqual(
      list.map((r) => [r.name, r.path, r.itemCount]),
      [['users', '/api/users', 2]],
    );
    const shown = await ok<View>(api.call('GET', `${BASE}/users`));
    assert.equal(shown.id, added.id);
    assert.equal((await ok<View>(api.call('GET', `${BASE}/${added.id}`))).name, 'users');

    const changed = await ok<View>(
      api.call('PATCH', `${BASE}/users`, { body: { name: 'people', path: '/api/people' } }),
    );
    assert.equal(changed.name, 'people');
    assert.equal(changed.path, '/api/people');
    assert.equal(changed.idField, 'id', 'fields left out stay');
    assert.deepEqual(changed.seed, seed);
    // An id field the seed's items lack is refused at the field.
    assertProblem(
      await api.call('PATCH', `${BASE}/people`, { body: { idField: 'key' } }),
      400,
      'INVALID_ARGUMENT',
      'seed.0.key',
    );

    const removed = await ok<View>(api.call('DELETE', `${BASE}/people`));
    assert.equal(removed.id, added.id);
    assert.deepEqual(await ok<View[]>(api.call('GET', BASE)), []);
    assertProblem(await api.call('GET', `${BASE}/people`), 404, 'NOT_FOUND');
  });

  it('reads, replaces and resets the data', async (t) => {
    const api = await shopApi(t);
    await ok(api.call('POST', BASE, { body: { path: '/api/users', seed: [{ id: 1, name: 'Ada' }] } }), 201);
    const first = await ok<Data>(api.call('GET', `${BASE}/users/data`));
    assert.deepEqual(first.items, [{ id: 1, name: 'Ada' }], 'the seed, before any change');

    const items = [
      { id: 7, name: 'Grace' },
      { id: 8, name: 'Alan' },
    ];
    const put = await ok<Data>(api.call('PUT', `${BASE}/users/data`, { body: items }));
    assert.deepEqual(put.items, items);
    assert.deepEqual((await ok<Data>(api.call('GET', `${BASE}/users/data`))).items, items);
    assert.equal((await ok<View>(api.call('GET', `${BASE}/users`))).itemCount, 2);
    assert.deepEqual(
      (await ok<View>(api.call('GET', `${BASE}/users`))).seed,
      [{ id: 1, name: 'Ada' }],
      'the seed stays',
    );

    const reset = await ok<Data>(api.call('POST', `${BASE}/users/reset`));
    assert.deepEqual(reset.items, [{ id: 1, name: 'Ada' }]);
    assert.deepEqual((await ok<Data>(api.call('GET', `${BASE}/users/data`))).items, [{ id: 1, name: 'Ada' }]);
  });

  it('refuses bad bodies, clashes and unknown names with the documented problems', async (t) => {
    const api = await shopApi(t);
    await ok(api.call('POST', BASE, { body: { path: '/api/users' } }), 201);
    assertProblem(
      await api.call('POST', BASE, { body: { path: '/api/people', seed: [{ id: 1 }, 'x'] } }),
      400,
      'INVALID_ARGUMENT',
      'seed.1',
    );
    assertProblem(await api.call('POST', BASE, { body: { path: '/api/users' } }), 409, 'CONFLICT');
    assertProblem(
      await api.call('POST', BASE, { body: { path: '/api/people', idField: 'a.b' } }),
      400,
      'INVALID_ARGUMENT',
      'idField',
    );
    assertProblem(await api.call('PUT', `${BASE}/users/data`, { body: { id: 1 } }), 400, 'INVALID_ARGUMENT');
    assertProblem(await api.call('POST', `${BASE}/nobody/reset`), 404, 'NOT_FOUND');
    assertProblem(await api.call('GET', `${BASE}/nobody/data`), 404, 'NOT_FOUND');
    assertProblem(await api.call('GET', '/api/v1/projects/Nope/resources'), 404, 'PROJECT_NOT_FOUND');
    // Nothing was written by the refusals.
    assert.deepEqual(
      (await ok<View[]>(api.call('GET', BASE))).map((r) => r.name),
      ['users'],
    );
  });

  it('publishes a resources event when another process adds a resource', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-api-resources-');
    t.after(cleanup);
    const options = { dataDir: dir, cwd: dir, env: {}, dataDirPollMs: 100 };
    const ctx = createContext(options);
    const services = createApiServices(ctx);
    const running = await startAdminServer({ ctx, routes: ALL_ROUTES, services, host: '127.0.0.1', port: 0 });
    const other = createContext(options);
    const stream = await openSse(`${running.url}/api/v1/events`, {});
    t.after(async () => {
      stream.close();
      await running.close();
      await services.close();
      other.close();
      ctx.close();
    });
    const project = await createProject(other, { name: 'watched' });
    await stream.next((e, d) => e.event === 'projects' && (d as Json).projectId === project.id, 'created');
    await addResource(other, 'watched', { path: '/api/users' });
    await stream.next(
      (e, d) => e.event === 'resources' && (d as Json).projectId === project.id && (d as Json).count === 1,
      'resource added',
    );
    // Replacing the data bumps the definition's revision: a change the UI reloads the data on.
    const seen = stream.events.filter((e) => e.event === 'resources').length;
    await replaceResourceData(other, 'watched', 'users', [{ id: 1 }]);
    await stream.next(
      (e, d) =>
        e.event === 'resources' &&
        (d as Json).projectId === project.id &&
        stream.events.filter((x) => x.event === 'resources').length > seen,
      'data replaced',
    );
  });
});
