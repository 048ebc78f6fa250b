import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

async function project(api: ApiSandbox, name = 'Shop'): Promise<string> {
  const r = await api.call('POST', '/api/v1/projects', { body: { name } });
  assert.equal(r.status, 201, r.body);
  return (r.json as Json).id as string;
}

async function add(api: ApiSandbox, p: string, body: Json): Promise<Json> {
  const r = await api.call('POST', `/api/v1/projects/${p}/endpoints`, { body });
  assert.equal(r.status, 201, r.body);
  return r.json as Json;
}

const problem = (r: { json: unknown }) => r.json as { code: string; detail: string; status: number };

describe('admin API: endpoints', () => {
  it('adds (with the defaults), lists, shows by id, name and "METHOD /path", updates and removes', async (t) => {
    const api = apiSandbox(t);
    const p = await project(api);
    const created = await add(api, p, { path: '/api/users/:id', body: '{"id":1}' });
    assert.equal(created.method, 'GET');
    assert.equal(created.status, 200);
    assert.equal(created.contentType, 'application/json');
    assert.equal(created.enabled, true);
    assert.equal(created.kind, 'mock');
    await add(api, p, { name: 'Off', method: 'post', path: '/api/users', status: 201, enabled: false });

    const list = await api.call('GET', `/api/v1/projects/${p}/endpoints`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.json as Json[]).map((e) => `${e.method as string} ${e.path as string}`),
      ['GET /api/users/:id', 'POST /api/users'],
    );
    const enabled = await api.call('GET', `/api/v1/projects/Shop/endpoints?enabledOnly=true`);
    assert.deepEqual(
      (enabled.json as Json[]).map((e) => e.id),
      [created.id],
    );
    const badFlag = await api.call('GET', `/api/v1/projects/Shop/endpoints?enabledOnly=yes`);
    assert.equal(badFlag.status, 400);
    assert.match(problem(badFlag).detail, /enabledOnly/);

    for (const ref of [created.id as string, created.name as string, 'GET /api/users/{id}']) {
      const one = await api.call('GET', `/api/v1/projects/${p}/endpoints/${encodeURIComponent(ref)}`);
      assert.equal(one.status, 200, `${ref}: ${one.body}`);
      assert.equal((one.json as Json).id, created.id);
    }

    const patched = await api.call('PATCH', `/api/v1/projects/${p}/endpoints/${created.id as string}`, {
      body: { status: 404, delay: 20 },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.equal((patched.json as Json).status, 404);
    assert.equal((patched.json as Json).body, '{"id":1}', 'fields not given keep their values');
    const stored = await api.ctx.projects.find(p);
    assert.equal(stored[0]!.endpoints.find((e) => e.id === created.id)?.delay, 20);

    const removed = await api.call('DELETE', `/api/v1/projects/${p}/endpoints/Off`);
    assert.equal(removed.status, 200, removed.body);
    assert.equal((removed.json as Json).name, 'Off');
    const after = await api.call('GET', `/api/v1/projects/${p}/endpoints`);
    assert.deepEqual(
      (after.json as Json[]).map((e) => e.id),
      [created.id],
    );
  });

  it('PATCH merges headers: a named header is set or replaced in any case, null removes it', async (t) => {
    const api = apiSandbox(t);
    const p = await project(api);
    const e = await add(api, p, { path: '/h', headers: { 'X-One': '1', 'X-Two': '2' } });
    const url = `/api/v1/projects/${p}/endpoints/${e.id as string}`;
    const r = await api.call('PATCH', url, {
      body: { headers: { 'x-one': 'uno', 'X-Two': null, 'X-Three': '3' } },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual((r.json as Json).headers, { 'x-one': 'uno', 'X-Three': '3' });
    const missing = await api.call('PATCH', url, { body: { headers: { 'X-Nope': null } } });
    assert.equal(missing.status, 400);
    assert.match(problem(missing).detail, /no header "X-Nope"/);
    const nothing = await api.call('PATCH', url, { body: {} });
    assert.equal(nothing.status, 400, 'an empty change is refused');
  });

  it('errors: unknown project 404, unknown endpoint 404, duplicate route 409, bad fields 400 naming them', async (t) => {
    const api = apiSandbox(t);
    const p = await project(api);
    const e = await add(api, p, { method: 'GET', path: '/api/users/{id}' });

    for (const [method, url, body] of [
      ['GET', '/api/v1/projects/nope/endpoints', undefined],
      ['POST', '/api/v1/projects/nope/endpoints', { path: '/x' }],
      ['GET', '/api/v1/projects/nope/endpoints/x', undefined],
      ['PATCH', '/api/v1/projects/nope/endpoints/x', { status: 500 }],
      ['DELETE', '/api/v1/projects/nope/endpoints/x', undefined],
      ['DELETE', '/api/v1/projects/nope/endpoints?ids=x', undefined],
      ['GET', '/api/v1/projects/nope/endpoints/x/snippets', undefined],
    ] as const) {
      const r = await api.call(method, url, body === undefined ? {} : { body });
      assert.equal(r.status, 404, `${method} ${url}: ${r.body}`);
      assert.equal(problem(r).code, 'PROJECT_NOT_FOUND', `${method} ${url}`);
    }
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { status: 500 }],
      ['DELETE', undefined],
    ] as const) {
      const r = await api.call(
        method,
        `/api/v1/projects/${p}/endpoints/nope`,
        body === undefined ? {} : { body },
      );
      assert.equal(r.status, 404, `${method}: ${r.body}`);
      assert.equal(problem(r).code, 'NOT_FOUND');
      assert.match(problem(r).detail, /Endpoint "nope" not found/);
    }

    const dup = await api.call('POST', `/api/v1/projects/${p}/endpoints`, {
      body: { path: '/api/users/:userId' },
    });
    assert.equal(dup.status, 409, dup.body);
    assert.equal(problem(dup).code, 'CONFLICT');
    const other = await add(api, p, { method: 'POST', path: '/api/users' });
    const moved = await api.call('PATCH', `/api/v1/projects/${p}/endpoints/${other.id as string}`, {
      body: { method: 'GET', path: '/api/users/:id' },
    });
    assert.equal(moved.status, 409, 'a PATCH onto a taken route clashes too');

    for (const [body, field] of [
      [{ path: '/x', status: 99 }, /status/],
      [{ path: '/x', method: 'FETCH' }, /method/],
      [{ status: 200 }, /path/],
      [{ path: '/x', headers: { 'Bad Name': 'v' } }, /header name/],
      [{ path: '/x', delay: -1 }, /delay/],
    ] as const) {
      const r = await api.call('POST', `/api/v1/projects/${p}/endpoints`, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(problem(r).code, 'INVALID_ARGUMENT');
      assert.match(problem(r).detail, field, JSON.stringify(body));
    }
    const badPatch = await api.call('PATCH', `/api/v1/projects/${p}/endpoints/${e.id as string}`, {
      body: { status: 'teapot' },
    });
    assert.equal(badPatch.status, 400);
    assert.match(problem(badPatch).detail, /status/);
  });

  it('a template error in a body is 400 with its line and column', async (t) => {
    const api = apiSandbox(t);
    const p = await project(api);
    const r = await api.call('POST', `/api/v1/projects/${p}/endpoints`, {
      body: { path: '/t', body: '{\n  "a": "{{#if x}}"\n}' },
    });
    assert.equal(r.status, 400, r.body);
    assert.match(problem(r).detail, /in body at line 3, column \d+/);
    const e = await add(api, p, { path: '/ok' });
    const patched = await api.call('PATCH', `/api/v1/projects/${p}/endpoints/${e.id as string}`, {
      body: { headers: { 'X-T': '{{oops' } },
    });
    assert.equal(patched.status, 400, patched.body);
    assert.match(problem(patched).detail, /header "X-T"/);
  });
});

describe('admin API: removing several endpoints', () => {
  async function tree(api: ApiSandbox): Promise<{ p: string; ids: Record<string, string> }> {
    const p = await project(api);
    const ids: Record<string, string> = {};
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['POST', '/api/users'],
      ['GET', '/api/users/{id}'],
      ['DELETE', '/api/users/:id/'],
      ['GET', '/api/usersettings'],
      ['GET', '/health'],
    ]) {
      ids[`${method} ${path}`] = (await add(api, p, { method, path })).id as string;
    }
    return { p, ids };
  }
  const paths = async (api: ApiSandbox, p: string) =>
    ((await api.call('GET', `/api/v1/projects/${p}/endpoints`)).json as Json[]).map(
      (e) => `${e.method as string} ${e.path as string}`,
    );

  it('?pathPrefix removes a folder: the path and everything under it, never a longer sibling', async (t) => {
    const api = apiSandbox(t);
    const { p } = await tree(api);
    const r = await api.call(
      'DELETE',
      `/api/v1/projects/${p}/endpoints?pathPrefix=${encodeURIComponent('/api/users/')}`,
    );
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(
      (r.json as Json[]).map((e) => `${e.method as string} ${e.path as string}`),
      ['GET /api/users', 'POST /api/users', 'GET /api/users/{id}', 'DELETE /api/users/:id/'],
    );
    assert.deepEqual(await paths(api, p), ['GET /api/usersettings', 'GET /health']);
  });

  it('GET ?pathPrefix lists exactly what DELETE ?pathPrefix removes (the UI asks with it before Delete Path)', async (t) => {
    const api = apiSandbox(t);
    const { p } = await tree(api);
    const listed = async (prefix: string) => {
      const r = await api.call(
        'GET',
        `/api/v1/projects/${p}/endpoints?pathPrefix=${encodeURIComponent(prefix)}`,
      );
      assert.equal(r.status, 200, r.body);
      return (r.json as Json[]).map((e) => `${e.method as string} ${e.path as string}`);
    };
    assert.deepEqual(await listed('/api/users/{x}'), ['GET /api/users/{id}', 'DELETE /api/users/:id/']);
    assert.deepEqual(await listed('/nothing'), [], 'an empty folder lists nothing (no 404 for a list)');
    assert.equal((await listed('/')).length, 6);
    const expected = await listed('/api/users');
    const removed = await api.call('DELETE', `/api/v1/projects/${p}/endpoints?pathPrefix=/api/users`);
    assert.deepEqual(
      (removed.json as Json[]).map((e) => `${e.method as string} ${e.path as string}`),
      expected,
    );
    const bad = await api.call('GET', `/api/v1/projects/${p}/endpoints?pathPrefix=api`);
    assert.equal(bad.status, 400);
    assert.match(String((bad.json as Json).detail), /Invalid path prefix "api"/);
  });

  it('?pathPrefix with a parameter segment matches :id and {id} alike', async (t) => {
    const api = apiSandbox(t);
    const { p } = await tree(api);
    const r = await api.call('DELETE', `/api/v1/projects/${p}/endpoints?pathPrefix=/api/users/:userId`);
    assert.equal(r.status, 200, r.body);
    assert.equal((r.json as Json[]).length, 2);
    assert.deepEqual(await paths(api, p), [
      'GET /api/users',
      'POST /api/users',
      'GET /api/usersettings',
      'GET /health',
    ]);
  });

  it('?ids removes exactly those; one unknown id removes nothing and is named in a 404', async (t) => {
    const api = apiSandbox(t);
    const { p, ids } = await tree(api);
    const unknown = await api.call(
      'DELETE',
      `/api/v1/projects/${p}/endpoints?ids=${ids['GET /health']!},nope,${ids['GET /api/users']!}`,
    );
    assert.equal(unknown.status, 404, unknown.body);
    assert.equal(problem(unknown).code, 'NOT_FOUND');
    assert.match(problem(unknown).detail, /"nope"/);
    assert.equal((await paths(api, p)).length, 6, 'all or nothing: nothing was removed');

    const r = await api.call(
      'DELETE',
      `/api/v1/projects/${p}/endpoints?ids=${ids['GET /health']!},${ids['GET /api/users']!}`,
    );
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(
      (r.json as Json[]).map((e) => e.id),
      [ids['GET /api/users'], ids['GET /health']],
    );
    assert.deepEqual(await paths(api, p), [
      'POST /api/users',
      'GET /api/users/{id}',
      'DELETE /api/users/:id/',
      'GET /api/usersettings',
    ]);
  });

  it('neither or both of ids and pathPrefix: 400; a prefix nothing is under: 404; a bad prefix: 400', async (t) => {
    const api = apiSandbox(t);
    const { p } = await tree(api);
    for (const q of ['', '?ids=a&pathPrefix=/api', '?ids=']) {
      const r = await api.call('DELETE', `/api/v1/projects/${p}/endpoints${q}`);
      assert.equal(r.status, 400, `${q}: ${r.body}`);
      assert.equal(problem(r).code, 'INVALID_ARGUMENT');
    }
    const none = await api.call('DELETE', `/api/v1/projects/${p}/endpoints?pathPrefix=/api/orders`);
    assert.equal(none.status, 404, none.body);
    assert.match(problem(none).detail, /\/api\/orders/);
    const bad = await api.call('DELETE', `/api/v1/projects/${p}/endpoints?pathPrefix=api`);
    assert.equal(bad.status, 400, bad.body);
    assert.equal((await paths(api, p)).length, 6);
    const root = await api.call('DELETE', `/api/v1/projects/${p}/endpoints?pathPrefix=/`);
    assert.equal(root.status, 200);
    assert.deepEqual(await paths(api, p), [], 'the root holds every endpoint');
  });
});
