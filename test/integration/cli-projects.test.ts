import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, runCli, tempDir, assertCliError } from '../helpers/cli.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
const cli = (...args: string[]) => runCli(args, { dataDir, cwd: tmp.dir });

const assertError = assertCliError;

before(() => {
  tmp = tempDir();
  dataDir = join(tmp.dir, 'data');
});
after(() => tmp.cleanup());

describe('mockdev version and help', () => {
  it('prints the version, as text and as JSON', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const text = await cli('version');
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(`^mockdev ${pkg.version.replace(/\./g, '\\.')} `));
    assert.equal(json<{ version: string }>(await cli('version', '--json')).version, pkg.version);
    assert.equal((await cli('--version')).stdout.trim(), pkg.version);
  });

  it('--help lists every command, and each command lists its options with an example', async () => {
    const top = await cli('--help');
    assert.equal(top.code, 0);
    for (const c of ['version', 'init', 'list', 'project', 'endpoint'])
      assert.match(top.stdout, new RegExp(`\\n\\s+${c}\\b`));
    const add = await cli('endpoint', 'add', '--help');
    for (const o of [
      '-n, --name',
      '-p, --path',
      '-m, --method',
      '-s, --status',
      '-b, --body',
      '--delay',
      '--content-type',
    ]) {
      assert.ok(add.stdout.includes(o), `endpoint add --help mentions ${o}`);
    }
    assert.match(add.stdout, /Examples:\n\s+\$ mockdev endpoint add/);
    const create = await cli('project', 'create', '--help');
    assert.match(create.stdout, /-p, --port <PORT>.*\n/);
    assert.match(create.stdout, /-d, --description/);
  });

  it('prints bash and zsh completion scripts that know the commands', async () => {
    const bash = await cli('completion', 'bash');
    assert.equal(bash.code, 0);
    assert.match(bash.stdout, /complete -o default -F _mockdev mockdev/);
    assert.match(bash.stdout, /"endpoint add"\) words="[^"]*--content-type/);
    assert.match((await cli('completion', 'zsh')).stdout, /#compdef mockdev/);
    assertError(await cli('completion', 'fish'), 2, /Unsupported shell "fish"/);
  });

  it('unknown commands and options exit 2 with a pointer to --help', async () => {
    assertError(await cli('frobnicate'), 2, /unknown command 'frobnicate'.*mockdev --help/);
    assertError(
      await cli('project', 'create', 'x', '--bogus'),
      2,
      /unknown option '--bogus'.*mockdev project create --help/,
    );
    assertError(await cli('project', 'create'), 2, /missing required argument 'NAME'/);
    assertError(await cli('project', 'show', 'a', 'b'), 2, /too many arguments/);
  });

  it('an invalid MOCKDEV_LOG_LEVEL exits 2; a valid one is accepted', async () => {
    const bad = await runCli(['version'], { dataDir, env: { MOCKDEV_LOG_LEVEL: 'loud' } });
    assertError(bad, 2, /Invalid MOCKDEV_LOG_LEVEL "loud": must be one of error, warn, info, debug, trace/);
    for (const level of ['error', 'warn', 'info', 'debug', 'trace']) {
      assert.equal((await runCli(['version'], { dataDir, env: { MOCKDEV_LOG_LEVEL: level } })).code, 0);
    }
  });
});

describe('mockdev init', () => {
  it('writes project.json and endpoints.json with the example endpoints', async () => {
    const r = await cli('init', 'shop', '--with-examples', '--json');
    assert.equal(r.code, 0, r.stderr);
    const made = json<{
      name: string;
      port: number;
      endpoints: { method: string; path: string; body: string }[];
    }>(r);
    assert.equal(made.name, 'shop');
    assert.equal(made.port, 3001);
    assert.deepEqual(
      made.endpoints.map((e) => `${e.method} ${e.path}`),
      ['GET /api/users', 'GET /api/users/:id', 'POST /api/users', 'GET /health'],
    );
    const project = JSON.parse(readFileSync(join(tmp.dir, 'shop', 'project.json'), 'utf8'));
    assert.equal(project.schemaVersion, 1);
    assert.equal(JSON.parse(readFileSync(join(tmp.dir, 'shop', 'endpoints.json'), 'utf8')).length, 4);
  });

  it('uses -n and -p, defaults to the current folder and an empty endpoint list', async () => {
    const dir = join(tmp.dir, 'here');
    await cli('init', dir, '-n', 'Named', '-p', '4555');
    const r = json<{ name: string; port: number; endpointCount: number }>(
      await cli('project', 'show', dir, '--json'),
    );
    assert.deepEqual([r.name, r.port, r.endpointCount], ['Named', 4555, 0]);
    const inCwd = await runCli(['init', '--json'], { dataDir, cwd: dir.replace('here', 'shop') });
    assert.equal(inCwd.code, 1);
    assert.match(inCwd.stderr, /already exists\. Pass --force/);
  });

  it('--force overwrites, without it the files are untouched', async () => {
    const file = join(tmp.dir, 'shop', 'project.json');
    const before = readFileSync(file, 'utf8');
    assertError(await cli('init', 'shop'), 1, /project\.json already exists\. Pass --force to overwrite it/);
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal((await cli('init', 'shop', '--force', '-n', 'shop2')).code, 0);
    assert.match(readFileSync(file, 'utf8'), /"name": "shop2"/);
  });

  for (const port of ['80', '1023', '65536', 'abc', '3001.5']) {
    it(`rejects port ${port} with exit 2 and writes nothing`, async () => {
      assertError(await cli('init', `p${port}`, '-p', port), 2, /Invalid (port|--port)/);
      assert.equal(existsSync(join(tmp.dir, `p${port}`, 'project.json')), false);
    });
  }
});

describe('mockdev project', () => {
  it('create -> list -> show -> update -> delete, with --json shapes of DECISIONS', async () => {
    const created = json<Record<string, unknown>>(
      await cli('project', 'create', 'Payments', '-p', '4000', '-d', 'Cards API', '--json'),
    );
    assert.deepEqual(Object.keys(created), [
      'id',
      'name',
      'description',
      'port',
      'createdAt',
      'updatedAt',
      'endpointCount',
      'endpoints',
    ]);
    assert.deepEqual(
      [created.name, created.port, created.description, created.endpointCount],
      ['Payments', 4000, 'Cards API', 0],
    );

    const text = await cli('project', 'create', 'Orders');
    assert.match(text.stdout, /Created project "Orders" \(id [A-Za-z0-9_-]+, port 3001\)/);

    const listed = json<{ name: string }[]>(await cli('project', 'list', '--json'));
    assert.deepEqual(
      listed.map((p) => p.name),
      ['Payments', 'Orders'],
    );
    assert.deepEqual(Object.keys(listed[0]!), [
      'id',
      'name',
      'description',
      'port',
      'createdAt',
      'updatedAt',
      'endpointCount',
    ]);
    assert.deepEqual(json<unknown[]>(await cli('list', '--json')), listed);
    assert.deepEqual(json<unknown[]>(await cli('list', 'projects', '--json')), listed);
    assert.match(
      (await cli('project', 'list')).stdout,
      /^ID\s+NAME\s+PORT\s+ENDPOINTS\s+DESCRIPTION\n.*Payments\s+4000\s+0\s+Cards API/,
    );

    const byId = json<{ name: string }>(await cli('project', 'show', String(created.id), '--json'));
    assert.equal(byId.name, 'Payments');
    assert.match((await cli('project', 'show', 'payments')).stdout, /name:\s+Payments/);

    const updated = json<{ name: string; port: number; description: string }>(
      await cli(
        'project',
        'update',
        'Payments',
        '--new-name',
        'Billing',
        '-p',
        '4100',
        '-d',
        'Invoices',
        '--json',
      ),
    );
    assert.deepEqual([updated.name, updated.port, updated.description], ['Billing', 4100, 'Invoices']);
    assertError(await cli('project', 'update', 'Billing'), 2, /Nothing to update/);
    assertError(
      await cli('project', 'update', 'Billing', '--new-name', 'orders'),
      1,
      /"Orders" already exists/,
    );
    assertError(await cli('project', 'update', 'Billing', '-p', '99'), 2, /Invalid port 99/);

    assertError(await cli('project', 'delete', 'Billing'), 2, /refusing without confirmation\. Pass --force/);
    assert.equal(json<unknown[]>(await cli('project', 'list', '--json')).length, 2);
    const deleted = await cli('project', 'delete', 'Billing', '--force');
    assert.match(deleted.stdout, /Deleted project "Billing"/);
    assert.deepEqual(
      json<{ name: string }[]>(await cli('project', 'list', '--json')).map((p) => p.name),
      ['Orders'],
    );
  });

  it('unknown projects exit 3 for every command that takes one', async () => {
    for (const args of [
      ['project', 'show', 'nope'],
      ['project', 'update', 'nope', '-d', 'x'],
      ['project', 'delete', 'nope', '-f'],
      ['endpoint', 'list', 'nope'],
      ['endpoint', 'add', 'nope', '-p', '/x'],
      ['list', 'endpoints', 'nope'],
    ]) {
      assertError(await cli(...args), 3, /Project "nope" not found\. Run "mockdev project list"/);
    }
  });

  it('rejects names that could escape the data directory, and duplicates', async () => {
    for (const name of ['../x', '/etc', 'a\\b', 'nul\u0001x']) {
      assertError(await cli('project', 'create', name), 2, /Invalid name/);
    }
    assertError(
      await cli('project', 'create', 'orders'),
      1,
      /A project named "Orders" already exists \(id [A-Za-z0-9_-]+\)/,
    );
  });

  it('a hand-broken project.json is named in the error and left as it is', async () => {
    const dir = join(tmp.dir, 'broken');
    await cli('init', dir);
    writeFileSync(join(dir, 'project.json'), '{"name": ');
    const r = await cli('endpoint', 'add', dir, '-p', '/x');
    assertError(r, 1, /broken\/project\.json is not valid JSON.*will not overwrite it/);
    assert.equal(readFileSync(join(dir, 'project.json'), 'utf8'), '{"name": ');
  });

  it('list rejects an unknown resource and a missing project', async () => {
    assertError(await cli('list', 'widgets'), 2, /Unknown resource "widgets"/);
    assertError(await cli('list', 'endpoints'), 2, /"list endpoints" needs a project/);
  });
});
