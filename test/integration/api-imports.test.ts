import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'openapi');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const PETSTORE = fixture('petstore-3.0.yaml');

const importDoc = (api: ApiSandbox, body: string, type: string, query = '') =>
  api.call('POST', `/api/v1/import/openapi${query}`, { body, type });

const routes = (report: Json, key: 'created' | 'updated' | 'replaced') =>
  (report[key] as Json[]).map((e) => `${e.method as string} ${e.path as string}`).sort();

describe('admin API: OpenAPI import', () => {
  it('imports a YAML body into a new project named after info.title (as `import --json`)', async (t) => {
    const api = apiSandbox(t);
    for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml']) {
      const r = await importDoc(
        api,
        PETSTORE,
        type,
        type === 'application/yaml' ? '' : '?project=Petstore&overwrite=true',
      );
      assert.equal(r.status, 200, `${type}: ${r.body}`);
    }
    const list = (await api.call('GET', '/api/v1/projects')).json as Json[];
    assert.deepEqual(
      list.map((p) => p.name),
      ['Petstore'],
    );
    const project = (await api.call('GET', `/api/v1/projects/${list[0]!.id as string}`)).json as Json;
    assert.deepEqual(
      (project.endpoints as Json[]).map((e) => `${e.method as string} ${e.path as string}`).sort(),
      ['DELETE /pets/{petId}', 'GET /health', 'GET /pets', 'GET /pets/{petId}', 'POST /pets'],
    );
  });

  it('imports a JSON body, and the report has the CLI’s shape', async (t) => {
    const api = apiSandbox(t);
    const r = await importDoc(api, fixture('swagger-2.0.json'), 'application/json');
    assert.equal(r.status, 200, r.body);
    const report = r.json as Json;
    assert.deepEqual(Object.keys(report).sort(), [
      'created',
      'dropped',
      'kept',
      'literal',
      'project',
      'replaced',
      'skipped',
      'templates',
      'updated',
      'warningCount',
      'warnings',
    ]);
    assert.ok((report.created as Json[]).length > 0);
    assert.equal(((report.project as Json).endpointCount as number) > 0, true);
  });

  it('into an existing project: skips existing routes unless overwrite=true (updates them) or replace=true (replaces them)', async (t) => {
    const api = apiSandbox(t);
    const created = await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
    const id = (created.json as Json).id as string;
    const first = await importDoc(api, PETSTORE, 'application/yaml', '?project=Shop');
    assert.equal(first.status, 200, first.body);
    assert.equal(((first.json as Json).project as Json).id, id);
    assert.equal(routes(first.json as Json, 'created').length, 5);

    const again = (await importDoc(api, PETSTORE, 'application/yaml', `?project=${id}`)).json as Json;
    assert.deepEqual(again.created, []);
    assert.equal((again.skipped as Json[]).length, 5);
    assert.ok((again.skipped as Json[]).every((s) => typeof s.existingId === 'string'));

    const over = (await importDoc(api, PETSTORE, 'application/yaml', `?project=${id}&overwrite=true`))
      .json as Json;
    assert.equal(routes(over, 'updated').length, 5);
    assert.deepEqual(over.skipped, []);
    const endpoints = ((await api.call('GET', `/api/v1/projects/${id}`)).json as Json).endpoints as Json[];
    assert.equal(endpoints.length, 5, 'updated in place, not added twice');
    const replace = (await importDoc(api, PETSTORE, 'application/yaml', `?project=${id}&replace=true`))
      .json as Json;
    assert.equal(routes(replace, 'replaced').length, 5);

    const unknown = await importDoc(api, PETSTORE, 'application/yaml', '?project=nope');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json as Json).code, 'PROJECT_NOT_FOUND');
    const badFlag = await importDoc(api, PETSTORE, 'application/yaml', `?project=${id}&overwrite=maybe`);
    assert.equal(badFlag.status, 400);
    assert.match((badFlag.json as Json).detail as string, /overwrite/);
  });

  it('refuses broken documents with the reason, and writes nothing', async (t) => {
    const api = apiSandbox(t);
    // A document that does not parse is the document's problem, as for `mockdev import` (exit 1):
    // the import reads it once, the handler does not parse it before.
    const yaml = await importDoc(api, fixture('bad/syntax.yaml'), 'application/yaml');
    assert.equal(yaml.status, 422, yaml.body);
    assert.equal((yaml.json as Json).code, 'INVALID_INPUT');
    assert.match((yaml.json as Json).detail as string, /not valid YAML.*line 3, column 10/is);
    const json = await importDoc(api, fixture('bad/syntax.json'), 'application/json');
    assert.equal(json.status, 422, json.body);
    assert.match((json.json as Json).detail as string, /not valid JSON/);
    const notOpenApi = await importDoc(api, fixture('bad/not-openapi.json'), 'application/json');
    assert.equal(notOpenApi.status, 422, notOpenApi.body);
    assert.equal((notOpenApi.json as Json).code, 'INVALID_INPUT');
    assert.match((notOpenApi.json as Json).detail as string, /OpenAPI|Swagger/);
    const strict = await importDoc(api, fixture('bad/missing-ref.yaml'), 'application/yaml', '?strict=true');
    assert.equal(strict.status, 422, strict.body);
    assert.match((strict.json as Json).detail as string, /\$ref|resolve/i);
    const empty = await importDoc(api, '', 'application/yaml');
    assert.equal(empty.status, 400);
    assert.match((empty.json as Json).detail as string, /empty/);
    const form = await importDoc(api, PETSTORE, 'text/plain');
    assert.equal(form.status, 415);
    assert.deepEqual((await api.call('GET', '/api/v1/projects')).json, []);
  });

  it('a lenient import reports what it left out as warnings', async (t) => {
    const api = apiSandbox(t);
    const r = await importDoc(api, fixture('bad/missing-ref.yaml'), 'application/yaml');
    assert.equal(r.status, 200, r.body);
    const report = r.json as Json;
    assert.ok((report.warningCount as number) >= 1);
    assert.match(((report.warnings as Json[])[0]!.message as string) ?? '', /\$ref|resolve/i);
  });

  it('never reads a file outside the data directory through a $ref', async (t) => {
    const api = apiSandbox(t);
    const doc = [
      'openapi: 3.0.3',
      'info: { title: Sneaky, version: "1" }',
      'paths:',
      '  /x:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: ok',
      '          content:',
      '            application/json:',
      `              schema: { $ref: '${join(FIXTURES, 'petstore-3.0.yaml')}#/components/schemas/Pet' }`,
    ].join('\n');
    const r = await importDoc(api, doc, 'application/yaml', '?strict=true');
    assert.equal(r.status >= 400, true, r.body);
    assert.match((r.json as Json).detail as string, /data directory/);
  });
});

describe('admin API: cURL', () => {
  it('previews a command in the DECISIONS shape, creating nothing', async (t) => {
    const api = apiSandbox(t);
    const r = await api.call('POST', '/api/v1/curl/preview', {
      body: {
        command:
          "curl -X POST 'https://api.example.com/v1/users?tag=a&tag=b' -H 'Content-Type: application/json' -u ada:pw -d '{\"name\":\"Ada\"}' --compressed-nope",
      },
    });
    assert.equal(r.status, 200, r.body);
    const p = r.json as Json;
    assert.deepEqual(Object.keys(p).sort(), [
      'auth',
      'body',
      'headers',
      'method',
      'name',
      'path',
      'query',
      'url',
      'warnings',
    ]);
    assert.equal(p.method, 'POST');
    assert.equal(p.path, '/v1/users');
    assert.deepEqual(p.query, { tag: ['a', 'b'] });
    assert.deepEqual(p.headers, { 'Content-Type': 'application/json' });
    assert.equal(p.body, '{"name":"Ada"}');
    assert.deepEqual(p.auth, { type: 'basic', username: 'ada', password: 'pw' });
    assert.equal((p.warnings as string[]).length, 1);
    assert.deepEqual((await api.call('GET', '/api/v1/projects')).json, []);
  });

  it('a command that cannot be parsed answers 400 with line, column and the fix', async (t) => {
    const api = apiSandbox(t);
    const r = await api.call('POST', '/api/v1/curl/preview', {
      body: { command: "curl https://api.example.com/users \\\n  -H 'Accept: application/json" },
    });
    assert.equal(r.status, 400, r.body);
    const problem = r.json as Json;
    assert.equal(problem.code, 'INVALID_ARGUMENT');
    assert.match(problem.detail as string, /line 2, column 6/);
    const details = problem.details as Json;
    assert.equal(details.line, 2);
    assert.equal(details.column, 6);
    assert.equal(typeof details.fix, 'string');
    assert.ok((problem.detail as string).includes(details.fix as string), 'the fix is in detail too');

    const wget = await api.call('POST', '/api/v1/curl/preview', {
      body: { command: 'wget https://x.example' },
    });
    assert.equal(wget.status, 400);
    assert.deepEqual(
      [(wget.json as Json).details as Json].map((d) => [d.line, d.column]),
      [[1, 1]],
    );
    const missing = await api.call('POST', '/api/v1/curl/preview', { body: {} });
    assert.equal(missing.status, 400);
    assert.match((missing.json as Json).detail as string, /command/);
  });

  it('adds an endpoint from a command (201 Endpoint), its credentials masked', async (t) => {
    const api = apiSandbox(t);
    await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
    const command = "curl https://api.example.com/v1/orders/7 -H 'Authorization: Bearer s3cr3t-t0ken-value'";
    const r = await api.call('POST', '/api/v1/projects/Shop/curl', { body: { command } });
    assert.equal(r.status, 201, r.body);
    const endpoint = r.json as Json;
    assert.equal(endpoint.method, 'GET');
    assert.equal(endpoint.path, '/v1/orders/7');
    assert.doesNotMatch(r.body, /s3cr3t-t0ken-value/);
    const named = await api.call('POST', '/api/v1/projects/Shop/curl', {
      body: { command: 'curl -X POST https://api.example.com/v1/orders', name: 'Create order' },
    });
    assert.equal((named.json as Json).name, 'Create order');
    const twice = await api.call('POST', '/api/v1/projects/Shop/curl', {
      body: { command: 'curl -X POST https://api.example.com/v1/orders' },
    });
    assert.equal(twice.status, 409, twice.body);
    assert.equal((twice.json as Json).code, 'CONFLICT');
    const preview = await api.call('POST', '/api/v1/curl/preview', {
      body: {
        command: 'curl -X POST https://api.example.com/v1/orders',
        project: 'Shop',
        name: 'Create order',
      },
    });
    assert.equal((preview.json as Json).name, 'Create order-2', 'made unique in the project');

    const broken = await api.call('POST', '/api/v1/projects/Shop/curl', {
      body: { command: "curl 'https://x" },
    });
    assert.equal(broken.status, 400);
    assert.equal(((broken.json as Json).details as Json).line, 1);
    const noProject = await api.call('POST', '/api/v1/projects/nope/curl', { body: { command } });
    assert.equal(noProject.status, 404);
    assert.equal(((await api.call('GET', '/api/v1/projects/Shop')).json as Json).endpointCount, 2);
  });
});

describe('admin API: OpenAPI export', () => {
  it('answers the document as YAML (default) or JSON, 3.0 (default) or 3.1, like `mockdev export`', async (t) => {
    const api = apiSandbox(t);
    await importDoc(api, PETSTORE, 'application/yaml');
    const yaml = await api.call('GET', '/api/v1/projects/Petstore/openapi');
    assert.equal(yaml.status, 200, yaml.body);
    assert.match(yaml.headers['Content-Type']!, /^application\/yaml/);
    const doc = parseYaml(yaml.body) as Json;
    assert.equal(doc.openapi, '3.0.3');
    assert.ok('/pets/{petId}' in (doc.paths as Json));

    const json = await api.call('GET', '/api/v1/projects/Petstore/openapi?format=json&version=3.1');
    assert.equal(json.status, 200);
    assert.match(json.headers['Content-Type']!, /^application\/json/);
    assert.equal((json.json as Json).openapi, '3.1.0');
    const v30json = await api.call('GET', '/api/v1/projects/Petstore/openapi?format=json&version=3.0');
    assert.equal((v30json.json as Json).openapi, '3.0.3');

    const bad = await api.call('GET', '/api/v1/projects/Petstore/openapi?format=xml');
    assert.equal(bad.status, 400);
    assert.match((bad.json as Json).detail as string, /format/);
    const badVersion = await api.call('GET', '/api/v1/projects/Petstore/openapi?version=2.0');
    assert.equal(badVersion.status, 400);
    assert.match((badVersion.json as Json).detail as string, /version/);
    const missing = await api.call('GET', '/api/v1/projects/nope/openapi');
    assert.equal(missing.status, 404);
  });
});
