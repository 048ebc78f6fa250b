/**
 * `mockdev export` (in-process, and the built binary once to prove the wiring), validated by a
 * standard validator (swagger-parser), and both round trips: import(export(P)) gives P's
 * endpoints back, and export(import(D)) validates and has D's operations.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { createContext } from '../../src/app/context.js';
import { exportOpenApi, importOpenApi } from '../../src/app/openapi.js';
import { createProject } from '../../src/app/projects.js';
import type { Endpoint, EndpointInput } from '../../src/core/model/endpoint.js';
import { ROOT, assertCliError, json, runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';

const FIX = join(ROOT, 'test', 'fixtures', 'openapi');
let tmp: ReturnType<typeof tempDir>;
let n = 0;
const freshDataDir = () => join(tmp.dir, `data-${n++}`);
/** The CLI in-process (the spawned binary only where the wiring is the point). */
const cli = runCliInProcess;

before(() => {
  tmp = tempDir('mockdev-export-');
});
after(() => tmp.cleanup());

const validate = async (doc: object) => SwaggerParser.validate(structuredClone(doc) as never);

const variation = (
  name: string,
  status: number,
  body: string,
  contentType = 'application/json',
  headers: Record<string, string> = {},
) => ({
  id: `v-${name.replace(/\W/g, '')}`,
  name,
  status,
  body,
  contentType,
  headers,
  delay: 0,
});

/** A project using every endpoint feature an export has to carry. */
const SAMPLE: EndpointInput[] = [
  { name: 'List users', method: 'GET', path: '/api/users', status: 200, body: '[\n  {\n    "id": 1\n  }\n]' },
  {
    name: 'Get user',
    method: 'GET',
    path: '/api/users/:id',
    status: 200,
    body: '{"id":1,"name":"Ada"}', // compact JSON: kept as text
    headers: { 'X-Source': 'mock' },
    variations: [
      variation('missing', 404, '{\n  "error": "not found"\n}'),
      variation('also ok', 200, '{\n  "id": 2\n}'),
    ],
  },
  { name: 'Delete user', method: 'DELETE', path: '/api/users/{id}', status: 204, body: '', enabled: false },
  {
    name: 'Report',
    method: 'GET',
    path: '/reports/{year}-{month}.csv',
    status: 200,
    body: 'a,b\n1,2\n',
    contentType: 'text/csv',
  },
  {
    name: 'Not JSON',
    method: 'POST',
    path: '/echo',
    status: 201,
    body: 'plain words',
    contentType: 'application/json',
    delay: 250,
  },
  {
    name: 'Fail first',
    method: 'PUT',
    path: '/compare/{base}...{head}',
    status: 500,
    body: '{\n  "error": true\n}',
    variations: [variation('fine', 200, '{\n  "ok": true\n}'), variation('text', 200, 'hello', 'text/plain')],
  },
  {
    name: 'Team',
    method: 'PATCH',
    path: '/enterprises/{enterprise}/teams/{enterprise-team}',
    status: 200,
    body: '"quoted"',
  },
];

const comparable = (e: Endpoint) => ({
  method: e.method,
  path: e.path.replace(/:([^/]+)/g, '{$1}'),
  status: e.status,
  contentType: e.contentType,
  body: e.body,
  enabled: e.enabled,
  delay: e.delay,
  headers: e.headers,
  variations: e.variations.map((v) => ({
    name: v.name,
    status: v.status,
    contentType: v.contentType,
    body: v.body,
  })),
});

describe('mockdev export', () => {
  it('writes OpenAPI 3.0.3 YAML to stdout by default, valid and with every endpoint', async () => {
    const dataDir = freshDataDir();
    await cli(['init', join(dataDir, 'p'), '-n', 'Examples', '--with-examples'], { dataDir });
    await cli(['endpoint', 'disable', join(dataDir, 'p'), 'Health check'], { dataDir });
    const r = await cli(['export', join(dataDir, 'p')], { dataDir });
    assert.equal(r.code, 0, r.stderr);
    const doc = parseYaml(r.stdout) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    assert.equal(doc.openapi, '3.0.3');
    assert.equal(doc.info.title, 'Examples');
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/api/users', '/api/users/{id}', '/health']);
    assert.deepEqual(doc.paths['/api/users/{id}']!.get!.parameters, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' }, 'x-mockdev-generated': true },
    ]);
    assert.equal(doc.paths['/health']!.get!['x-mockdev-enabled'], false);
    assert.deepEqual(Object.keys(doc.paths['/api/users']!.post!.responses as object), ['201']);
    await validate(doc);
  });

  it('-f json -o FILE and --openapi 3.1', async () => {
    const dataDir = freshDataDir();
    await cli(['init', join(dataDir, 'p'), '-n', 'Examples', '--with-examples'], { dataDir });
    const out = join(tmp.dir, `out-${n}.json`);
    const r = await cli(['export', join(dataDir, 'p'), '-f', 'json', '-o', out, '--openapi', '3.1'], {
      dataDir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Wrote .*OpenAPI 3\.1\.0, JSON/);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { openapi: string };
    assert.equal(doc.openapi, '3.1.0');
    await validate(doc);
  });

  it('bad options exit 2, an unknown project exits 3, and nothing is written', async () => {
    const dataDir = freshDataDir();
    await cli(['init', join(dataDir, 'p'), '--with-examples'], { dataDir });
    const out = join(tmp.dir, 'never.yaml');
    const badFormat = await cli(['export', join(dataDir, 'p'), '-f', 'xml', '-o', out], { dataDir });
    assert.equal(badFormat.code, 2);
    assert.match(
      badFormat.stderr,
      /Invalid format "xml": must be json or yaml\. Give -f, --format json or yaml/,
    );
    const badVersion = await cli(['export', join(dataDir, 'p'), '--openapi', '2.0', '-o', out], {
      dataDir,
    });
    assert.equal(badVersion.code, 2);
    assert.match(
      badVersion.stderr,
      /Invalid OpenAPI version "2\.0": must be 3\.0 or 3\.1\. Give --openapi 3\.0 or 3\.1/,
    );
    const badDir = await cli(
      ['export', join(dataDir, 'p'), '-o', join(tmp.dir, 'no', 'such', 'dir', 'x.yaml')],
      { dataDir },
    );
    assert.equal(badDir.code, 2);
    assert.match(badDir.stderr, /its folder does not exist/);
    const missing = await cli(['export', 'ghost'], { dataDir });
    assert.equal(missing.code, 3);
    assert.equal(existsSync(out), false);
  });

  it("round trip: import(export(P)) gives P's endpoints back (3.0 and 3.1, YAML and JSON)", async (t) => {
    const ctx = createContext({ dataDir: freshDataDir(), cwd: tmp.dir });
    t.after(() => ctx.close());
    const project = await createProject(ctx, { name: 'Round trip' }, SAMPLE);
    for (const openapiVersion of ['3.0', '3.1'] as const) {
      for (const format of ['yaml', 'json'] as const) {
        const exported = await exportOpenApi(ctx, project.id, { format, openapiVersion });
        await validate(exported.document);
        const report = await importOpenApi(ctx, { text: exported.text });
        assert.deepEqual(report.skipped, []);
        assert.deepEqual(
          report.created.map(comparable),
          project.endpoints.map(comparable),
          `${openapiVersion} ${format}`,
        );
        assert.deepEqual(
          report.created.map((e) => e.name),
          project.endpoints.map((e) => e.name),
        );
      }
    }
  });

  it("round trip: export(import(D)) validates and has D's operations, for every fixture", async (t) => {
    const ctx = createContext({ dataDir: freshDataDir(), cwd: tmp.dir });
    t.after(() => ctx.close());
    const fixtures = [
      'petstore-3.0.yaml',
      'swagger-2.0.json',
      'api-3.1.yaml',
      'multi-file/main.yaml',
      'circular.json',
      'yaml-content.json',
    ];
    for (const file of fixtures) {
      const source = (await SwaggerParser.parse(join(FIX, file))) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = (paths: Record<string, Record<string, unknown>>) =>
        Object.entries(paths)
          .flatMap(([p, item]) =>
            Object.keys(item)
              .filter((m) =>
                ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(m),
              )
              .map((m) => `${m.toUpperCase()} ${p}`),
          )
          .sort();
      const report = await importOpenApi(ctx, { file: join(FIX, file) });
      for (const openapiVersion of ['3.0', '3.1'] as const) {
        const { document } = await exportOpenApi(ctx, report.project.id, { openapiVersion });
        await validate(document);
        assert.deepEqual(operations((document as typeof source).paths), operations(source.paths), file);
      }
      // And once more through import: the same endpoints.
      const again = await importOpenApi(ctx, {
        text: (await exportOpenApi(ctx, report.project.id, {})).text,
      });
      assert.deepEqual(again.created.map(comparable), report.created.map(comparable), file);
    }
  });

  it('round trip import -> export -> import keeps info.version, operationIds, parameters and response headers (petstore, galaxy)', async (t) => {
    const ctx = createContext({ dataDir: freshDataDir(), cwd: tmp.dir });
    t.after(() => ctx.close());
    /** What OpenAPI gives beyond the endpoint fields, and the values it gives. */
    const facts = (e: Endpoint) => ({
      ...comparable(e),
      name: e.name,
      openapi: e.openapi,
      variations: e.variations.map((v) => ({
        name: v.name,
        status: v.status,
        headers: v.headers,
        body: v.body,
      })),
    });
    const cases = [
      { file: 'petstore-3.0.yaml', versions: ['3.0', '3.1'] as const, apiVersion: '1.0.0' },
      { file: 'real-world/scalar-galaxy.json', versions: ['3.1'] as const, apiVersion: '0.6.12' },
    ];
    for (const { file, versions, apiVersion } of cases) {
      const first = await importOpenApi(ctx, { file: join(FIX, file) });
      assert.equal(first.project.apiVersion, apiVersion);
      assert.ok(
        first.created.every(
          (e) => e.openapi?.operationId === undefined || typeof e.openapi.operationId === 'string',
        ),
      );
      assert.ok(
        first.created.some((e) => e.openapi?.parameters?.some((p) => p.in === 'query')),
        `${file}: query parameters`,
      );
      assert.ok(
        first.created.some((e) => Object.keys(e.openapi?.responseHeaders ?? {}).length),
        `${file}: header definitions`,
      );
      for (const openapiVersion of versions) {
        for (const format of ['yaml', 'json'] as const) {
          const exported = await exportOpenApi(ctx, first.project.id, { format, openapiVersion });
          await validate(exported.document);
          const second = await importOpenApi(ctx, { text: exported.text });
          assert.equal(second.project.apiVersion, apiVersion, `${file} ${openapiVersion} ${format}`);
          assert.deepEqual(second.skipped, []);
          // An operation without an operationId gets one from the export (as every export does).
          const generated = second.created.map((e, i) => {
            if (first.created[i]?.openapi?.operationId !== undefined || !e.openapi) return e;
            const { operationId: _generated, ...rest } = e.openapi;
            return { ...e, openapi: Object.keys(rest).length ? rest : undefined };
          });
          assert.deepEqual(
            JSON.parse(JSON.stringify(generated.map(facts))),
            JSON.parse(JSON.stringify(first.created.map(facts))),
            `${file} ${openapiVersion} ${format}`,
          );
        }
      }
    }
    // Galaxy as 3.0: valid 3.0 (3.1-only schema words rewritten), the same operations, ids and parameters.
    const galaxy = await importOpenApi(ctx, { file: join(FIX, 'real-world/scalar-galaxy.json') });
    const as30 = await exportOpenApi(ctx, galaxy.project.id, { openapiVersion: '3.0' });
    await validate(as30.document);
    const again = await importOpenApi(ctx, { text: as30.text });
    assert.deepEqual(again.created.map(comparable), galaxy.created.map(comparable));
    assert.deepEqual(
      again.created.map((e) => [e.openapi?.operationId, e.openapi?.parameters?.map((p) => p.name)]),
      galaxy.created.map((e) => [e.openapi?.operationId, e.openapi?.parameters?.map((p) => p.name)]),
    );
    const planetId = again.created.find((e) => e.path === '/planets/{planetId}')!.openapi!.parameters![0]!;
    assert.deepEqual(planetId.schema, { type: 'integer', format: 'int64', example: 1 });
  });

  it('exported project over the CLI re-imports with the CLI', async () => {
    const dataDir = freshDataDir();
    await cli(['import', join(FIX, 'petstore-3.0.yaml')], { dataDir });
    const file = join(tmp.dir, `pet-${n}.yaml`);
    assert.equal((await cli(['export', 'Petstore', '-o', file], { dataDir })).code, 0);
    const r = await cli(['import', file, '--json'], { dataDir });
    assert.equal(r.code, 0, r.stderr);
    const original = json<Endpoint[]>(await cli(['endpoint', 'list', 'Petstore', '--json'], { dataDir }));
    const report = json<{ created: Endpoint[] }>(r);
    assert.deepEqual(report.created.map(comparable), original.map(comparable));
  });
});

describe('mockdev export: the built binary (spawned)', () => {
  it('writes the document to stdout (0); a bad format (2) and an unknown project (3) are one line', async () => {
    const dataDir = freshDataDir();
    assert.equal(
      (await cli(['init', join(dataDir, 'p'), '-n', 'Spawned', '--with-examples'], { dataDir })).code,
      0,
    );
    const r = await runCli(['export', join(dataDir, 'p'), '-f', 'json'], { dataDir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const doc = JSON.parse(r.stdout) as { openapi: string; info: { title: string } };
    assert.deepEqual([doc.openapi, doc.info.title], ['3.0.3', 'Spawned']);
    await validate(doc);
    assertCliError(
      await runCli(['export', join(dataDir, 'p'), '-f', 'xml'], { dataDir }),
      2,
      /^mockdev: Invalid format "xml"/,
    );
    assertCliError(await runCli(['export', 'ghost'], { dataDir }), 3, /^mockdev: Project "ghost" not found/);
  });
});
