/**
 * Admin API: tunnels (a project's tunnel: status, start, stop; the providers' check), in process
 * through the handler, with the stand-in `cloudflared` of the tests (no network).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { testSigner } from '../helpers/license.js';

type Json = Record<string, unknown>;
const signer = testSigner();

/**
 * The API over a data dir that trusts this test's signing key, with a project "shop"; with
 * `pro`, a license activated. `env` adds to the context's environment.
 */
async function tunnelApi(t: AfterHook, options: { pro?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const api = apiSandbox(t, {
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, PATH: '/nonexistent', ...options.env },
  });
  if (options.pro ?? true) {
    const r = await api.call('POST', '/api/v1/license/activate', { body: { key: signer.key() } });
    assert.equal(r.status, 200, r.body);
  }
  assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'shop' } })).status, 201);
  return api;
}

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

  it('says the project has no tunnel; stopping none answers null', async (t) => {
    const api = await tunnelApi(t);
    const none = await api.call('GET', '/api/v1/projects/shop/tunnel');
    assert.equal(none.status, 200, none.body);
    assert.equal(none.json, null);
    const stopped = await api.call('DELETE', '/api/v1/projects/shop/tunnel');
    assert.equal(stopped.status, 200, stopped.body);
    assert.equal(stopped.json, null);
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
