import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, API_ORIGIN } from '../helpers/api.js';

type Json = Record<string, unknown>;

describe('admin API: projects', () => {
  it('creates, lists, shows (by id and by URL-encoded name), updates and deletes a project', async (t) => {
    const api = apiSandbox(t);
    const created = await api.call('POST', '/api/v1/projects', { body: { name: 'Shop API', port: 4100 } });
    assert.equal(created.status, 201, created.body);
    const project = created.json as Json;
    assert.equal(project.name, 'Shop API');
    assert.deepEqual(project.endpoints, []);

    const list = await api.call('GET', '/api/v1/projects');
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.json as Json[]).map((p) => p.id),
      [project.id],
    );
    const byName = await api.call('GET', `/api/v1/projects/${encodeURIComponent('Shop API')}`);
    assert.equal(byName.status, 200, byName.body);
    assert.equal((byName.json as Json).id, project.id);

    const patched = await api.call('PATCH', `/api/v1/projects/${project.id as string}`, {
      body: { description: 'the shop', port: 4101 },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.equal((patched.json as Json).port, 4101);
    assert.equal((await api.ctx.projects.find(project.id as string))[0]?.project.description, 'the shop');

    const deleted = await api.call('DELETE', `/api/v1/projects/${project.id as string}`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal(((deleted.json as Json).project as Json).id, project.id);
    assert.deepEqual((await api.call('GET', '/api/v1/projects')).json, []);
  });

  it('answers problem+json with the catalogue code and status for bad input, unknown and taken names', async (t) => {
    const api = apiSandbox(t);
    const bad = await api.call('POST', '/api/v1/projects', { body: { name: 'a/b', port: 80 } });
    assert.equal(bad.status, 400);
    assert.match(bad.headers['Content-Type']!, /^application\/problem\+json/);
    const problem = bad.json as Json;
    assert.equal(problem.code, 'INVALID_ARGUMENT');
    assert.equal(problem.status, 400);
    assert.equal(problem.type, 'about:blank');
    assert.match(problem.detail as string, /name|port/);

    const missing = await api.call('GET', '/api/v1/projects/nope');
    assert.equal(missing.status, 404);
    assert.equal((missing.json as Json).code, 'PROJECT_NOT_FOUND');
    assert.match((missing.json as Json).detail as string, /GET \/api\/v1\/projects/);

    assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'One' } })).status, 201);
    const taken = await api.call('POST', '/api/v1/projects', { body: { name: 'one' } });
    assert.equal(taken.status, 409, taken.body);
    assert.equal((taken.json as Json).code, 'NAME_TAKEN');

    const notJson = await api.call('POST', '/api/v1/projects', {
      body: '{"name":',
      type: 'application/json',
    });
    assert.equal(notJson.status, 400);
    assert.match((notJson.json as Json).detail as string, /not valid JSON/);
  });
});

describe('admin API: request checks', () => {
  it('refuses a foreign Host (403) and a foreign Origin (403); its own Origin passes', async (t) => {
    const api = apiSandbox(t);
    const rebound = await api.call('GET', '/api/v1/projects', { headers: { host: 'evil.example:3200' } });
    assert.equal(rebound.status, 403);
    assert.match((rebound.json as Json).detail as string, /DNS rebinding/);
    const foreign = await api.call('GET', '/api/v1/projects', { headers: { origin: 'http://evil.example' } });
    assert.equal(foreign.status, 403);
    const other = await api.call('GET', '/api/v1/projects', { headers: { origin: 'http://127.0.0.1:9999' } });
    assert.equal(other.status, 403, 'another local port is another origin');
    const own = await api.call('GET', '/api/v1/projects', { headers: { origin: API_ORIGIN } });
    assert.equal(own.status, 200);
    // The page's origin is the address the browser used: with its Host, 127.0.0.1 or localhost.
    const byHost = await api.call('POST', '/api/v1/projects', {
      body: { name: 'ByHost' },
      headers: { host: 'localhost:3200', origin: 'http://localhost:3200' },
    });
    assert.equal(byHost.status, 201, byHost.body);
    const mismatched = await api.call('GET', '/api/v1/projects', {
      headers: { host: 'localhost:3200', origin: 'http://localhost:3999' },
    });
    assert.equal(mismatched.status, 403, 'an Origin that is not the Host the request came to');
  });

  it('bound to another address (with a token), takes its UI from the address the browser used', async (t) => {
    const api = apiSandbox(t, { token: 'team-token', loopback: false });
    const auth = { authorization: 'Bearer team-token' };
    const fromLan = await api.call('POST', '/api/v1/projects', {
      body: { name: 'Shared' },
      headers: { ...auth, host: '192.168.1.5:3200', origin: 'http://192.168.1.5:3200' },
    });
    assert.equal(fromLan.status, 201, fromLan.body);
    const crossSite = await api.call('POST', '/api/v1/projects', {
      body: { name: 'Sneaky' },
      headers: { ...auth, host: '192.168.1.5:3200', origin: 'http://evil.example' },
    });
    assert.equal(crossSite.status, 403);
  });

  it('takes changes only as application/json: a form or text/plain body gets 415 and changes nothing', async (t) => {
    const api = apiSandbox(t);
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await api.call('POST', '/api/v1/projects', { body: '{"name":"Sneaky"}', type });
      assert.equal(r.status, 415, type);
      assert.equal((r.json as Json).code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const none = await api.call('POST', '/api/v1/projects', { body: '{"name":"Sneaky"}', type: '' });
    assert.equal(none.status, 415);
    assert.deepEqual((await api.call('GET', '/api/v1/projects')).json, []);
  });

  it('with a token, every request needs Authorization: Bearer <token> (401 otherwise)', async (t) => {
    const api = apiSandbox(t, { token: 's3cret-token' });
    const none = await api.call('GET', '/api/v1/health');
    assert.equal(none.status, 401);
    assert.equal(none.headers['WWW-Authenticate'], 'Bearer');
    assert.doesNotMatch(none.body, /s3cret/);
    const wrong = await api.call('GET', '/api/v1/health', {
      headers: { authorization: 'Bearer s3cret-tokeX' },
    });
    assert.equal(wrong.status, 401);
    const right = await api.call('GET', '/api/v1/health', {
      headers: { authorization: 'Bearer s3cret-token' },
    });
    assert.equal(right.status, 200);
  });

  it('a browser signs in once with the token and is then let in by its session cookie, until it signs out', async (t) => {
    const api = apiSandbox(t, { token: 's3cret-token' });
    const state = await api.call('GET', '/api/v1/session');
    assert.equal(state.status, 200, 'the only route open without the token');
    assert.deepEqual(state.json, { tokenRequired: true, signedIn: false });
    assert.equal((await api.call('GET', '/api/v1/projects')).status, 401);

    const wrong = await api.call('POST', '/api/v1/session', { body: { token: 'nope' } });
    assert.equal(wrong.status, 401);
    assert.equal((wrong.json as Json).code, 'UNAUTHORIZED');
    assert.equal(wrong.headers['Set-Cookie'], undefined);

    const signIn = await api.call('POST', '/api/v1/session', { body: { token: 's3cret-token' } });
    assert.equal(signIn.status, 204, signIn.body);
    const setCookie = signIn.headers['Set-Cookie']!;
    assert.match(setCookie, /^mockdev_session=[\w-]{40,}; HttpOnly; SameSite=Strict; Path=\/$/);
    assert.doesNotMatch(setCookie, /s3cret/, 'the cookie is a session id, not the token');
    const cookie = setCookie.split(';')[0]!;
    assert.equal((await api.call('GET', '/api/v1/projects', { headers: { cookie } })).status, 200);
    assert.deepEqual((await api.call('GET', '/api/v1/session', { headers: { cookie } })).json, {
      tokenRequired: true,
      signedIn: true,
    });
    const forged = await api.call('GET', '/api/v1/projects', {
      headers: { cookie: 'mockdev_session=forged' },
    });
    assert.equal(forged.status, 401);

    const signOut = await api.call('DELETE', '/api/v1/session', { headers: { cookie } });
    assert.equal(signOut.status, 204);
    assert.match(signOut.headers['Set-Cookie']!, /^mockdev_session=; .*Max-Age=0/);
    assert.equal((await api.call('GET', '/api/v1/projects', { headers: { cookie } })).status, 401);

    const open = apiSandbox(t);
    assert.deepEqual((await open.call('GET', '/api/v1/session')).json, {
      tokenRequired: false,
      signedIn: true,
    });
  });

  it('404 for an unknown route, 405 with Allow for a known path and another method', async (t) => {
    const api = apiSandbox(t);
    const unknown = await api.call('GET', '/api/v1/nothing-here');
    assert.equal(unknown.status, 404);
    assert.match((unknown.json as Json).detail as string, /openapi\.json/);
    const wrong = await api.call('PUT', '/api/v1/projects', { body: {} });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.Allow, 'GET, POST');
  });

  it('health answers ok and the version', async (t) => {
    const api = apiSandbox(t);
    const r = await api.call('GET', '/api/v1/health');
    assert.equal(r.status, 200);
    assert.equal((r.json as Json).status, 'ok');
    assert.match((r.json as Json).version as string, /^\d+\.\d+\.\d+/);
  });
});
