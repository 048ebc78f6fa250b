/**
 * `import --overwrite` updates what the document describes and keeps what only mockdev has (hand
 * made variations, headers, delay, mode, status text, enabled, active variation), listing it per
 * endpoint; `--replace` replaces the endpoint whole and lists what it dropped. The same through
 * MCP and the admin API.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ImportReport } from '../../src/app/openapi.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { apiSandbox } from '../helpers/api.js';
import { json, type CliResult } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { ok, startInMemoryMcp } from '../helpers/mcp.js';

const doc = (name: string) =>
  [
    'openapi: 3.0.3',
    'info: { title: Pets, version: "1" }',
    'paths:',
    '  /pets/{petId}:',
    '    get:',
    '      summary: Show pet',
    '      parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]',
    '      responses:',
    "        '200':",
    '          description: ok',
    '          headers:',
    '            X-Rate: { schema: { type: integer }, example: 5 }',
    '          content:',
    `            application/json: { example: { name: ${name} } }`,
    "        '404':",
    '          description: nf',
    '          content:',
    '            application/json: { example: { error: gone } }',
  ].join('\n');

const ok0 = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, r.stderr);
  return r;
};

/** What a user added by hand to the imported endpoint. */
const REFINEMENTS = [
  [
    'endpoint',
    'update',
    'Pets',
    'GET /pets/{petId}',
    '--delay',
    '250',
    '--mode',
    'sequential',
    '-H',
    'X-Trace: hand',
  ],
  ['endpoint', 'update', 'Pets', 'GET /pets/{petId}', '--status-text', 'Found It'],
  ['endpoint', 'update', 'Pets', 'GET /pets/{petId}', '--fault', 'reset', '--fault-rate', '0.25'],
  ['endpoint', 'disable', 'Pets', 'GET /pets/{petId}'],
  ['endpoint', 'variation', 'add', 'Pets', 'GET /pets/{petId}', '-n', 'slow', '-s', '503', '--delay', '900'],
  ['endpoint', 'variation', 'add', 'Pets', 'GET /pets/{petId}', '-n', 'teapot', '-s', '418', '-b', 'short'],
  ['endpoint', 'variation', 'update', 'Pets', 'GET /pets/{petId}', '404', '--when', 'param.petId=0'],
  ['endpoint', 'variation', 'update', 'Pets', 'GET /pets/{petId}', '404', '--fault', 'empty'],
  ['endpoint', 'variation', 'activate', 'Pets', 'GET /pets/{petId}', 'slow'],
];

describe('import into a project over existing endpoints', () => {
  it('--overwrite updates what the document describes and keeps (and lists) what only mockdev has; --replace drops it', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-overwrite-');
    writeFileSync(join(dir, 'v1.yaml'), doc('Rex'));
    writeFileSync(join(dir, 'v2.yaml'), doc('Fido'));
    ok0(await cli(['import', 'v1.yaml']));
    for (const args of REFINEMENTS) ok0(await cli(args));
    const before = json<Endpoint>(
      ok0(await cli(['endpoint', 'show', 'Pets', 'GET /pets/{petId}', '--json'])),
    );

    const r = ok0(await cli(['import', 'v2.yaml', '-p', 'Pets', '--overwrite', '--json']));
    const report = json<ImportReport>(r);
    assert.equal(report.updated.length, 1);
    assert.deepEqual(report.replaced, []);
    const after = report.updated[0]!;
    assert.equal(after.id, before.id);
    assert.deepEqual(JSON.parse(after.body), { name: 'Fido' }, 'the document’s new example');
    assert.equal(after.delay, 250);
    assert.equal(after.mode, 'sequential');
    assert.equal(after.statusText, 'Found It');
    assert.deepEqual([after.fault, after.faultRate], ['reset', 0.25]);
    assert.equal(after.variations.find((v) => v.name === '404')!.fault, 'empty');
    assert.equal(after.enabled, false);
    assert.deepEqual(after.headers, { 'X-Rate': '5', 'X-Trace': 'hand' });
    assert.deepEqual(
      after.variations.map((v) => [v.name, v.status, v.delay, v.rules?.length ?? 0]),
      [
        ['404', 404, 0, 1],
        ['slow', 503, 900, 0],
        ['teapot', 418, 0, 0],
      ],
    );
    assert.equal(after.variations.find((v) => v.name === '404')!.id, before.variations[0]!.id);
    assert.equal(after.activeVariationId, before.activeVariationId);
    assert.deepEqual(report.kept, [
      {
        endpointId: before.id,
        method: 'GET',
        path: '/pets/{petId}',
        items: [
          'header "X-Trace"',
          'status text "Found It"',
          'delay 250 ms',
          'fault reset (25 % of requests)',
          'disabled',
          'mode sequential',
          'variation "404" rules',
          'variation "404" fault empty',
          'variation "slow"',
          'variation "teapot"',
          'active variation "slow"',
        ],
      },
    ]);
    const text = ok0(await cli(['import', 'v2.yaml', '-p', 'Pets', '--overwrite']));
    assert.match(text.stdout, /1 updated, 0 replaced/);
    assert.match(
      text.stdout,
      /updated +GET +\/pets\/\{petId\} .*; kept: header "X-Trace", .*variation "slow"/,
    );

    const replaced = json<ImportReport>(
      ok0(await cli(['import', 'v2.yaml', '-p', 'Pets', '--replace', '--json'])),
    );
    const whole = replaced.replaced[0]!;
    assert.equal(whole.id, before.id);
    assert.equal(whole.name, before.name);
    assert.equal(whole.delay, 0);
    assert.equal(whole.mode, undefined);
    assert.equal(whole.enabled, true);
    assert.deepEqual(whole.headers, { 'X-Rate': '5' });
    assert.deepEqual(
      whole.variations.map((v) => v.name),
      ['404'],
    );
    assert.deepEqual(replaced.dropped[0]!.items, report.kept[0]!.items);
    const replacedText = ok0(await cli(['import', 'v2.yaml', '-p', 'Pets', '--replace']));
    assert.match(replacedText.stdout, /replaced +GET +\/pets\/\{petId\}/);
  });

  it('MCP import_openapi and the admin API update with overwrite (kept listed) and replace with replace', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const first = await ok<ImportReport>(mcp.client, 'import_openapi', { text: doc('Rex') });
    const id = first.created[0]!.id;
    await ok(mcp.client, 'update_endpoint', { projectId: first.project.id, endpointId: id, delay: 250 });
    const over = await ok<ImportReport>(mcp.client, 'import_openapi', {
      text: doc('Fido'),
      projectId: first.project.id,
      overwrite: true,
    });
    assert.equal(over.updated[0]!.delay, 250);
    assert.deepEqual(over.kept[0]!.items, ['delay 250 ms']);
    const replaced = await ok<ImportReport>(mcp.client, 'import_openapi', {
      text: doc('Fido'),
      projectId: first.project.id,
      replace: true,
    });
    assert.deepEqual(replaced.dropped[0]!.items, ['delay 250 ms']);

    const api = apiSandbox(t);
    const created = await api.call('POST', '/api/v1/import/openapi', {
      body: doc('Rex'),
      type: 'application/yaml',
    });
    const report = created.json as ImportReport;
    const endpoint = `/api/v1/projects/${report.project.id}/endpoints/${report.created[0]!.id}`;
    const patched = await api.call('PATCH', endpoint, { body: { mode: 'random' } });
    assert.equal(patched.status, 200, patched.body);
    const updated = await api.call(
      'POST',
      `/api/v1/import/openapi?project=${report.project.id}&overwrite=true`,
      {
        body: doc('Fido'),
        type: 'application/yaml',
      },
    );
    assert.equal(updated.status, 200, updated.body);
    assert.deepEqual((updated.json as ImportReport).kept[0]!.items, ['mode random']);
    assert.equal((updated.json as ImportReport).updated[0]!.mode, 'random');
  });
});
