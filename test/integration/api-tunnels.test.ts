/**
 * Admin API: tunnels (a project's tunnel: status, start, stop; the providers' check), in process
 * through the handler, with the stand-in `cloudflared` of the tests (no network).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ApiServices } from '../../src/api/route.js';
import { createApiServices } from '../../src/api/services.js';
import { apiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { testSigner } from '../helpers/license.js';
import { waitUntil } from '../helpers/wait.js';

type Json = Record<string, unknown>;
const signer = testSigner();

/**
 * The API over a data dir that trusts this test's signing key, with its services (the mock
 * servers it runs) and a project "shop"; with `pro`, a license activated. `env` adds to the
 * context's environment.
 */
async function tunnelApi(t: AfterHook, options: { pro?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const services: ApiServices = {};
  const api = apiSandbox(t, {
    services,
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, PATH: '/nonexistent', ...options.env },
  });
  const own = createApiServices(api.ctx);
  Object.assign(services, own);
  t.after(() => own.close());
  if (options.pro ?? true) {
    const r = await api.call('POST', '/api/v1/license/activate', { body: { key: signer.key() } });
    assert.equal(r.status, 200, r.body);
  }
  assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'shop' } })).status, 201);
  return api;
}

/** The tests' stand-in cloudflared (it runs on node, found on the real PATH). */
const STAND_IN_ENV = {
  MOCKDEV_CLOUDFLARED_PATH: fileURLToPath(new URL('../fixtures/tunnels/cloudflared', import.meta.url)),
  PATH: process.env.PATH,
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const code = (r: { json: unknown }): unknown => (r.json as Json).code;
const field = (r: { json: unknown }): unknown => ((r.json as Json).details as Json | undefined)?.field;

describe('admin API: tunnels', () => {
  it('without a license, every tunnel route is 403 LICENSE_REQUIRED', async (t) => {
    const api = await tunnelApi(t, { pro: false });
    for (const [method, url, body] of [
      ['GET', '/api/v1/projects/shop/tunnel', undefined],
      ['POST', '/api/v1/projects/shop/tunnel', { port: 4000 }],
      ['DELETE', '/api/v1/projects/shop/tunnel', undefined],
      ['GET', '/api/v1/tunnels/providers', undefined],
    ] as const) {
      const r = await api.call(method, url, { body });
      assert.equal(r.status, 403, `${method} ${url}: ${r.body}`);
      assert.equal(code(r), 'LICENSE_REQUIRED');
    }
  });

  it('answers 400 naming the field for a bad provider or port, and 404 for an unknown project', async (t) => {
    const api = await tunnelApi(t);
    for (const [body, name] of [
      [{ provider: 'frp' }, 'provider'],
      [{ port: 0 }, 'port'],
      [{ port: 70000 }, 'port'],
      [{ port: '4000' }, 'port'],
      [{ port: 3.5 }, 'port'],
    ] as const) {
      const r = await api.call('POST', '/api/v1/projects/shop/tunnel', { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal(code(r), 'INVALID_ARGUMENT');
      assert.equal(field(r), name, r.body);
    }
    const provider = await api.call('POST', '/api/v1/projects/shop/tunnel', { body: { provider: 'frp' } });
    assert.match((provider.json as Json).detail as string, /cloudflared, ngrok/);
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await api.call(method, '/api/v1/projects/nope/tunnel', {
        body: method === 'POST' ? { port: 4000 } : undefined,
      });
      assert.equal(r.status, 404, `${method}: ${r.body}`);
      assert.equal(code(r), 'PROJECT_NOT_FOUND');
    }
  });

  it('says the project has no tunnel; stopping none answers null; starting one with no server and no port is 404', async (t) => {
    const api = await tunnelApi(t);
    const none = await api.call('GET', '/api/v1/projects/shop/tunnel');
    assert.equal(none.status, 200, none.body);
    assert.equal(none.json, null);
    const stopped = await api.call('DELETE', '/api/v1/projects/shop/tunnel');
    assert.equal(stopped.status, 200, stopped.body);
    assert.equal(stopped.json, null);
    // Nothing to tunnel to: no server running, and no port given.
    const nowhere = await api.call('POST', '/api/v1/projects/shop/tunnel', { body: {} });
    assert.equal(nowhere.status, 404, nowhere.body);
    assert.equal(code(nowhere), 'NOT_FOUND');
    assert.match((nowhere.json as Json).detail as string, /no running mock server.*"port" field/s);
  });

  it('starts a tunnel to the project’s running server, answers it again while it runs, and stops it', async (t) => {
    const api = await tunnelApi(t, { env: STAND_IN_ENV });
    const running = await api.call('PUT', '/api/v1/projects/shop/server', { body: { port: 0 } });
    assert.equal(running.status, 201, running.body);
    const server = running.json as Json;
    t.after(() => api.call('DELETE', '/api/v1/projects/shop/tunnel'));

    const checks = (await api.call('GET', '/api/v1/tunnels/providers')).json as Json[];
    assert.equal(checks[0]!.available, true, JSON.stringify(checks));
    assert.match(checks[0]!.version as string, /2024\.8\.2/);

    const started = await api.call('POST', '/api/v1/projects/shop/tunnel', {
      body: { provider: 'cloudflared' },
    });
    assert.equal(started.status, 201, started.body);
    const { tunnel, alreadyRunning } = started.json as { tunnel: Json; alreadyRunning: boolean };
    assert.equal(alreadyRunning, false);
    assert.match(tunnel.url as string, /^https:\/\/[a-z0-9-]+\.trycloudflare\.com$/);
    assert.equal(tunnel.port, server.port, 'to the running mock server');
    assert.equal(tunnel.provider, 'cloudflared');
    assert.ok(alive(tunnel.pid as number), 'its process runs');

    assert.deepEqual((await api.call('GET', '/api/v1/projects/shop/tunnel')).json, tunnel);
    const again = await api.call('POST', '/api/v1/projects/shop/tunnel', { body: {} });
    assert.equal(again.status, 201, again.body);
    assert.deepEqual(again.json, { tunnel, alreadyRunning: true });

    const stopped = await api.call('DELETE', '/api/v1/projects/shop/tunnel');
    assert.equal(stopped.status, 200, stopped.body);
    assert.equal((stopped.json as Json).url, tunnel.url);
    assert.equal((await api.call('GET', '/api/v1/projects/shop/tunnel')).json, null);
    await waitUntil(() => !alive(tunnel.pid as number), 'the tunnel process gone');
  });

  it('starts the server with a tunnel (PUT …/server with tunnel), its URL in the record, and stops both', async (t) => {
    const api = await tunnelApi(t, { env: STAND_IN_ENV });
    const call = api.call.bind(api);
    const started = await call('PUT', '/api/v1/projects/shop/server', {
      body: { port: 0, tunnel: 'cloudflared' },
    });
    assert.equal(started.status, 201, started.body);
    const server = started.json as Json;
    assert.match(server.tunnelUrl as string, /^https:\/\/[a-z0-9-]+\.trycloudflare\.com$/);
    const tunnel = (await call('GET', '/api/v1/projects/shop/tunnel')).json as Json;
    assert.equal(tunnel.url, server.tunnelUrl);
    assert.equal(tunnel.withServer, true);
    assert.equal(tunnel.port, server.port);

    assert.equal((await call('DELETE', '/api/v1/projects/shop/server')).status, 200);
    await waitUntil(
      async () => (await call('GET', '/api/v1/projects/shop/tunnel')).json === null,
      'the tunnel stopped with the server',
    );
    await waitUntil(() => !alive(tunnel.pid as number), 'the tunnel process gone');
  });

  it('says how to install a missing cloudflared, and refuses to start a tunnel with it', async (t) => {
    const api = await tunnelApi(t, { env: { MOCKDEV_CLOUDFLARED_PATH: '/nonexistent/cloudflared' } });
    const checks = await api.call('GET', '/api/v1/tunnels/providers');
    assert.equal(checks.status, 200, checks.body);
    const list = checks.json as { provider: string; available: boolean; install?: Json }[];
    assert.deepEqual(
      list.map((c) => c.provider),
      ['cloudflared', 'ngrok'],
    );
    const cloudflared = list[0]!;
    assert.equal(cloudflared.available, false);
    assert.ok(cloudflared.install && (cloudflared.install.commands as string[]).length > 0, checks.body);
    assert.match(cloudflared.install.page as string, /^https:\/\//);

    const start = await api.call('POST', '/api/v1/projects/shop/tunnel', { body: { port: 4000 } });
    assert.ok(start.status >= 400 && start.status < 500, start.body);
    assert.match((start.json as Json).detail as string, /install/);
    assert.equal((await api.call('GET', '/api/v1/projects/shop/tunnel')).json, null);
  });
});
