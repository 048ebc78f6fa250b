/**
 * Admin API: TLS (status, generate, trust instructions), in process through the handler. The
 * certificates are made for real in the sandbox's data directory.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import type { ApiServices } from '../../src/api/route.js';
import { createApiServices } from '../../src/api/services.js';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { testSigner } from '../helpers/license.js';
import { makeProject } from '../helpers/server.js';

type Json = Record<string, unknown>;
const signer = testSigner();

/** The API over a data dir that trusts this test's signing key; with `pro`, a license activated. */
async function tlsApi(t: AfterHook, pro = true): Promise<ApiSandbox> {
  const services: ApiServices = {};
  const api = apiSandbox(t, {
    services,
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, HOME: '/nonexistent-home' },
  });
  const own = createApiServices(api.ctx);
  Object.assign(services, own);
  t.after(() => own.close());
  if (pro) {
    const r = await api.call('POST', '/api/v1/license/activate', { body: { key: signer.key() } });
    assert.equal(r.status, 200, r.body);
  }
  return api;
}

const field = (r: { json: unknown }): unknown => ((r.json as Json).details as Json | undefined)?.field;

describe('admin API: TLS', () => {
  it('says there is no CA and no leaf yet, then generates both and shows them (Pro)', async (t) => {
    const api = await tlsApi(t);
    const before = await api.call('GET', '/api/v1/tls');
    assert.equal(before.status, 200, before.body);
    assert.equal((before.json as Json).ca, null);
    assert.equal((before.json as Json).leaf, null);

    const made = await api.call('POST', '/api/v1/tls/generate', { body: { hosts: ['myapp.test'] } });
    assert.equal(made.status, 201, made.body);
    const first = made.json as { status: Json; caCreated: boolean };
    assert.equal(first.caCreated, true);
    const ca = first.status.ca as Json;
    const leaf = first.status.leaf as Json;
    assert.match(ca.subject as string, /mockdev development CA/);
    for (const name of ['localhost', '127.0.0.1', '::1', 'myapp.test'])
      assert.ok((leaf.sans as string[]).includes(name), `${name} in ${JSON.stringify(leaf.sans)}`);
    assert.match(leaf.fingerprint256 as string, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.ok((leaf.daysLeft as number) > 800, String(leaf.daysLeft));

    const shown = (await api.call('GET', '/api/v1/tls')).json as Json;
    assert.equal((shown.leaf as Json).fingerprint256, leaf.fingerprint256);
    assert.ok(Array.isArray(shown.trust));

    // A renewal keeps the CA; newCa makes another.
    const renewed = (await api.call('POST', '/api/v1/tls/generate', { body: {} })).json as {
      status: Json;
      caCreated: boolean;
    };
    assert.equal(renewed.caCreated, false);
    assert.equal((renewed.status.ca as Json).fingerprint256, ca.fingerprint256);
    assert.notEqual((renewed.status.leaf as Json).fingerprint256, leaf.fingerprint256);
    const newCa = await api.call('POST', '/api/v1/tls/generate', { body: { newCa: true } });
    assert.equal(newCa.status, 201, newCa.body);
    assert.equal((newCa.json as { caCreated: boolean }).caCreated, true);
    assert.notEqual(((newCa.json as { status: Json }).status.ca as Json).fingerprint256, ca.fingerprint256);
  });

  it('serves a project over HTTPS with the generated leaf (PUT …/server with tls: true)', async (t) => {
    const api = await tlsApi(t);
    await makeProject(api.dataDir, 'shop', [{ path: '/ping', body: '{"pong":true}' }]);
    const none = await api.call('PUT', '/api/v1/projects/shop/server', { body: { port: 0, tls: true } });
    assert.ok(none.status >= 400 && none.status < 500, none.body);
    assert.match((none.json as Json).detail as string, /tls generate/, 'no leaf yet: says how to make one');

    const made = await api.call('POST', '/api/v1/tls/generate', { body: {} });
    assert.equal(made.status, 201, made.body);
    const started = await api.call('PUT', '/api/v1/projects/shop/server', { body: { port: 0, tls: true } });
    assert.equal(started.status, 201, started.body);
    const server = started.json as Json;
    assert.equal(server.tls, true);
    assert.match(server.url as string, /^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(((made.json as { status: Json }).status.ca as Json).path as string, 'utf8');
    const answer = await new Promise<string>((resolve, reject) => {
      const req = httpsGet(`${server.url as string}/ping`, { ca, servername: 'localhost' }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
    });
    assert.equal(answer, '{"pong":true}', 'the CA verifies the leaf, and the mock answers');
  });

  it('refuses to generate without a license (403 LICENSE_REQUIRED), and writes nothing', async (t) => {
    const api = await tlsApi(t, false);
    const r = await api.call('POST', '/api/v1/tls/generate', { body: {} });
    assert.equal(r.status, 403, r.body);
    assert.equal((r.json as Json).code, 'LICENSE_REQUIRED');
    const status = (await api.call('GET', '/api/v1/tls')).json as Json;
    assert.equal(status.ca, null);
    assert.equal(status.leaf, null);
  });

  it('answers the trust commands for each system, never running them', async (t) => {
    const api = await tlsApi(t);
    const expected: Record<string, RegExp> = {
      macos: /security add-trusted-cert/,
      windows: /certutil -addstore -f ROOT/,
      linux: /update-ca-certificates/,
      firefox: /certutil -d sql:\$HOME\/\.pki\/nssdb/,
      java: /keytool -importcert/,
      node: /NODE_EXTRA_CA_CERTS/,
    };
    for (const [os, command] of Object.entries(expected)) {
      const r = await api.call('GET', `/api/v1/tls/trust?os=${os}`);
      assert.equal(r.status, 200, r.body);
      const instructions = r.json as { target: string; caFile: string; steps: { commands: string[] }[] };
      assert.equal(instructions.target, os);
      assert.match(instructions.steps.flatMap((s) => s.commands).join('\n'), command, os);
      assert.match(instructions.caFile, /ca\.pem$/);
    }
    const here = await api.call('GET', '/api/v1/tls/trust');
    assert.equal(here.status, 200, here.body);
    assert.equal((here.json as Json).target, 'linux', 'this system (the tests run on Linux)');
  });

  it('answers 400 naming the field for a bad os, hosts or newCa, or an unknown field', async (t) => {
    const api = await tlsApi(t);
    const os = await api.call('GET', '/api/v1/tls/trust?os=plan9');
    assert.equal(os.status, 400, os.body);
    assert.equal(field(os), 'os');
    assert.match((os.json as Json).detail as string, /macos, windows, linux/);
    for (const [body, name] of [
      [{ hosts: 'myapp.test' }, 'hosts'],
      [{ hosts: [''] }, 'hosts.0'],
      [{ newCa: 'yes' }, 'newCa'],
    ] as const) {
      const r = await api.call('POST', '/api/v1/tls/generate', { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal((r.json as Json).code, 'INVALID_ARGUMENT');
      assert.equal(field(r), name, r.body);
    }
    const unknown = await api.call('POST', '/api/v1/tls/generate', { body: { force: true } });
    assert.equal(unknown.status, 400, unknown.body);
    assert.match((unknown.json as Json).detail as string, /force/);
    assert.equal(((await api.call('GET', '/api/v1/tls')).json as Json).ca, null, 'nothing made');
  });
});
