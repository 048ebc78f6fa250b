/**
 * The admin API's body limits, on a real socket (startAdminServer on a free port, in process):
 * 1 MiB for most routes, 16 MiB for an endpoint's contents, 32 MiB for an OpenAPI document. A
 * body announced larger is refused before it is read, one sent in chunks as soon as it passes the
 * limit, and a request the guard refuses is never read at all.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startAdminServer, type RunningAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { tempDir } from '../helpers/cli.js';
import { rawRequest, type RawAnswer } from '../helpers/http.js';

type After = { after(fn: () => Promise<void> | void): void };
const MIB = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

async function admin(t: After, token?: string): Promise<RunningAdminServer> {
  const { dir, cleanup } = tempDir('mockdev-api-limits-');
  const ctx = createContext({ dataDir: dir, cwd: dir });
  const api = await startAdminServer({ ctx, routes: ALL_ROUTES, host: '127.0.0.1', port: 0, token });
  t.after(async () => {
    await api.close();
    ctx.close();
    cleanup();
  });
  return api;
}

const problemOf = (a: RawAnswer) =>
  a.json as { code: string; detail: string; details?: { limitBytes?: number } };

describe('admin API body limits', () => {
  it('refuses a body announced over the route limit at once, naming the limit and the route', async (t) => {
    const api = await admin(t);
    const refused = await rawRequest(api.url, '/api/v1/projects', {
      method: 'POST',
      headers: { ...JSON_TYPE, 'content-length': String(60 * 1024 * 1024) },
      body: '{"name":"',
    });
    assert.equal(refused.status, 413);
    assert.equal(refused.headers.connection, 'close');
    const problem = problemOf(refused);
    assert.equal(problem.code, 'PAYLOAD_TOO_LARGE');
    assert.match(
      problem.detail,
      /larger than the limit of POST \/api\/v1\/projects, 1 MiB \(1048576 bytes\)/,
    );
    assert.equal(problem.details?.limitBytes, MIB);
    const document = await rawRequest(api.url, '/api/v1/import/openapi', {
      method: 'POST',
      headers: { ...JSON_TYPE, 'content-length': String(40 * MIB) },
      body: '{',
    });
    assert.equal(document.status, 413);
    assert.match(problemOf(document).detail, /import\/openapi, 32 MiB/);
  });

  it('stops reading a chunked body as it passes the limit; the server answers others meanwhile', async (t) => {
    const api = await admin(t);
    const chunk = Buffer.alloc(MIB, 'x');
    const big = rawRequest(api.url, '/api/v1/projects', {
      method: 'POST',
      headers: JSON_TYPE,
      body: Array.from({ length: 60 }, () => chunk),
    });
    const health = await rawRequest(api.url, '/api/v1/health');
    assert.equal(health.status, 200);
    const refused = await big;
    assert.equal(refused.status, 413);
    assert.match(problemOf(refused).detail, /1 MiB/);
  });

  it('takes what each route needs: an endpoint of several MiB, a document of more', async (t) => {
    const api = await admin(t);
    const made = await rawRequest(api.url, '/api/v1/projects', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ name: 'Big' }),
    });
    assert.equal(made.status, 201, made.body);
    const endpoint = await rawRequest(api.url, '/api/v1/projects/Big/endpoints', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ path: '/fixture', body: 'x'.repeat(3 * MIB), contentType: 'text/plain' }),
    });
    assert.equal(endpoint.status, 201, endpoint.body.slice(0, 300));
    const document = await rawRequest(api.url, '/api/v1/import/openapi', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Documented at length', version: '1', description: 'x'.repeat(20 * MIB) },
        paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
      }),
    });
    assert.equal(document.status, 200, document.body.slice(0, 300));
    const settings = await rawRequest(api.url, '/api/v1/settings', {
      method: 'PATCH',
      headers: JSON_TYPE,
      body: JSON.stringify({ theme: 'dark', padding: 'x'.repeat(2 * MIB) }),
    });
    assert.equal(settings.status, 413, 'a settings change is no document');
  });

  it('refuses a request without the token before reading its body', async (t) => {
    const api = await admin(t, 'limits-s3cret');
    const refused = await rawRequest(api.url, '/api/v1/import/openapi', {
      method: 'POST',
      headers: { ...JSON_TYPE, 'content-length': String(30 * MIB) },
      body: '{',
    });
    assert.equal(refused.status, 401);
    assert.equal(problemOf(refused).code, 'UNAUTHORIZED');
  });
});
