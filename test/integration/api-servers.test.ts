/**
 * Admin API: servers (in process, no admin socket; the mock servers it starts listen on free
 * ports). The servers run in this test process, as they run in `mockdev ui`'s.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startServer, stopServers } from '../../src/app/server.js';
import type { ApiServices } from '../../src/api/route.js';
import { createApiServices } from '../../src/api/services.js';
import { apiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject } from '../helpers/server.js';

type Json = Record<string, unknown>;

/** An API sandbox with its services (servers, events), closed after the test. */
function sandbox(t: AfterHook) {
  const services: ApiServices = {};
  const api = apiSandbox(t, { services });
  const own = createApiServices(api.ctx);
  Object.assign(services, own);
  t.after(() => own.close());
  return { ...api, services: own };
}

const problemCode = (r: { json: unknown }): unknown => (r.json as Json).code;

describe('admin API: servers', () => {
  it('starts a project server, lists it, refuses a second start, stops it, then answers 404', async (t) => {
    const api = sandbox(t);
    await makeProject(api.dataDir, 'shop', [{ path: '/ping', body: '{"pong":true}' }]);
    const started = await api.call('PUT', '/api/v1/projects/shop/server', { body: { port: 0 } });
    assert.equal(started.status, 201, started.body);
    const server = started.json as Json;
    assert.equal(server.projectName, 'shop');
    assert.equal(server.pid, process.pid);
    assert.equal(server.stopByRequest, true);
    assert.equal(typeof server.uptimeMs, 'number');
    assert.equal(await (await fetch(`${server.url as string}/ping`)).text(), '{"pong":true}');

    const listed = await api.call('GET', '/api/v1/servers');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.json as Json[]).map((s) => s.url),
      [server.url],
    );

    const again = await api.call('PUT', '/api/v1/projects/shop/server', { body: {} });
    assert.equal(again.status, 409, again.body);
    assert.equal(problemCode(again), 'CONFLICT');
    assert.match((again.json as Json).detail as string, new RegExp(String(server.url)));

    const stopped = await api.call('DELETE', '/api/v1/projects/shop/server');
    assert.equal(stopped.status, 200, stopped.body);
    assert.deepEqual(
      (stopped.json as Json[]).map((s) => s.url),
      [server.url],
    );
    assert.deepEqual((await api.call('GET', '/api/v1/servers')).json, []);
    await assert.rejects(fetch(`${server.url as string}/ping`), 'the port is closed');
    const none = await api.call('DELETE', '/api/v1/projects/shop/server');
    assert.equal(none.status, 404, none.body);
    assert.equal(problemCode(none), 'NOT_FOUND');
    assert.deepEqual(api.services.servers.running(), []);
  });

  it('refuses bad ports, hosts, tls and tunnel values (400), TLS without a leaf (naming `tls generate`), a busy port (409 PORT_IN_USE) and unknown projects (404)', async (t) => {
    const api = sandbox(t);
    await makeProject(api.dataDir, 'shop', []);
    const put = (body: unknown) => api.call('PUT', '/api/v1/projects/shop/server', { body });
    for (const body of [
      { port: 80 },
      { port: 70000 },
      { port: 'x' },
      { port: 3.5 },
      { host: 'a b' },
      { nope: 1 },
      { tls: 'yes' },
      { tunnel: 'frp' },
    ]) {
      const r = await put(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal(problemCode(r), 'INVALID_ARGUMENT');
    }
    const tunnel = await put({ tunnel: 'frp' });
    assert.equal(((tunnel.json as Json).details as Json).field, 'tunnel', tunnel.body);
    // HTTPS with the generated leaf: none yet, and the answer says how to make one.
    const tls = await put({ tls: true, port: 0 });
    assert.ok(tls.status >= 400 && tls.status < 500, tls.body);
    assert.match((tls.json as Json).detail as string, /tls generate/);
    assert.deepEqual((await api.call('GET', '/api/v1/servers')).json, [], 'no server left from the refusal');

    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = (busy.address() as { port: number }).port;
    const inUse = await put({ port });
    assert.equal(inUse.status, 409, inUse.body);
    assert.equal(problemCode(inUse), 'PORT_IN_USE');

    const unknown = await api.call('PUT', '/api/v1/projects/nope/server', { body: {} });
    assert.equal(unknown.status, 404);
    assert.equal(problemCode(unknown), 'PROJECT_NOT_FOUND');
    assert.equal(problemCode(await api.call('DELETE', '/api/v1/projects/nope/server')), 'PROJECT_NOT_FOUND');
    const noType = await api.call('PUT', '/api/v1/projects/shop/server');
    assert.equal(noType.status, 415, 'a state change needs application/json');
    assert.deepEqual((await api.call('GET', '/api/v1/servers')).json, []);
  });

  it('is stopped by `mockdev stop` (stopServers from another process) without ending its host', async (t) => {
    const api = sandbox(t);
    await makeProject(api.dataDir, 'shop', [{ path: '/ping', body: 'pong' }]);
    const started = await api.call('PUT', '/api/v1/projects/shop/server', { body: { port: 0 } });
    assert.equal(started.status, 201, started.body);
    // Another context over the same data directory: what `mockdev stop` in a terminal sees.
    const other = createContext({ dataDir: api.dataDir, cwd: api.dataDir });
    t.after(() => other.close());
    const stopped = await stopServers(other, 'shop', { timeoutMs: 10_000 });
    assert.deepEqual(
      stopped.map((s) => s.projectName),
      ['shop'],
    );
    // This process (the host) is still here: the stop was a request, not a SIGTERM.
    assert.deepEqual(await other.servers.list(), []);
    assert.deepEqual(api.services.servers.running(), []);
    assert.equal((await api.call('GET', '/api/v1/health')).status, 200);
  });

  it('stops a server of another process (as `mockdev stop` does), and every server it runs on close()', async (t) => {
    const api = sandbox(t);
    await makeProject(api.dataDir, 'a', []);
    await makeProject(api.dataDir, 'b', []);
    await makeProject(api.dataDir, 'c', []);
    // A server this API did not start (in this process for the test, registered like `serve`'s
    // but stopped by request so that this test process survives).
    const other = createContext({ dataDir: api.dataDir, cwd: api.dataDir });
    t.after(() => other.close());
    const foreign = await startServer(other, { project: 'c', port: 0, stopByRequest: true });
    const stoppedForeign = await api.call('DELETE', '/api/v1/projects/c/server');
    assert.equal(stoppedForeign.status, 200, stoppedForeign.body);
    await foreign.stopped;

    for (const p of ['a', 'b'])
      assert.equal(
        (await api.call('PUT', `/api/v1/projects/${p}/server`, { body: { port: 0 } })).status,
        201,
      );
    assert.equal(((await api.call('GET', '/api/v1/servers')).json as Json[]).length, 2);
    await api.services.close();
    assert.deepEqual(await api.ctx.servers.list(), []);
  });
});
