/**
 * `contract import | show | live | validate | status` that succeed: a document fetched from a
 * local HTTP server stored byte for byte beside project.json (or written with `-o`), shown,
 * switched live, replaced by a document of the other format; the three dialects checked over
 * real traffic with `-s URL`; a document compiled once however often it is used; and the real
 * binary's exit codes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { contractCompiles } from '../../src/app/contract-document.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { ContractInfoSchema, ContractReportSchema } from '../../src/core/model/contract.js';
import { json, type CliResult } from '../helpers/cli.js';
import { caseIds, contractFixtureText, sendCases } from '../helpers/contract-traffic.js';
import { documentServer, type DocumentServer } from '../helpers/document-server.js';
import { proSandbox, startProServer } from '../helpers/pro.js';

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

const RULES = contractFixtureText('petstore-rules.yaml');
const RULES_JSON = JSON.stringify(parseYaml(RULES), null, 2);

let http: DocumentServer;
before(async () => {
  http = await documentServer({
    '/rules.yaml': (_req, res) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(RULES),
    '/rules.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(RULES_JSON),
    '/moved': (_req, res) => res.writeHead(301, { location: '/rules.yaml' }).end(),
    '/3.1.yaml': (_req, res) => res.writeHead(200).end(contractFixtureText('petstore-3.1.yaml')),
    '/2.0.yaml': (_req, res) => res.writeHead(200).end(contractFixtureText('swagger-2.0.yaml')),
  });
});
after(() => http.close());

const projectJson = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')) as { contract?: Record<string, unknown> };

describe('contract import, show and live', () => {
  it('stores the fetched document byte for byte and records it; shows it; keeps live across a new import', async (t) => {
    const { cli, dataDir } = await proSandbox(t);
    const { id } = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
    const dir = join(dataDir, 'projects', id);

    const imported = ok(await cli(['contract', 'import', 'shop', http.url('/moved')]));
    assert.match(
      imported.stdout,
      /^Imported Petstore rules 1\.2\.0 \(OpenAPI 3\.0, 9 operations\) as the contract of shop: contract\.yaml\n/,
    );
    assert.equal(readFileSync(join(dir, 'contract.yaml'), 'utf8'), RULES);
    assert.equal(statSync(join(dir, 'contract.yaml')).mode & 0o777, 0o600);
    const ref = projectJson(dir).contract!;
    assert.deepEqual(
      { file: ref.file, source: ref.source, live: ref.live },
      { file: 'contract.yaml', source: http.url('/moved'), live: undefined },
    );

    const info = ContractInfoSchema.parse(json(ok(await cli(['contract', 'show', 'shop', '--json']))));
    assert.deepEqual(
      {
        dialect: info.dialect,
        title: info.title,
        version: info.version,
        live: info.live,
        count: info.operations.length,
      },
      { dialect: '3.0', title: 'Petstore rules', version: '1.2.0', live: false, count: 9 },
    );
    assert.deepEqual(info.operations[0], {
      operation: 'GET /pets',
      method: 'GET',
      path: '/pets',
      operationId: 'listPets',
    });
    const shown = ok(await cli(['contract', 'show', 'shop']));
    assert.match(shown.stdout, /Live checking: off/);
    assert.match(shown.stdout, /GET \/pets\/\{petId\} +showPet/);

    const on = ok(await cli(['contract', 'live', 'shop', 'on']));
    assert.match(on.stdout, /Live checking is on for shop/);
    assert.equal(projectJson(dir).contract!.live, true);

    // A JSON document now: contract.json replaces contract.yaml, live stays on.
    const again = json<{ contract: { file: string; live: boolean }; bytes: number }>(
      ok(await cli(['contract', 'import', 'shop', http.url('/rules.json'), '--json'])),
    );
    assert.deepEqual(
      { file: again.contract.file, live: again.contract.live, bytes: again.bytes },
      { file: 'contract.json', live: true, bytes: Buffer.byteLength(RULES_JSON) },
    );
    assert.equal(readFileSync(join(dir, 'contract.json'), 'utf8'), RULES_JSON);
    assert.equal(existsSync(join(dir, 'contract.yaml')), false, 'the file of the other format is gone');
    assert.equal(projectJson(dir).contract!.file, 'contract.json');

    const off = json<{ live: boolean }>(ok(await cli(['contract', 'live', 'shop', 'off', '--json'])));
    assert.equal(off.live, false);
    assert.equal(projectJson(dir).contract!.live, undefined);
  });

  it('-o writes the checked document to a file and stores nothing', async (t) => {
    const { cli, dataDir, dir } = await proSandbox(t);
    const { id } = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
    const r = ok(await cli(['contract', 'import', 'shop', http.url('/rules.yaml'), '-o', 'saved.yaml']));
    assert.match(
      r.stdout,
      new RegExp(
        `^Wrote ${join(dir, 'saved.yaml')} \\(${Buffer.byteLength(RULES)} bytes\\): a valid OpenAPI document\\.\\n$`,
      ),
    );
    assert.equal(readFileSync(join(dir, 'saved.yaml'), 'utf8'), RULES);
    assert.equal(projectJson(join(dataDir, 'projects', id)).contract, undefined);
    assert.equal(existsSync(join(dataDir, 'projects', id, 'contract.yaml')), false);
  });

  it('a folder project keeps its contract beside its project.json, validated with it (compiled once)', async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dir } = sandbox;
    ok(await cli(['init', 'api', '-n', 'api']));
    ok(await cli(['contract', 'import', './api', http.url('/rules.yaml')]));
    assert.equal(readFileSync(join(dir, 'api', 'contract.yaml'), 'utf8'), RULES);
    const compiles = contractCompiles();
    for (let i = 0; i < 3; i++) {
      const r = ok(await cli(['contract', 'validate', 'api', '--json']));
      assert.equal(ContractReportSchema.parse(JSON.parse(r.stdout)).spec, http.url('/rules.yaml'));
      ok(await cli(['contract', 'status', 'api']));
    }
    assert.equal(contractCompiles(), compiles, 'the stored document was compiled at import, never again');
    const empty = ok(await cli(['contract', 'validate', 'api']));
    assert.match(empty.stdout, /^checked 0 requests: 0 passed, 0 failed, 0 violations\nagainst /);
    assert.match(empty.stderr, /No requests logged for api yet/);
  });
});

describe('contract validate in the three dialects (-s URL)', () => {
  const dialects: {
    name: string;
    doc: string;
    endpoints: {
      method: string;
      path: string;
      status: number;
      body: string;
      headers?: Record<string, string>;
    }[];
    good: { path: string; headers?: Record<string, string> };
    bad: { path: string; headers?: Record<string, string> };
    violation: { location: string; rules: string[] };
  }[] = [
    {
      name: 'OpenAPI 3.1',
      doc: '/3.1.yaml',
      endpoints: [
        {
          method: 'GET',
          path: '/v3/pets',
          status: 200,
          body: '[{"id":1,"name":"Rex","kind":"dog","tag":null}]',
        },
      ],
      good: { path: '/v3/pets?limit=5&kind=dog' },
      bad: { path: '/v3/pets?limit=0' },
      violation: { location: 'query.limit', rules: ['exclusiveMinimum', 'minimum'] },
    },
    {
      name: 'Swagger 2.0',
      doc: '/2.0.yaml',
      endpoints: [
        {
          method: 'GET',
          path: '/v2/pets',
          status: 200,
          body: '[{"id":1,"name":"Rex","tag":null}]',
          headers: { 'X-Rate-Limit': '10' },
        },
      ],
      good: { path: '/v2/pets?tags=a,b&ids=1&ids=2', headers: { 'x-api-key': 'k' } },
      bad: { path: '/v2/pets?tags=a,b' },
      violation: { location: 'header.x-api-key', rules: ['required'] },
    },
  ];
  for (const d of dialects)
    it(`${d.name}: the passing request passes, the failing one fails where it breaks the document`, async (t) => {
      const sandbox = await proSandbox(t);
      ok(await sandbox.cli(['project', 'create', 'shop']));
      const { ctx, server } = await startProServer(sandbox, 'shop');
      for (const e of d.endpoints) await addEndpoint(ctx, 'shop', e);
      await sendCases(server.url, [
        { name: 'good', request: d.good },
        { name: 'bad', request: d.bad },
      ]);
      const ids = await caseIds(sandbox, 'shop', 2);
      const r = await sandbox.cli(['contract', 'validate', 'shop', '-s', http.url(d.doc), '--json']);
      assert.equal(r.code, 1, r.stderr);
      const report = ContractReportSchema.parse(JSON.parse(r.stdout));
      assert.deepEqual(
        { checked: report.checked, passed: report.passed, failed: report.failed },
        { checked: 2, passed: 1, failed: 1 },
      );
      assert.ok(
        report.violations.every((v) => v.requestId === ids.get('bad')),
        JSON.stringify(report.violations),
      );
      assert.ok(
        report.violations.some(
          (v) => v.location === d.violation.location && d.violation.rules.includes(v.rule),
        ),
        JSON.stringify(report.violations),
      );
      assert.equal(report.spec, http.url(d.doc));
    });
});

describe('contract, the real binary', () => {
  it('exits 1 on violations and 0 without, printing the report; 2 without a contract', async (t) => {
    const sandbox = await proSandbox(t);
    ok(await sandbox.cli(['project', 'create', 'shop']));
    const none = await sandbox.spawn(['contract', 'validate', 'shop']);
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /has no contract to check against/);
    ok(await sandbox.spawn(['contract', 'import', 'shop', http.url('/rules.yaml')]));
    const clean = ok(await sandbox.spawn(['contract', 'validate', 'shop']));
    assert.match(clean.stdout, /^checked 0 requests/);
    const { server } = await startProServer(sandbox, 'shop');
    await sendCases(server.url, [{ name: 'nowhere', request: { path: '/nowhere' } }]);
    await caseIds(sandbox, 'shop', 1);
    const failing = await sandbox.spawn(['contract', 'validate', 'shop', '--json']);
    assert.equal(failing.code, 1, failing.stderr);
    assert.equal(
      ContractReportSchema.parse(JSON.parse(failing.stdout)).violations[0]!.rule,
      'unknown-operation',
    );
  });
});
