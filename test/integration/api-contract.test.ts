/**
 * Admin API: contract testing (info, import by URL or as text, validate, status, live) and the
 * request list's `violations=true`, in process through the handler; the mock server runs in
 * process on a free port and the document is fetched from a local HTTP server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateContract } from '../../src/app/contract.js';
import { startServer } from '../../src/app/server.js';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { ROOT } from '../helpers/cli.js';
import { testSigner } from '../helpers/license.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

type Json = Record<string, unknown>;
const signer = testSigner();
const SHOP = readFileSync(join(ROOT, 'test', 'fixtures', 'contract', 'shop-ui.yaml'), 'utf8');
const BASE = '/api/v1/projects/shop/contract';

/** The API over a data dir with the project "shop"; with `pro`, a license activated. */
async function contractApi(t: AfterHook, pro = true): Promise<ApiSandbox> {
  const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem } });
  await makeProject(api.dataDir, 'shop', [
    { path: '/api/users', body: '[{"id":1,"name":"Ada"}]' },
    { path: '/api/users/{id}', body: '{"id":"{{params.id}}","name":"Ada"}' },
  ]);
  if (pro) {
    const r = await api.call('POST', '/api/v1/license/activate', { body: { key: signer.key() } });
    assert.equal(r.status, 200, r.body);
  }
  return api;
}

/** A local server answering the shop document at /shop.yaml, 404 elsewhere; its origin. */
async function documentServer(t: AfterHook): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/shop.yaml') res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(SHOP);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const problem = (r: { json: unknown }) => r.json as { code?: string; detail?: string; details?: Json };

describe('admin API: contract', () => {
  it('refuses every contract route without a license (403 LICENSE_REQUIRED), changing nothing', async (t) => {
    const api = await contractApi(t, false);
    for (const [method, url, body] of [
      ['GET', BASE, undefined],
      ['POST', BASE, { document: SHOP }],
      ['POST', `${BASE}/validate`, {}],
      ['GET', `${BASE}/status`, undefined],
      ['PUT', `${BASE}/live`, { live: true }],
    ] as const) {
      const r = await api.call(method, url, { body });
      assert.equal(r.status, 403, `${method} ${url}: ${r.body}`);
      assert.equal(problem(r).code, 'LICENSE_REQUIRED');
    }
    const project = (await api.call('GET', '/api/v1/projects/shop')).json as Json;
    assert.equal(project.contract, undefined, 'no contract was stored');
  });

  it('checks what is sent: url or document (one), an http(s) spec only, a boolean live', async (t) => {
    const api = await contractApi(t);
    const bad = async (method: string, url: string, body: unknown, field: RegExp) => {
      const r = await api.call(method, url, { body });
      assert.equal(r.status, 400, `${method} ${url} ${JSON.stringify(body)}: ${r.body}`);
      assert.match(JSON.stringify(problem(r)), field);
    };
    await bad('POST', BASE, {}, /url or document/);
    await bad('POST', BASE, { url: 'http://x.test/a.yaml', document: SHOP }, /url or document/);
    await bad('POST', BASE, { url: 'file:///etc/passwd' }, /http\(s\) URL/);
    await bad('POST', `${BASE}/validate`, { spec: '/etc/openapi.yaml' }, /reads no file by its path/);
    await bad('POST', `${BASE}/validate`, { limit: 0 }, /limit/);
    await bad('GET', `${BASE}/status?spec=openapi.yaml`, undefined, /reads no file by its path/);
    await bad('PUT', `${BASE}/live`, { live: 'yes' }, /live/);
    const none = await api.call('GET', BASE);
    assert.equal(none.status, 404, none.body);
    assert.match(problem(none).detail ?? '', /Import it with POST/);
  });

  it('imports by URL and as text, switches live, and validates and covers the logged requests', async (t) => {
    const api = await contractApi(t);
    const origin = await documentServer(t);

    const missing = await api.call('POST', BASE, { body: { url: `${origin}/nope.yaml` } });
    assert.ok(missing.status >= 400, missing.body);
    assert.match(problem(missing).detail ?? missing.body, /nope\.yaml/, 'the failure names the URL');
    const invalid = await api.call('POST', BASE, { body: { document: 'openapi: 3.0.3\npaths: {}\n' } });
    assert.equal(invalid.status, 422, invalid.body);
    assert.equal(problem(invalid).code, 'INVALID_INPUT');

    const byUrl = await api.call('POST', BASE, { body: { url: `${origin}/shop.yaml` } });
    assert.equal(byUrl.status, 201, byUrl.body);
    const fetched = (byUrl.json as { contract: Json; bytes: number }).contract;
    assert.equal(fetched.source, `${origin}/shop.yaml`);
    assert.equal((byUrl.json as { bytes: number }).bytes, Buffer.byteLength(SHOP));

    const uploaded = await api.call('POST', BASE, { body: { document: SHOP } });
    assert.equal(uploaded.status, 201, uploaded.body);
    const info = (await api.call('GET', BASE)).json as Json & { operations: { operation: string }[] };
    assert.deepEqual(
      [info.title, info.version, info.dialect, info.live],
      ['Shop API', '1.4.0', '3.0', false],
    );
    assert.deepEqual(
      info.operations.map((o) => o.operation),
      [
        'GET /api/users',
        'POST /api/users',
        'GET /api/users/{id}',
        'DELETE /api/users/{id}',
        'GET /api/orders',
        'GET /health',
      ],
    );

    const live = await api.call('PUT', `${BASE}/live`, { body: { live: true } });
    assert.equal(live.status, 200, live.body);
    assert.equal((live.json as Json).live, true);
    assert.equal(((await api.call('GET', BASE)).json as Json).live, true);

    const server = await startServer(api.ctx, { project: 'shop', port: 0 });
    t.after(() => server.stop());
    for (const path of ['/api/users', '/api/users/7', '/nope'])
      await (await fetch(`${server.url}${path}`)).text();
    const logged = async () =>
      ((await api.call('GET', '/api/v1/projects/shop/requests')).json as Json[]).length === 3;
    await waitUntil(logged, 'the three requests in the log');

    const validated = await api.call('POST', `${BASE}/validate`, { body: {} });
    assert.equal(validated.status, 200, validated.body);
    const report = validated.json as { checked: number; passed: number; failed: number; violations: Json[] };
    assert.deepEqual(report, (await validateContract(api.ctx, 'shop')).report, 'the use case’s report');
    assert.deepEqual([report.checked, report.passed, report.failed], [3, 1, 2]);
    const idType = report.violations.find((v) => v.operation === 'GET /api/users/{id}');
    assert.ok(idType, JSON.stringify(report.violations));
    assert.deepEqual([idType.in, idType.location, idType.rule], ['response', 'body.id', 'type']);
    assert.ok(report.violations.some((v) => v.operation === null && v.rule === 'unknown-operation'));
    const one = (await api.call('POST', `${BASE}/validate`, { body: { limit: 1 } })).json as Json;
    assert.equal(one.checked, 1, 'limit: the newest only');

    const status = await api.call('GET', `${BASE}/status`);
    assert.equal(status.status, 200, status.body);
    const coverage = status.json as {
      unexercised: string[];
      unmatched: Json[];
      covered: number;
      total: number;
    };
    assert.deepEqual([coverage.covered, coverage.total], [2, 6]);
    assert.ok(coverage.unexercised.includes('DELETE /api/users/{id}'));
    assert.deepEqual(coverage.unmatched, [{ method: 'GET', path: '/nope', requests: 1 }]);
  });

  it('lists only the requests a live check failed with violations=true', async (t) => {
    const api = await contractApi(t);
    const server = await startServer(api.ctx, { project: 'shop', port: 0 });
    t.after(() => server.stop());
    for (const path of ['/api/users', '/api/users/7']) await (await fetch(`${server.url}${path}`)).text();
    const list = async (query = '') =>
      (await api.call('GET', `/api/v1/projects/shop/requests${query}`)).json as Json[];
    await waitUntil(async () => (await list()).length === 2, 'the two requests in the log');
    const [newest, oldest] = await list();
    const violation = {
      requestId: newest!.id as string,
      method: 'GET',
      path: '/api/users/7',
      operation: 'GET /api/users/{id}',
      in: 'response' as const,
      location: 'body.id',
      rule: 'type',
      message: 'must be integer',
      schemaPath:
        '#/paths/~1api~1users~1{id}/get/responses/200/content/application~1json/schema/properties/id/type',
    };
    await api.ctx.requests.setContractVerdicts([
      { id: newest!.id as string, verdict: { ok: false, violations: [violation] } },
      { id: oldest!.id as string, verdict: { ok: true, violations: [] } },
    ]);
    const failing = await list('?violations=true');
    assert.deepEqual(
      failing.map((r) => r.id),
      [newest!.id],
    );
    assert.deepEqual((failing[0]!.contract as Json).violations, [violation]);
    assert.equal((await list('?violations=false')).length, 2, 'false: any');
    const bad = await api.call('GET', '/api/v1/projects/shop/requests?violations=maybe');
    assert.equal(bad.status, 400, bad.body);
  });
});
