import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../test/helpers/cli.js';
import { tempContext } from '../../test/helpers/context.js';
import { failure } from '../../test/helpers/failure.js';
import type { ConvertedImport, WireMockSource } from '../formats/converted.js';
import { importFile, parseImportFormat, type Converters } from './imports.js';
import { createContext } from './context.js';
import { showEnvironment } from './environments.js';
import { createProject, getProject } from './projects.js';
import { activateLicenseKey } from './license.js';
import { testSigner } from '../../test/helpers/license.js';
import { listResources } from './resources.js';

/** What a fake converter gives: two endpoints, one with `{{`, a resource, notes and variables. */
const converted = (over: Partial<ConvertedImport> = {}): ConvertedImport => ({
  format: 'postman',
  title: 'Shop API',
  port: 4123,
  endpoints: [
    { method: 'GET', path: '/users', name: 'Users - List', status: 200, body: '[]' },
    { method: 'GET', path: '/users/{id}', name: 'Users - Get', status: 200, body: '{"id":"{{id}}"}' },
  ],
  resources: [{ path: '/orders', seed: [{ id: 1 }] }],
  approximate: [{ method: 'POST', path: '/users', name: 'Create', message: 'no example: answers 200 {}' }],
  skipped: [{ name: 'Upload', message: 'a file body cannot be read' }],
  variables: [
    { name: 'baseUrl', value: 'http://x' },
    { name: 'apiToken', value: 's3cret-value' },
    { name: 'pin', value: 'pin-value-9z', secret: true },
  ],
  templates: false,
  ...over,
});

const fakes = (result: () => ConvertedImport, seen: { wiremock?: WireMockSource } = {}): Converters => ({
  har: () => ({ ...result(), format: 'har' }),
  postman: () => result(),
  mockoon: () => ({ ...result(), format: 'mockoon' }),
  wiremock: (source) => {
    seen.wiremock = source;
    return { ...result(), format: 'wiremock' };
  },
});

const recognizers = {
  har: (d: unknown) => ({ looksLike: typeof d === 'object' && d !== null && 'log' in d }),
  postman: (d: unknown) => ({ looksLike: typeof d === 'object' && d !== null && 'info' in d }),
  mockoon: (d: unknown) => ({ looksLike: typeof d === 'object' && d !== null && 'routes' in d }),
  wiremock: (d: unknown) => ({ looksLike: typeof d === 'object' && d !== null && 'request' in d }),
};

const POSTMAN = '{"info":{"name":"Shop API"},"item":[]}';

describe('importFile: another tool’s file', () => {
  it('detects the format, makes a project named from the title on the source’s port, with endpoints, resources and the report', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const report = await importFile(
      ctx,
      { text: POSTMAN },
      { converters: fakes(() => converted()), recognizers },
    );
    assert.equal(report.format, 'postman');
    assert.equal(report.dryRun, false);
    assert.equal(report.project.name, 'Shop API');
    assert.equal(report.project.port, 4123);
    assert.deepEqual(
      report.created.map((e) => `${e.method} ${e.path} ${e.name}`),
      ['GET /users Users - List', 'GET /users/{id} Users - Get'],
    );
    // Postman's {{id}} is data: sent as written, and said so.
    assert.equal(report.templates, 'literal');
    assert.deepEqual(
      report.literal.map((l) => [l.path, l.parts]),
      [['/users/{id}', ['body']]],
    );
    assert.deepEqual(report.approximate, converted().approximate);
    assert.deepEqual(report.skipped, [
      { method: '', path: '', reason: 'a file body cannot be read', name: 'Upload' },
    ]);
    assert.deepEqual(report.variables, [
      { name: 'baseUrl', value: 'http://x', secret: false },
      { name: 'apiToken', value: '********', secret: true },
      { name: 'pin', value: '********', secret: true },
    ]);
    assert.deepEqual(
      report.resources.map((r) => [r.name, r.path, r.itemCount, typeof r.id]),
      [['orders', '/orders', 1, 'string']],
    );
    const stored = await getProject(ctx, 'Shop API');
    assert.equal(stored.endpoints.length, 2);
    assert.equal(stored.endpoints[1]!.templating, false);
    assert.equal((await listResources(ctx, 'Shop API')).resources.length, 1);
  });

  it('keeps the source’s templates as templates when the converter says they are (Mockoon, WireMock)', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const report = await importFile(
      ctx,
      { text: '{"routes":[]}' },
      { converters: fakes(() => converted({ templates: true, resources: [] })), recognizers },
    );
    assert.equal(report.format, 'mockoon');
    assert.equal(report.templates, 'source');
    assert.deepEqual(report.literal, []);
    assert.notEqual((await getProject(ctx, 'Shop API')).endpoints[1]!.templating, false);
  });

  it('--dry-run: the same report, nothing written (no project, no resource; an existing project unchanged)', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const options = { converters: fakes(() => converted()), recognizers };
    const dry = await importFile(ctx, { text: POSTMAN, dryRun: true }, options);
    assert.equal(dry.dryRun, true);
    assert.equal(dry.project.id, 'dry-run');
    assert.equal(dry.project.name, 'Shop API');
    assert.equal(dry.created.length, 2);
    assert.deepEqual(
      dry.resources.map((r) => [r.path, r.itemCount, r.id]),
      [['/orders', 1, undefined]],
    );
    assert.deepEqual(await ctx.projects.summaries(), []);

    await createProject(ctx, { name: 'Keep' }, [{ method: 'GET', path: '/users', status: 204 }]);
    const before = JSON.stringify(await getProject(ctx, 'Keep'));
    const into = await importFile(
      ctx,
      { text: POSTMAN, dryRun: true, projectRef: 'Keep', replace: true },
      options,
    );
    assert.deepEqual(
      into.replaced.map((e) => e.path),
      ['/users'],
    );
    assert.deepEqual(
      into.created.map((e) => e.path),
      ['/users/{id}'],
    );
    assert.equal(JSON.stringify(await getProject(ctx, 'Keep')), before);
    assert.deepEqual((await listResources(ctx, 'Keep')).resources, []);
  });

  it('into an existing project: an existing route is skipped unless overwrite/replace; a bad resource is skipped, not fatal', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    await createProject(ctx, { name: 'Keep', port: 4123 }, [{ method: 'GET', path: '/users', status: 204 }]);
    const report = await importFile(
      ctx,
      { text: POSTMAN, projectRef: 'Keep' },
      {
        converters: fakes(() => converted({ resources: [{ path: '/orders', seed: [{ name: 'no id' }] }] })),
        recognizers,
      },
    );
    assert.deepEqual(
      report.created.map((e) => e.path),
      ['/users/{id}'],
    );
    const skipped = report.skipped.map((s) => `${s.method} ${s.path}: ${s.reason}`);
    assert.match(skipped[1]!, /^GET \/users: already exists as /);
    assert.match(skipped[2]!, /^ \/orders: resource not made: /);
    assert.deepEqual(report.resources, []);
  });

  it('a new project on a port another project uses gets the next free one, reported approximate', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    await createProject(ctx, { name: 'Other', port: 4123 });
    const report = await importFile(
      ctx,
      { text: POSTMAN },
      { converters: fakes(() => converted()), recognizers },
    );
    assert.notEqual(report.project.port, 4123);
    assert.match(report.approximate.at(-1)!.message, /^port 4123 is used by project "Other"/);
  });

  it('refusals: nothing importable, HAR options on another format, env without Pro; nothing written', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const empty = fakes(() => converted({ endpoints: [], resources: [] }));
    const none = await failure(importFile(ctx, { text: POSTMAN }, { converters: empty, recognizers }));
    assert.equal(none.code, 'INVALID_INPUT');
    assert.match(
      none.message,
      /nothing in it can be imported \(1 item skipped; the first: a file body cannot be read\)/,
    );
    const host = await failure(
      importFile(
        ctx,
        { text: POSTMAN, includeHost: 'a.example' },
        { converters: fakes(() => converted()), recognizers },
      ),
    );
    assert.equal(host.code, 'INVALID_ARGUMENT');
    assert.match(
      host.message,
      /The host and static-asset options are for HAR files; The document is Postman collection/,
    );
    const env = await failure(
      importFile(ctx, { text: POSTMAN, env: true }, { converters: fakes(() => converted()), recognizers }),
    );
    assert.equal(env.code, 'LICENSE_REQUIRED');
    const unknown = await failure(importFile(ctx, { text: POSTMAN, projectRef: 'ghost' }, { recognizers }));
    assert.equal(unknown.exitCode, 3);
    assert.deepEqual(await ctx.projects.summaries(), []);
    assert.equal(parseImportFormat(' HAR '), 'har');
    assert.equal((await failure(Promise.resolve().then(() => parseImportFormat('raml')))).exitCode, 2);
  });

  it('a WireMock folder: mappings/ (nested too) and the __files bodies they name reach the converter', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const root = join(ctx.cwd, 'wm');
    mkdirSync(join(root, 'mappings', 'nested'), { recursive: true });
    mkdirSync(join(root, '__files'), { recursive: true });
    writeFileSync(
      join(root, 'mappings', 'a.json'),
      JSON.stringify({ request: {}, response: { bodyFileName: 'a.json' } }),
    );
    writeFileSync(
      join(root, 'mappings', 'nested', 'b.json'),
      JSON.stringify({ mappings: [{ request: {}, response: { bodyFileName: 'missing.txt' } }] }),
    );
    writeFileSync(join(root, 'mappings', 'notes.txt'), 'not a mapping');
    writeFileSync(join(root, '__files', 'a.json'), '{"from":"file"}');
    const seen: { wiremock?: WireMockSource } = {};
    const report = await importFile(
      ctx,
      { file: 'wm' },
      { converters: fakes(() => converted({ resources: [] }), seen) },
    );
    assert.equal(report.format, 'wiremock');
    assert.deepEqual(
      seen.wiremock!.mappings.map((m) => m.file),
      ['a.json', join('nested', 'b.json')],
    );
    assert.equal(seen.wiremock!.bodyFile('a.json')?.toString(), '{"from":"file"}');
    assert.equal(seen.wiremock!.bodyFile('missing.txt'), undefined);
    const folder = await failure(
      importFile(ctx, { file: 'wm', format: 'har' }, { converters: fakes(() => converted()) }),
    );
    assert.match(folder.message, /wm is a folder: only WireMock mappings are read from a folder/);
    mkdirSync(join(ctx.cwd, 'empty'));
    const empty = await failure(importFile(ctx, { file: 'empty' }));
    assert.equal(empty.exitCode, 2);
    assert.match(empty.message, /empty holds no WireMock mapping files/);
  });

  it('--env with a Pro license: the variables become an environment of the project, secret-looking ones as secrets', async (t) => {
    const signer = testSigner();
    const { dir, cleanup } = tempDir('mockdev-app-imports-');
    const ctx = createContext({
      dataDir: dir,
      cwd: dir,
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem },
    });
    t.after(() => {
      ctx.close();
      cleanup();
    });
    await activateLicenseKey(ctx, signer.key({ sub: 'pro@example.com' }));
    const dry = await importFile(
      ctx,
      { text: POSTMAN, env: true, dryRun: true },
      { converters: fakes(() => converted()), recognizers },
    );
    assert.deepEqual(dry.environment, { name: 'Shop API', variableCount: 3 });
    const report = await importFile(
      ctx,
      { text: POSTMAN, env: true },
      { converters: fakes(() => converted()), recognizers },
    );
    assert.equal(report.environment?.variableCount, 3);
    const env = await showEnvironment(ctx, report.environment!.id!);
    assert.equal(env.projectId, report.project.id);
    assert.deepEqual(env.secretKeys, ['apiToken', 'pin']);
    assert.equal(JSON.stringify(report).includes('s3cret-value'), false, 'the secret is not in the report');
    assert.equal(
      JSON.stringify(report).includes('pin-value-9z'),
      false,
      'a secret the source marks is not in the report',
    );
  });

  it('one WireMock mapping file: its __files beside its folder; a body name leading out of __files is missing', async (t) => {
    const ctx = tempContext(t, 'mockdev-app-imports-');
    const root = join(ctx.cwd, 'wm');
    mkdirSync(join(root, 'mappings'), { recursive: true });
    mkdirSync(join(root, '__files'), { recursive: true });
    writeFileSync(join(ctx.cwd, 'secret.txt'), 'outside');
    writeFileSync(
      join(root, 'mappings', 'one.json'),
      JSON.stringify({
        mappings: [
          { request: {}, response: { bodyFileName: 'b.txt' } },
          { request: {}, response: { bodyFileName: '../../secret.txt' } },
        ],
      }),
    );
    writeFileSync(join(root, '__files', 'b.txt'), 'body b');
    const seen: { wiremock?: WireMockSource } = {};
    await importFile(
      ctx,
      { file: join('wm', 'mappings', 'one.json'), format: 'wiremock' },
      { converters: fakes(() => converted({ resources: [] }), seen) },
    );
    assert.deepEqual(
      seen.wiremock!.mappings.map((m) => m.file),
      ['one.json'],
    );
    assert.equal(seen.wiremock!.bodyFile('b.txt')?.toString(), 'body b');
    assert.equal(seen.wiremock!.bodyFile('../../secret.txt'), undefined);
  });
});
