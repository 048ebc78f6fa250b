/**
 * `mockdev import` of documents that are not all fine: what cannot be read at all (refused),
 * schema problems, unresolved $refs and unconvertible operations (warnings; `--strict` refuses),
 * the real-world documents (Scalar's galaxy, a Blockfrost excerpt), YAML alias cycles and the
 * cap on listed warnings. All in-process.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ImportReport } from '../../src/app/openapi.js';
import { assertCliError, json, tempDir } from '../helpers/cli.js';
import { cliSandbox, runCliInProcess } from '../helpers/cli-inprocess.js';
import { byRoute, fx } from '../helpers/openapi-import.js';

let tmp: ReturnType<typeof tempDir>;
let n = 0;
const freshDataDir = () => join(tmp.dir, `data-${n++}`);
before(() => {
  tmp = tempDir('mockdev-import-');
});
after(() => tmp.cleanup());
const cli = runCliInProcess;

describe('mockdev import: lenient by default, --strict, real-world documents', () => {
  it('refuses what cannot be read at all, and with --strict any schema problem or unresolved $ref: exit 1, one line, nothing written', async () => {
    const dataDir = freshDataDir();
    assert.equal((await cli(['project', 'create', 'Keep'], { dataDir })).code, 0);
    const keep = json<{ id: string }>(await cli(['project', 'show', 'Keep', '--json'], { dataDir }));
    const endpointsFile = join(dataDir, 'projects', keep.id, 'endpoints.json');
    await cli(['endpoint', 'add', 'Keep', '-p', '/x'], { dataDir });
    const before = readFileSync(endpointsFile, 'utf8');
    const always: [string, RegExp][] = [
      ['bad/syntax.yaml', /is not valid YAML at line 3, column 10: .*Fix the YAML there/],
      ['bad/syntax.json', /is not valid JSON at line 3, column \d+: .*Fix the JSON syntax there/],
      ['bad/not-openapi.json', /is not an OpenAPI document: it has no "openapi" or "swagger" field/],
      ['bad/unsupported-version.yaml', /declares openapi 4\.0\.0, which mockdev does not read/],
      // Every path item is a $ref to a file that does not exist: nothing is left to import.
      [
        'bad/nothing-usable.yaml',
        /has a \$ref that cannot be resolved: "\.\/missing-paths\.yaml#\/users" at #\/paths\/~1users \(line 4, column 3\): Cannot read .*missing-paths\.yaml.* \(1 more unresolved \$ref\)\. Check that the referenced file exists/,
      ],
    ];
    const strictOnly: [string, RegExp][] = [
      [
        'bad/invalid.yaml',
        /is not a valid OpenAPI document: at #\/paths\/~1users\/get\/responses \(line 9, column 7\): must be object\. Fix the document there and import it again \(or import without --strict: what can be read is imported/,
      ],
      [
        'bad/missing-ref.yaml',
        /has a \$ref that cannot be resolved: "\.\/does-not-exist\.yaml" at #\/paths\/~1users\/get\/responses\/200\/content\/application~1json\/schema \(line 11, column 15\): Cannot read .*does-not-exist\.yaml.*Check that the referenced file exists/,
      ],
    ];
    const cases = [
      ...always.flatMap(([file, re]) => [
        { args: [fx(file)], re },
        { args: [fx(file), '-p', 'Keep'], re },
        { args: [fx(file), '--strict'], re },
      ]),
      ...strictOnly.flatMap(([file, re]) => [
        { args: [fx(file), '--strict'], re },
        { args: [fx(file), '-p', 'Keep', '--strict'], re },
      ]),
    ];
    for (const { args, re } of cases) {
      const r = await cli(['import', ...args], { dataDir });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, re, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
    const projects = json<{ name: string }[]>(await cli(['project', 'list', '--json'], { dataDir }));
    assert.deepEqual(
      projects.map((p) => p.name),
      ['Keep'],
      'no half-made project',
    );
    assert.equal(readFileSync(endpointsFile, 'utf8'), before, 'endpoints untouched');
    assert.deepEqual(
      readdirSync(join(dataDir, 'projects')).filter((d) => !d.startsWith('.')),
      [keep.id],
    );
  });

  it('without --strict, imports what can be read and warns of each problem with where it is', async (t) => {
    const box = cliSandbox(t);
    const invalid = await box.cli(['import', fx('bad/invalid.yaml'), '--json']);
    assert.equal(invalid.code, 0, invalid.stderr);
    assert.equal(
      invalid.stderr,
      'warning: #/paths/~1users/get/responses (line 9, column 7): must be object\n',
    );
    const report = json<ImportReport>(invalid);
    assert.deepEqual(report.warnings, [
      {
        message: '#/paths/~1users/get/responses (line 9, column 7): must be object',
        pointer: '#/paths/~1users/get/responses',
        line: 9,
        column: 7,
      },
    ]);
    assert.equal(report.warningCount, 1);
    assert.equal(byRoute(report.created, 'GET /users').status, 200);

    const missing = await box.cli(['import', fx('bad/missing-ref.yaml')]);
    assert.equal(missing.code, 0, missing.stderr);
    assert.match(
      missing.stdout,
      /^Created project "Missing ref" .*: 1 created, 0 replaced, 0 skipped, 1 warning in/,
    );
    assert.match(
      missing.stderr,
      /^warning: #\/paths\/~1users\/get\/responses\/200\/content\/application~1json\/schema \(line 11, column 15\): the \$ref "\.\/does-not-exist\.yaml" cannot be resolved: Cannot read .*does-not-exist\.yaml/,
    );
    const users = json<Endpoint[]>(await box.cli(['endpoint', 'list', 'Missing ref', '--json']))[0]!;
    assert.deepEqual([users.status, users.body], [200, ''], 'the unresolved schema gives no body');
  });

  it('an operation that cannot become an endpoint is left out with a warning (--strict: the whole import fails)', async (t) => {
    const box = cliSandbox(t);
    const file = join(box.dir, 'space-path.yaml');
    writeFileSync(
      file,
      "openapi: 3.0.3\ninfo: { title: Spaces, version: '1' }\npaths:\n  /ok:\n    get:\n      responses: { '200': { description: ok } }\n  /has space:\n    get:\n      responses: { '200': { description: ok } }\n",
    );
    const strict = await box.cli(['import', file, '--strict']);
    assert.equal(strict.code, 1, strict.stderr);
    assert.match(
      strict.stderr,
      /Operation GET \/has space cannot be imported: Invalid path .*nothing was imported\), or import without --strict to leave it out/,
    );
    assert.deepEqual(json<unknown[]>(await box.cli(['project', 'list', '--json'])), []);

    const r = await box.cli(['import', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.deepEqual(
      report.created.map((e) => `${e.method} ${e.path}`),
      ['GET /ok'],
    );
    assert.deepEqual(
      report.skipped.map((s) => `${s.method} ${s.path}`),
      ['GET /has space'],
    );
    assert.match(report.skipped[0]!.reason, /^Invalid path "\/has space": must not contain spaces/);
    assert.deepEqual(
      report.warnings.map((w) => [w.pointer, w.line]),
      [['#/paths/~1has space/get', 8]],
    );
    assert.match(report.warnings[0]!.message, /operation GET \/has space left out: Invalid path/);

    // Into an existing project: the same, and --strict changes nothing there.
    assert.equal((await box.cli(['project', 'create', 'Target'])).code, 0);
    const strictInto = await box.cli(['import', file, '-p', 'Target', '--strict']);
    assert.equal(strictInto.code, 1, strictInto.stderr);
    assert.deepEqual(json<Endpoint[]>(await box.cli(['endpoint', 'list', 'Target', '--json'])), []);
    const into = json<ImportReport>(await box.cli(['import', file, '-p', 'Target', '--json']));
    assert.deepEqual(
      [into.created.map((e) => e.path), into.skipped.map((e) => e.path), into.warningCount],
      [['/ok'], ['/has space'], 1],
    );

    // When no operation is left, the document is refused.
    const allBad = join(box.dir, 'all-bad.yaml');
    writeFileSync(
      allBad,
      "openapi: 3.0.3\ninfo: { title: Bad, version: '1' }\npaths:\n  /has space:\n    get:\n      responses: { '200': { description: ok } }\n",
    );
    assertCliError(
      await box.cli(['import', allBad]),
      1,
      /all-bad\.yaml: none of its operations can be imported \(GET \/has space: Invalid path .*nothing was imported/,
    );
    assert.deepEqual(
      json<{ name: string }[]>(await box.cli(['project', 'list', '--json'])).map((p) => p.name),
      ['Spaces', 'Target'],
    );
  });

  it("imports Scalar's galaxy (OpenAPI 3.1: $id, $dynamicRef, webhooks): every operation, typed paginated samples", async (t) => {
    const box = cliSandbox(t);
    const r = await box.cli(['import', fx('real-world/scalar-galaxy.json'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.equal(report.project.name, 'Scalar Galaxy');
    assert.equal(report.project.apiVersion, '0.6.12');
    assert.deepEqual(
      report.created.map((e) => `${e.method} ${e.path}`),
      [
        'GET /planets',
        'POST /planets',
        'GET /planets/{planetId}',
        'PUT /planets/{planetId}',
        'DELETE /planets/{planetId}',
        'POST /planets/{planetId}/image',
        'POST /celestial-bodies',
        'POST /user/signup',
        'POST /auth/token',
        'GET /me',
      ],
    );
    // PaginatedResource<Planet>: the item type bound through $dynamicAnchor / $dynamicRef.
    const list = byRoute(report.created, 'GET /planets');
    const page = JSON.parse(list.body) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
    assert.equal(page.data.length, 1);
    assert.deepEqual(Object.keys(page.data[0]!).slice(0, 4), ['id', 'name', 'description', 'type']);
    assert.equal(page.data[0]!.name, 'Mars');
    assert.deepEqual(page.meta, { limit: 10, offset: 0, total: 100, next: '/planets?limit=10&offset=10' });
    assert.equal(list.headers['X-Pagination-Total'], '1000');
    assert.equal(list.openapi?.operationId, 'getAllData');
    assert.deepEqual(
      list.openapi?.parameters?.map((p) => `${p.in} ${p.name}`),
      ['query limit', 'query offset'],
    );
    // Webhooks are requests the API sends: reported, not imported.
    assert.deepEqual(
      report.warnings.map((w) => w.message),
      [
        '#/webhooks (line 778, column 3): 1 webhook (newPlanet) not imported: webhooks are requests the API sends, not endpoints it serves',
      ],
    );
    assert.equal(r.stderr, `warning: ${report.warnings[0]!.message}\n`);
  });

  it('imports the Blockfrost excerpt whose schema breaks the 3.0 rules in places, warning of each (--strict refuses it)', async (t) => {
    const box = cliSandbox(t);
    const r = await box.cli(['import', fx('real-world/blockfrost-excerpt.yaml'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.equal(report.created.length, 4);
    assert.equal(report.project.apiVersion, '0.1.93');
    assert.deepEqual(
      report.warnings.map((w) => [w.pointer, w.line, w.column]),
      [
        ['#/components/schemas/drep_metadata/properties/json_metadata/anyOf/6/type', 186, 15],
        ['#/components/schemas/proposal_metadata/properties/json_metadata/anyOf/6/type', 298, 15],
      ],
    );
    assert.match(
      report.warnings[0]!.message,
      /must be equal to one of the allowed values \(array, boolean, integer, number, object, string\)$/,
    );
    const metadata = byRoute(report.created, 'GET /governance/proposals/{tx_hash}/{cert_index}/metadata');
    assert.equal((JSON.parse(metadata.body) as { cert_index: number }).cert_index, 2);

    const strict = await box.cli(['import', fx('real-world/blockfrost-excerpt.yaml'), '--strict']);
    assertCliError(
      strict,
      1,
      /^mockdev: .*blockfrost-excerpt\.yaml is not a valid OpenAPI document: at #\/components\/schemas\/drep_metadata\/properties\/json_metadata\/anyOf\/6\/type \(line 186, column 15\): must be equal to one of the allowed values .* \(1 more validation error\)\. Fix the document there/,
    );
    assert.deepEqual(
      json<{ name: string }[]>(await box.cli(['project', 'list', '--json'])).map((p) => p.name),
      ['Blockfrost.io ~ API Documentation'],
      'the strict import wrote nothing',
    );
  });

  it('YAML aliases that make cycles never hang or crash: a recursive schema is sampled, a self-containing example leaves its operation out', async (t) => {
    const box = cliSandbox(t);
    const file = join(box.dir, 'loop.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.3',
        "info: { title: Loop, version: '1' }",
        'paths:',
        '  /tree:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema: &node',
        '                type: object',
        '                properties:',
        '                  name: { type: string }',
        '                  children: { type: array, items: *node }',
        '  /echo:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        '              example: &e { name: x, self: *e }',
        '',
      ].join('\n'),
    );
    const r = await box.cli(['import', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.deepEqual(JSON.parse(byRoute(report.created, 'GET /tree').body), { name: 'string', children: [] });
    assert.deepEqual(
      report.skipped.map((s) => `${s.method} ${s.path}: ${s.reason}`),
      [
        'GET /echo: cannot be converted: one of its example values contains itself (a YAML alias inside its own anchor)',
      ],
    );
    assert.deepEqual(
      report.warnings.map((w) => [w.pointer, w.line]),
      [
        ['#/paths/~1tree/get/responses/200/content/application~1json/schema/properties/children/items', 15],
        ['#/paths/~1echo/get', 17],
      ],
    );
    assert.equal(r.stderr.trim().split('\n').length, 2, 'one line per warning');
    assertCliError(
      await box.cli(['import', file, '--strict']),
      1,
      /a YAML alias here repeats a part of the document/,
    );
  });

  it('lists at most 50 warnings and counts the rest', async (t) => {
    const box = cliSandbox(t);
    const file = join(box.dir, 'many.json');
    const schemas = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`S${i}`, { type: 'nothing' }]));
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Many', version: '1' },
        paths: { '/a': { get: { responses: { '204': { description: 'none' } } } } },
        components: { schemas },
      }),
    );
    const r = await box.cli(['import', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.equal(report.warnings.length, 50);
    assert.equal(report.warningCount, 60);
    assert.equal(report.warnings[49]!.pointer, '#/components/schemas/S49/type');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 51);
    assert.equal(lines[50], 'warning: … and 10 more not listed');
    const human = await box.cli(['import', file]);
    assert.match(human.stdout, /1 created, 0 replaced, 0 skipped, 60 warnings in/);
  });
});
