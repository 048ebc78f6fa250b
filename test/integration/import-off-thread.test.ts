/**
 * An OpenAPI import never freezes the process that serves others: a large document imported
 * through the admin API of a spawned `mockdev ui` or through a spawned `mockdev mcp --http` is
 * read in a worker thread (the built one, dist/cli/openapi-worker.js; the in-process import
 * tests run it from the sources), while the same process answers other admin API calls, the
 * mock server it runs and other MCP clients. Read on the process's own thread, the same
 * document stalled all of them until the import was over (seconds): the slowest answer took most
 * of the import's time. The servers run in processes of their own so that a stall shows in the
 * time an answer takes (a client in a stalled process would wait with it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ImportReport } from '../../src/app/openapi.js';
import { apiSandbox } from '../helpers/api.js';
import { bigOpenApiYaml } from '../helpers/big-openapi.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { ok, startHttpMcp } from '../helpers/mcp.js';
import { makeProject } from '../helpers/server.js';
import { assertServed, probeWhile } from '../helpers/probe.js';
import { http, startUi } from '../helpers/ui.js';

/** Operations of the document: as YAML, seconds of work for an import (about 6 MiB). */
const OPERATIONS = 700;

describe('an OpenAPI import runs off the thread that serves others', () => {
  it('mockdev ui: the admin API and the mock server it runs answer while a large document is imported', async (t: AfterHook) => {
    const { dir, cleanup } = tempDir('mockdev-import-thread-');
    await makeProject(dir, 'shop', [{ path: '/ping', body: '{"pong":true}' }]);
    const ui = await startUi([], { dataDir: dir });
    t.after(async () => {
      await ui.stop('SIGKILL');
      cleanup();
    });
    const api = `${ui.url}/api/v1`;
    const served = await http(`${api}/projects/shop/server`, { method: 'PUT', body: { port: 0 } });
    assert.equal(served.status, 201, served.body);
    const mock = (served.json as { url: string }).url;
    const document = bigOpenApiYaml(OPERATIONS);

    let report: ImportReport | undefined;
    const probed = await probeWhile(
      async () => {
        const r = await http(`${api}/import/openapi`, {
          method: 'POST',
          headers: { 'content-type': 'application/yaml' },
          body: document,
          timeoutMs: 120_000,
        });
        assert.equal(r.status, 200, r.body.slice(0, 500));
        report = r.json as ImportReport;
      },
      {
        'GET /api/v1/projects': async () => {
          const r = await http(`${api}/projects`, { timeoutMs: 120_000 });
          assert.equal(r.status, 200, r.body);
        },
        'the mock server': async () => {
          const r = await http(`${mock}/ping`, { timeoutMs: 120_000 });
          assert.equal(r.body, '{"pong":true}');
        },
      },
    );
    assert.equal(report?.created.length, OPERATIONS);
    assertServed(probed, 'import');
    // The project the worker wrote is the process's too: listed, and servable.
    const listed = await http(`${api}/projects`);
    assert.ok(
      (listed.json as { name: string }[]).some((p) => p.name === 'Big API'),
      listed.body,
    );
  });

  it('mcp --http: another client is answered while a large document is imported', async (t: AfterHook) => {
    const { dir, cleanup } = tempDir('mockdev-import-thread-');
    const server = await startHttpMcp(dir);
    t.after(async () => {
      await server.kill();
      cleanup();
    });
    const connect = async (name: string) => {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      t.after(() => client.close());
      return client;
    };
    const importer = await connect('importer');
    const other = await connect('other');
    const document = bigOpenApiYaml(OPERATIONS);

    let report: ImportReport | undefined;
    const probed = await probeWhile(
      async () => {
        report = await ok<ImportReport>(importer, 'import_openapi', { text: document });
      },
      {
        list_projects: async () => {
          await ok(other, 'list_projects');
        },
      },
    );
    assert.equal(report?.created.length, OPERATIONS);
    assertServed(probed, 'import');
  });

  it('in process: the caller’s event loop keeps turning; errors and advice come back worded for the adapter', async (t: AfterHook) => {
    const api = apiSandbox(t);
    // The admin API's handler in this process, its import in a worker of the sources (tsx).
    let slowestTurn = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      slowestTurn = Math.max(slowestTurn, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const big = await api.call('POST', '/api/v1/import/openapi', {
      body: bigOpenApiYaml(OPERATIONS),
      type: 'application/yaml',
    });
    const importMs = performance.now() - started;
    clearInterval(ticker);
    assert.equal(big.status, 200, big.body.slice(0, 500));
    assert.equal((big.json as ImportReport).created.length, OPERATIONS);
    assert.ok(
      slowestTurn < importMs / 3,
      `the event loop stood still ${Math.round(slowestTurn)} ms of a ${Math.round(importMs)} ms import`,
    );

    const fixture = readFileSync(
      join(ROOT, 'test', 'fixtures', 'openapi', 'bad', 'missing-ref.yaml'),
      'utf8',
    );
    const strict = await api.call('POST', '/api/v1/import/openapi?strict=true', {
      body: fixture,
      type: 'application/yaml',
    });
    assert.equal(strict.status, 422, strict.body);
    const problem = strict.json as { code: string; detail: string; details?: { problems?: unknown[] } };
    assert.equal(problem.code, 'INVALID_INPUT');
    assert.match(problem.detail, /cannot be resolved.*\(or import without the "strict" field: /);
    assert.ok((problem.details?.problems?.length ?? 0) >= 1, strict.body);

    const missing = await api.call('POST', '/api/v1/import/openapi?project=nope', {
      body: fixture,
      type: 'application/yaml',
    });
    assert.equal(missing.status, 404, missing.body);
    assert.match(
      (missing.json as { detail: string }).detail,
      /^Project "nope" not found\. Call GET \/api\/v1\/projects to see the project ids and names$/,
    );
    assert.deepEqual((missing.json as { details: unknown }).details, { project: 'nope' });

    const again = await api.call('POST', '/api/v1/import/openapi?project=Big%20API', {
      body: bigOpenApiYaml(1),
      type: 'application/yaml',
    });
    assert.equal(again.status, 200, again.body);
    assert.match(
      (again.json as ImportReport).skipped[0]!.reason,
      /; set "overwrite" to true to update it from the document \(or the "replace" field to replace it whole\)$/,
    );
  });
});
