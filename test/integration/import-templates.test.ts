/**
 * Imported text is data, not a template (DECISIONS "Trust and data"): an OpenAPI example or a
 * cURL body holding `{{json env}}` is served as written, even with an active environment holding
 * a secret; `--templates` (and the same flag of MCP and the admin API) keeps templates; mockdev's
 * own export keeps its templates. The report says which texts were kept literal.
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
import { proSandbox, startProServer } from '../helpers/pro.js';
import { waitUntil } from '../helpers/wait.js';

const SECRET = 'sk-live-never-served-7';

/** A document whose examples and header values are templates that would hand out the environment. */
const LEAKY = [
  'openapi: 3.0.3',
  'info: { title: Leaky, version: "1" }',
  'paths:',
  '  /env:',
  '    get:',
  '      responses:',
  "        '200':",
  '          description: ok',
  '          headers:',
  "            X-Token: { schema: { type: string }, example: '{{env.TOKEN}}' }",
  '          content:',
  "            text/plain: { example: '{{json env}}' }",
  '  /env.json:',
  '    get:',
  '      responses:',
  "        '200':",
  '          description: ok',
  '          content:',
  "            application/json: { example: { all: '{{json env}}' } }",
  "        '404':",
  '          description: nf',
  '          content:',
  "            application/json: { example: { token: '{{env.TOKEN}}' } }",
].join('\n');

const ok0 = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, r.stderr);
  return r;
};

async function served(sandbox: Awaited<ReturnType<typeof proSandbox>>, project: string) {
  const { server } = await startProServer(sandbox, project);
  return (path: string, init?: RequestInit) =>
    fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
}

describe('imported text is data', () => {
  it('an OpenAPI example {{json env}} is served as written while an environment with a secret is active', async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dir } = sandbox;
    writeFileSync(join(dir, 'leaky.yaml'), LEAKY);
    const r = ok0(await cli(['import', 'leaky.yaml', '--json']));
    const report = json<ImportReport>(r);
    assert.equal(report.templates, 'literal');
    assert.deepEqual(
      report.literal.map((l) => [`${l.method} ${l.path}`, l.parts]),
      [
        ['GET /env', ['body', 'header "X-Token"']],
        ['GET /env.json', ['body', 'variation "404" body']],
      ],
    );
    assert.match(r.stderr, /note: 2 endpoints hold \{\{ in imported text, sent as written .*--templates/);
    assert.match(r.stderr, /GET +\/env {2}body, header "X-Token"/);
    ok0(
      await cli([
        'environment',
        'create',
        '-n',
        'dev',
        '-p',
        'Leaky',
        '--var',
        'HOST=h',
        '--secret',
        `TOKEN=${SECRET}`,
      ]),
    );
    ok0(await cli(['environment', 'activate', 'Leaky', 'dev']));

    const get = await served(sandbox, 'Leaky');
    const text = await get('/env', { headers: { Origin: 'https://evil.example' } });
    assert.equal(text.status, 200);
    const body = await text.text();
    assert.equal(body, '{{json env}}');
    assert.equal(text.headers.get('x-token'), '{{env.TOKEN}}');
    const asJson = await get('/env.json');
    assert.deepEqual(await asJson.json(), { all: '{{json env}}' });
    const variation = await get('/env.json', { headers: { 'X-Mockdev-Variation': '404' } });
    assert.equal(variation.status, 404);
    assert.deepEqual(await variation.json(), { token: '{{env.TOKEN}}' });
    for (const res of [text, asJson, variation])
      assert.ok(![...res.headers.values()].some((h) => h.includes(SECRET)));
    assert.ok(!body.includes(SECRET));

    // Turned on by hand, the same endpoint renders: the flag is what kept it literal.
    const endpoint = json<Endpoint>(ok0(await cli(['endpoint', 'show', 'Leaky', 'GET /env', '--json'])));
    assert.equal(endpoint.templating, false);
    const on = json<Endpoint>(
      ok0(await cli(['endpoint', 'update', 'Leaky', 'GET /env', '--templating', '--json'])),
    );
    assert.equal(on.templating, undefined);
    await waitUntil(
      async () => JSON.parse(await (await get('/env')).text()).HOST === 'h',
      'the template rendered',
    );
  });

  it('--templates keeps the document’s templates; mockdev’s own export keeps its templates', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-templates-');
    writeFileSync(join(dir, 'leaky.yaml'), LEAKY);
    const trusted = json<ImportReport>(ok0(await cli(['import', 'leaky.yaml', '--templates', '--json'])));
    assert.equal(trusted.templates, 'option');
    assert.deepEqual(trusted.literal, []);
    assert.ok(
      trusted.created.every(
        (e) => e.templating === undefined && e.variations.every((v) => v.templating === undefined),
      ),
    );

    ok0(await cli(['project', 'create', 'Mine']));
    ok0(await cli(['endpoint', 'add', 'Mine', '-p', '/users/:id', '-b', '{"id":"{{params.id}}"}']));
    ok0(await cli(['export', 'Mine', '-o', 'mine.yaml']));
    const again = await cli(['import', 'mine.yaml', '--json']);
    const own = json<ImportReport>(ok0(again));
    assert.equal(own.templates, 'own-export');
    assert.deepEqual(own.literal, []);
    assert.equal(own.created[0]!.templating, undefined);
    assert.equal(own.created[0]!.body, '{"id":"{{params.id}}"}');
    assert.match(again.stderr, /mockdev's own export: its templates are kept/);

    // Anyone can write x-mockdev-* fields: an "export" whose templates read the environment keeps
    // those literal (listed), the others as templates; --templates keeps them all.
    ok0(
      await cli([
        'endpoint',
        'add',
        'Mine',
        '-p',
        '/leak',
        '-b',
        '{{json env}}',
        '-H',
        'X-Token: {{env.TOKEN}}',
      ]),
    );
    ok0(await cli(['endpoint', 'add', 'Mine', '-p', '/whole', '-b', '{{json this}}']));
    ok0(await cli(['export', 'Mine', '-o', 'mine.yaml']));
    const forged = await cli(['import', 'mine.yaml', '--json']);
    const report = json<ImportReport>(ok0(forged));
    assert.equal(report.templates, 'own-export');
    assert.deepEqual(
      report.literal.map((l) => [l.path, l.parts]),
      [
        ['/leak', ['body', 'header "X-Token"']],
        ['/whole', ['body']],
      ],
    );
    const byPath = new Map(report.created.map((e) => [e.path, e]));
    assert.equal(byPath.get('/leak')!.templating, false);
    assert.equal(byPath.get('/users/:id')!.templating, undefined);
    assert.match(forged.stderr, /2 endpoints hold a template reading the environment .*--templates/);
    const trustedExport = json<ImportReport>(
      ok0(await cli(['import', 'mine.yaml', '--templates', '--json'])),
    );
    assert.deepEqual(trustedExport.literal, []);
  });

  it('a cURL body holding {{ is sent as written unless --templates', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-templates-');
    ok0(await cli(['project', 'create', 'Api']));
    const command = `curl -X POST https://api.example.com/echo -H 'Content-Type: application/json' -d '{"a":"{{json env}}"}'`;
    const r = ok0(await cli(['curl', command, '-p', 'Api', '--json']));
    const literal = json<Endpoint>(r);
    assert.equal(literal.body, '{"a":"{{json env}}"}');
    assert.equal(literal.templating, false);
    assert.match(r.stderr, /note: the body holds \{\{ and is sent as written .*--templates/);
    const kept = json<Endpoint>(
      ok0(await cli(['curl', command.replace('/echo', '/echo2'), '-p', 'Api', '--templates', '--json'])),
    );
    assert.equal(kept.templating, undefined);
  });

  it('MCP import_openapi and the admin API take the templates flag and report literal text', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const plain = await ok<ImportReport>(mcp.client, 'import_openapi', { text: LEAKY });
    assert.equal(plain.templates, 'literal');
    assert.equal(plain.literal.length, 2);
    const trusted = await ok<ImportReport>(mcp.client, 'import_openapi', { text: LEAKY, templates: true });
    assert.equal(trusted.templates, 'option');
    assert.deepEqual(trusted.literal, []);

    const api = apiSandbox(t);
    const viaApi = await api.call('POST', '/api/v1/import/openapi', {
      body: LEAKY,
      type: 'application/yaml',
    });
    assert.equal(viaApi.status, 200, viaApi.body);
    assert.equal((viaApi.json as ImportReport).literal.length, 2);
    const project = (viaApi.json as ImportReport).project.id;
    const trustedApi = await api.call(
      'POST',
      `/api/v1/import/openapi?templates=true&project=${project}&replace=true`,
      {
        body: LEAKY,
        type: 'application/yaml',
      },
    );
    assert.equal(trustedApi.status, 200, trustedApi.body);
    assert.equal((trustedApi.json as ImportReport).templates, 'option');
    assert.ok((trustedApi.json as ImportReport).replaced.every((e) => e.templating === undefined));
    const curl = await api.call('POST', `/api/v1/projects/${project}/curl`, {
      body: { command: 'curl -X POST https://x.example/c -d \'{"t":"{{env.TOKEN}}"}\'' },
    });
    assert.equal(curl.status, 201, curl.body);
    assert.equal((curl.json as Endpoint).templating, false);
  });
});
