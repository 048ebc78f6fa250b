/**
 * `import` of any format over the real surfaces (issue 27): the admin API's POST /api/v1/import
 * (detection, dryRun, refusals) and the CLI's exit codes and --dry-run. The converters' own
 * behaviour is tested beside them (src/formats/<format>/) and in import-<format>.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

type Json = Record<string, unknown>;

const PETSTORE_FILE = join(import.meta.dirname, '..', 'fixtures', 'openapi', 'petstore-3.0.yaml');
const PETSTORE = readFileSync(PETSTORE_FILE, 'utf8');

const post = (api: ApiSandbox, body: string, query = '', type = 'application/json') =>
  api.call('POST', `/api/v1/import${query}`, { body, type });

/** Each format in a small document of its tool's shape (the converters' own tests hold the full ones). */
const SAMPLES: Record<string, unknown> = {
  har: {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      entries: [
        {
          startedDateTime: '2026-01-01T00:00:00.000Z',
          time: 1,
          request: {
            method: 'GET',
            url: 'https://api.example.com/users?page=1',
            httpVersion: 'HTTP/1.1',
            headers: [],
            queryString: [{ name: 'page', value: '1' }],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            cookies: [],
            content: { size: 2, mimeType: 'application/json', text: '[]' },
            redirectURL: '',
            headersSize: -1,
            bodySize: 2,
          },
          cache: {},
          timings: { send: 0, wait: 1, receive: 0 },
        },
      ],
    },
  },
  postman: {
    info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'List users',
        request: { method: 'GET', url: { raw: '{{baseUrl}}/users', host: ['{{baseUrl}}'], path: ['users'] } },
        response: [
          { name: 'ok', code: 200, header: [{ key: 'Content-Type', value: 'application/json' }], body: '[]' },
        ],
      },
    ],
    variable: [{ key: 'baseUrl', value: 'https://api.example.com' }],
  },
  mockoon: {
    uuid: 'env',
    lastMigration: 32,
    name: 'Shop',
    endpointPrefix: '',
    port: 3999,
    routes: [
      {
        uuid: 'r1',
        type: 'http',
        method: 'get',
        endpoint: 'users',
        responses: [
          {
            uuid: 'a',
            statusCode: 200,
            body: '[]',
            headers: [],
            rules: [],
            rulesOperator: 'OR',
            default: true,
            latency: 0,
          },
        ],
      },
    ],
    data: [],
    headers: [],
  },
  wiremock: {
    mappings: [{ request: { method: 'GET', url: '/users' }, response: { status: 200, jsonBody: [] } }],
  },
};

const projectNames = async (api: ApiSandbox) =>
  ((await api.call('GET', '/api/v1/projects')).json as Json[]).map((p) => p.name);

describe('admin API: POST /api/v1/import (any format)', () => {
  it('detects an OpenAPI document and answers the report with its format', async (t) => {
    const api = apiSandbox(t);
    const r = await post(api, PETSTORE, '', 'application/yaml');
    assert.equal(r.status, 200, r.body);
    const report = r.json as Json;
    assert.equal(report.format, 'openapi');
    assert.equal(report.dryRun, false);
    assert.equal((report.project as Json).name, 'Petstore');
    assert.equal((report.created as Json[]).length, 5);
    assert.deepEqual(await projectNames(api), ['Petstore']);
  });

  it('detects each format from the content; dryRun previews it, then imported (forced with format) as GET /users', async (t) => {
    const api = apiSandbox(t);
    for (const [format, doc] of Object.entries(SAMPLES)) {
      const dry = await post(api, JSON.stringify(doc), '?dryRun=true');
      assert.equal(dry.status, 200, `${format}: ${dry.body}`);
      assert.equal((dry.json as Json).format, format);
      assert.deepEqual(await projectNames(api), [], `${format}: the dry run wrote nothing`);
    }
    for (const [format, doc] of Object.entries(SAMPLES)) {
      const r = await post(api, JSON.stringify(doc), `?format=${format}`);
      assert.equal(r.status, 200, `${format}: ${r.body}`);
      const created = ((r.json as Json).created as Json[]).map(
        (e) => `${e.method as string} ${e.path as string}`,
      );
      assert.deepEqual(created, ['GET /users'], format);
    }
    assert.equal((await projectNames(api)).length, 4);
  });

  it('dryRun=true answers the same report and writes nothing (this route and /import/openapi)', async (t) => {
    const api = apiSandbox(t);
    const dry = await post(api, PETSTORE, '?dryRun=true', 'application/yaml');
    assert.equal(dry.status, 200, dry.body);
    const report = dry.json as Json;
    assert.equal(report.dryRun, true);
    assert.equal((report.project as Json).id, 'dry-run');
    assert.equal((report.project as Json).name, 'Petstore');
    assert.equal((report.created as Json[]).length, 5);
    const old = await api.call('POST', '/api/v1/import/openapi?dryRun=true', {
      body: PETSTORE,
      type: 'application/yaml',
    });
    assert.equal(old.status, 200, old.body);
    assert.equal(((old.json as Json).created as Json[]).length, 5);
    assert.deepEqual(await projectNames(api), []);

    // Into an existing project: reported as updated, the project unchanged.
    assert.equal((await post(api, PETSTORE, '', 'application/yaml')).status, 200);
    const before = (await api.call('GET', '/api/v1/projects/Petstore')).body;
    const over = await post(api, PETSTORE, '?project=Petstore&replace=true&dryRun=true', 'application/yaml');
    assert.equal(over.status, 200, over.body);
    assert.equal(((over.json as Json).replaced as Json[]).length, 5);
    assert.equal((await api.call('GET', '/api/v1/projects/Petstore')).body, before);
  });

  it('refuses a body that is none of the formats (400, saying what it is), bad fields (400), an unknown project (404)', async (t) => {
    const api = apiSandbox(t);
    const none = await post(api, '{"hello":1}');
    assert.equal(none.status, 400, none.body);
    assert.equal((none.json as Json).code, 'INVALID_ARGUMENT');
    assert.equal(
      (none.json as Json).detail,
      'The document is not a HAR, Postman, Mockoon, WireMock or OpenAPI file: it is a JSON object with the field "hello". Give an OpenAPI document, a HAR file, a Postman collection (v2.0/v2.1), a Mockoon environment export or WireMock mappings',
    );
    const format = await post(api, PETSTORE, '?format=raml', 'application/yaml');
    assert.equal(format.status, 400);
    assert.match((format.json as Json).detail as string, /format/);
    const host = await post(api, PETSTORE, '?includeHost=api.example.com', 'application/yaml');
    assert.equal(host.status, 400);
    assert.match(
      (host.json as Json).detail as string,
      /options are for HAR files; The document is OpenAPI. Leave out the "includeHost" field and the "all" field/,
    );
    const unknown = await post(api, PETSTORE, '?project=ghost', 'application/yaml');
    assert.equal(unknown.status, 404);
    const empty = await post(api, ' ');
    assert.equal(empty.status, 400);
    assert.match((empty.json as Json).detail as string, /empty/);
    assert.deepEqual(await projectNames(api), []);
  });

  it('env=true needs a Pro license (checked before anything is written)', async (t) => {
    const api = apiSandbox(t);
    const r = await post(api, PETSTORE, '?env=true', 'application/yaml');
    assert.equal((r.json as Json).code, 'LICENSE_REQUIRED', r.body);
    assert.deepEqual(await projectNames(api), []);
  });
});

describe('mockdev import: any format', () => {
  it('--dry-run prints the report and changes nothing; --format forces the format', async (t) => {
    const box = cliSandbox(t, 'mockdev-import-formats-');
    const dry = await box.cli(['import', PETSTORE_FILE, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /^Dry run, nothing written: would create project "Petstore" \(port \d+\): 5 created/,
    );
    const json = await box.cli(['import', PETSTORE_FILE, '--dry-run', '--json', '--format', 'openapi']);
    assert.equal(json.code, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as Json).dryRun, true);
    const list = await box.cli(['project', 'list', '--json']);
    assert.deepEqual(JSON.parse(list.stdout), []);
  });

  it('exit codes: 2 for a file of no format (one line saying what it is) or a bad --format, 3 for an unknown project', async (t) => {
    const box = cliSandbox(t, 'mockdev-import-formats-');
    writeFileSync(join(box.dir, 'notes.json'), '[{"a":1}]');
    const none = await box.cli(['import', 'notes.json']);
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /^mockdev: notes\.json is not a HAR, Postman, Mockoon, WireMock or OpenAPI file: it is a JSON list of 1 item\b/,
    );
    const format = await box.cli(['import', PETSTORE_FILE, '--format', 'raml']);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /Invalid format "raml": must be openapi, har, postman, mockoon, wiremock/);
    const ghost = await box.cli(['import', PETSTORE_FILE, '-p', 'ghost']);
    assert.equal(ghost.code, 3);
    mkdirSync(join(box.dir, 'wiremock'));
    const folder = await box.cli(['import', 'wiremock']);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /wiremock holds no WireMock mapping files/);
    const host = await box.cli(['import', PETSTORE_FILE, '--include-host', 'a.example']);
    assert.equal(host.code, 2);
    assert.match(host.stderr, /is OpenAPI\. Leave out --include-host and --all$/m);
    const list = await box.cli(['project', 'list', '--json']);
    assert.deepEqual(JSON.parse(list.stdout), []);
  });
});
