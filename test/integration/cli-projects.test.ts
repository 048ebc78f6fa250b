/**
 * `version`, help, completion, `init`, `project` and `list`: every case in-process (each test
 * with its own data dir), and a few runs of the built binary to prove the real wiring.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

const assertError = assertCliError;

const packageVersion = () =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;

describe('mockdev version and help', () => {
  it('prints the version, as text and as JSON', async (t) => {
    const { cli } = cliSandbox(t);
    const version = packageVersion();
    const text = await cli(['version']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(`^mockdev ${version.replace(/\./g, '\\.')} `));
    assert.equal(json<{ version: string }>(await cli(['version', '--json'])).version, version);
    assert.equal((await cli(['--version'])).stdout.trim(), version);
  });

  it('a command group without its subcommand prints its help to stderr and exits 2', async (t) => {
    const { cli } = cliSandbox(t);
    for (const group of ['project', 'endpoint', 'requests', 'recording', 'settings', 'license']) {
      const r = await cli([group]);
      assert.equal(r.code, 2, `mockdev ${group}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^Usage: mockdev ${group} `));
    }
    const help = await cli(['project', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: mockdev project /);
  });

  it('--help lists every command, and each command lists its options with an example', async (t) => {
    const { cli } = cliSandbox(t);
    const top = await cli(['--help']);
    assert.equal(top.code, 0);
    for (const c of ['version', 'init', 'list', 'project', 'endpoint'])
      assert.match(top.stdout, new RegExp(`\\n\\s+${c}\\b`));
    const add = await cli(['endpoint', 'add', '--help']);
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
    const create = await cli(['project', 'create', '--help']);
    assert.match(create.stdout, /-p, --port <PORT>.*\n/);
    assert.match(create.stdout, /-d, --description/);
  });

  it('prints bash and zsh completion scripts that know the commands', async (t) => {
    const { cli } = cliSandbox(t);
    const bash = await cli(['completion', 'bash']);
    assert.equal(bash.code, 0);
    assert.match(bash.stdout, /complete -o default -F _mockdev mockdev/);
    assert.match(bash.stdout, /"endpoint add"\) words="[^"]*--content-type/);
    assert.match((await cli(['completion', 'zsh'])).stdout, /#compdef mockdev/);
    assertError(await cli(['completion', 'fish']), 2, /Unsupported shell "fish"/);
  });

  it('unknown commands and options exit 2 with a pointer to --help', async (t) => {
    const { cli } = cliSandbox(t);
    assertError(await cli(['frobnicate']), 2, /unknown command 'frobnicate'.*mockdev --help/);
    assertError(
      await cli(['project', 'create', 'x', '--bogus']),
      2,
      /unknown option '--bogus'.*mockdev project create --help/,
    );
    assertError(await cli(['project', 'create']), 2, /missing required argument 'NAME'/);
    assertError(await cli(['project', 'show', 'a', 'b']), 2, /too many arguments/);
  });

  it('an invalid MOCKDEV_LOG_LEVEL exits 2; a valid one is accepted', async (t) => {
    const { cli } = cliSandbox(t);
    const bad = await cli(['version'], { env: { MOCKDEV_LOG_LEVEL: 'loud' } });
    assertError(bad, 2, /Invalid MOCKDEV_LOG_LEVEL "loud": must be one of error, warn, info, debug, trace/);
    for (const level of ['error', 'warn', 'info', 'debug', 'trace']) {
      assert.equal((await cli(['version'], { env: { MOCKDEV_LOG_LEVEL: level } })).code, 0);
    }
  });
});

describe('mockdev init', () => {
  it('writes project.json and endpoints.json with the example endpoints', async (t) => {
    const { cli, dir } = cliSandbox(t);
    const r = await cli(['init', 'shop', '--with-examples', '--json']);
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
    const project = JSON.parse(readFileSync(join(dir, 'shop', 'project.json'), 'utf8'));
    assert.equal(project.schemaVersion, 1);
    assert.equal(JSON.parse(readFileSync(join(dir, 'shop', 'endpoints.json'), 'utf8')).length, 4);
  });

  it('uses -n and -p, defaults to the current folder and an empty endpoint list', async (t) => {
    const { cli, dir } = cliSandbox(t);
    const here = join(dir, 'here');
    const shop = join(dir, 'shop');
    assert.equal((await cli(['init', shop])).code, 0);
    await cli(['init', here, '-n', 'Named', '-p', '4555']);
    const r = json<{ name: string; port: number; endpointCount: number }>(
      await cli(['project', 'show', here, '--json']),
    );
    assert.deepEqual([r.name, r.port, r.endpointCount], ['Named', 4555, 0]);
    const inCwd = await cli(['init', '--json'], { cwd: shop });
    assert.equal(inCwd.code, 1);
    assert.match(inCwd.stderr, /already exists\. Pass --force/);
  });

  it('--force overwrites, without it the files are untouched', async (t) => {
    const { cli, dir } = cliSandbox(t);
    assert.equal((await cli(['init', 'shop', '--with-examples'])).code, 0);
    const file = join(dir, 'shop', 'project.json');
    const before = readFileSync(file, 'utf8');
    assertError(
      await cli(['init', 'shop']),
      1,
      /project\.json already exists\. Pass --force to overwrite it/,
    );
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal((await cli(['init', 'shop', '--force', '-n', 'shop2'])).code, 0);
    assert.match(readFileSync(file, 'utf8'), /"name": "shop2"/);
  });

  it("picks the next port no project uses, as project create does; --force keeps the folder's port", async (t) => {
    const { cli } = cliSandbox(t);
    const port = async (args: string[]) => {
      const r = await cli([...args, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return json<{ port: number }>(r).port;
    };
    assert.equal(await port(['init', 'one']), 3001);
    assert.equal(
      await port(['init', 'two', '--with-examples']),
      3002,
      'a second folder, served beside the first',
    );
    assert.equal(await port(['project', 'create', 'Third']), 3003);
    assert.equal(await port(['init', 'four']), 3004);
    assert.equal(await port(['init', 'two', '--force']), 3002, 'the folder keeps its port when made again');
    assert.equal(await port(['init', 'five', '-p', '3001']), 3001, 'a given port is kept');
    assert.equal((await cli(['settings', 'update', '--default-port', '5000', '--ui-port', '5001'])).code, 0);
    assert.equal(await port(['init', 'six']), 5000);
    assert.equal(await port(['init', 'seven']), 5002, "the web UI's port is skipped");
  });

  it('refuses a path that is a file, or goes through one, with exit 2 and leaves the file as it was', async (t) => {
    const { cli, dir } = cliSandbox(t);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    for (const path of ['notes.txt', 'notes.txt/api']) {
      const r = await cli(['init', path]);
      assertError(
        r,
        2,
        /notes\.txt(\/api)? is not a folder: it or a folder above it is a file\. Give the path of a folder/,
      );
      assert.doesNotMatch(r.stderr, /ENOTDIR|lock/);
    }
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'mine\n');
  });

  for (const port of ['80', '1023', '65536', 'abc', '3001.5']) {
    it(`rejects port ${port} with exit 2 and writes nothing`, async (t) => {
      const { cli, dir } = cliSandbox(t);
      assertError(await cli(['init', `p${port}`, '-p', port]), 2, /Invalid (port|--port)/);
      assert.equal(existsSync(join(dir, `p${port}`, 'project.json')), false);
    });
  }
});

describe('mockdev project', () => {
  it('new projects (created or imported) each get the next free port', async (t) => {
    const { cli } = cliSandbox(t);
    const petstore = new URL('../fixtures/openapi/petstore-3.0.yaml', import.meta.url).pathname;
    const port = async (args: string[]) => {
      const r = await cli([...args, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const out = json<{ port?: number; project?: { port: number } }>(r);
      return out.project?.port ?? out.port;
    };
    assert.equal(await port(['import', petstore]), 3001);
    assert.equal(await port(['import', petstore]), 3002, 'a second import of one document');
    assert.equal(await port(['project', 'create', 'Third']), 3003);
    assert.equal(await port(['project', 'create', 'Given', '-p', '3001']), 3001, 'a given port is kept');
  });

  it('show prints the folder of a folder project and the API version of an imported one', async (t) => {
    const { cli, dir } = cliSandbox(t);
    assert.equal((await cli(['init', 'here', '-n', 'Here'])).code, 0);
    const folder = await cli(['project', 'show', 'Here']);
    assert.equal(folder.code, 0, folder.stderr);
    assert.match(
      folder.stdout,
      new RegExp(`^folder: +${join(dir, 'here').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    );
    assert.equal(
      json<{ dir?: string }>(await cli(['project', 'show', 'Here', '--json'])).dir,
      join(dir, 'here'),
    );
    const petstore = new URL('../fixtures/openapi/petstore-3.0.yaml', import.meta.url).pathname;
    const imported = json<{ project: { id: string; apiVersion?: string } }>(
      await cli(['import', petstore, '--json']),
    );
    assert.ok(imported.project.apiVersion, 'the fixture has an info.version');
    const shown = await cli(['project', 'show', imported.project.id]);
    assert.match(shown.stdout, new RegExp(`^api version: +${imported.project.apiVersion}$`, 'm'));
    assert.doesNotMatch(shown.stdout, /^folder:/m, 'a data-directory project has no folder line');
  });

  it('create -> list -> show -> update -> delete, with --json shapes of DECISIONS', async (t) => {
    const { cli } = cliSandbox(t);
    const created = json<Record<string, unknown>>(
      await cli(['project', 'create', 'Payments', '-p', '4000', '-d', 'Cards API', '--json']),
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

    const text = await cli(['project', 'create', 'Orders']);
    assert.match(text.stdout, /Created project "Orders" \(id [A-Za-z0-9_-]+, port 3001\)/);

    const listed = json<{ name: string }[]>(await cli(['project', 'list', '--json']));
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
    assert.deepEqual(json<unknown[]>(await cli(['list', '--json'])), listed);
    assert.deepEqual(json<unknown[]>(await cli(['list', 'projects', '--json'])), listed);
    assert.match(
      (await cli(['project', 'list'])).stdout,
      /^ID\s+NAME\s+PORT\s+ENDPOINTS\s+DESCRIPTION\n.*Payments\s+4000\s+0\s+Cards API/,
    );

    const byId = json<{ name: string }>(await cli(['project', 'show', String(created.id), '--json']));
    assert.equal(byId.name, 'Payments');
    assert.match((await cli(['project', 'show', 'payments'])).stdout, /name:\s+Payments/);

    const updated = json<{ name: string; port: number; description: string }>(
      await cli([
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
      ]),
    );
    assert.deepEqual([updated.name, updated.port, updated.description], ['Billing', 4100, 'Invoices']);
    assertError(await cli(['project', 'update', 'Billing']), 2, /Nothing to update/);
    assertError(
      await cli(['project', 'update', 'Billing', '--new-name', 'orders']),
      1,
      /"Orders" already exists/,
    );
    assertError(await cli(['project', 'update', 'Billing', '-p', '99']), 2, /Invalid port 99/);

    assertError(
      await cli(['project', 'delete', 'Billing']),
      2,
      /refusing without confirmation\. Pass --force/,
    );
    assert.equal(json<unknown[]>(await cli(['project', 'list', '--json'])).length, 2);
    const deleted = await cli(['project', 'delete', 'Billing', '--force']);
    assert.match(deleted.stdout, /Deleted project "Billing"/);
    assert.deepEqual(
      json<{ name: string }[]>(await cli(['project', 'list', '--json'])).map((p) => p.name),
      ['Orders'],
    );
  });

  it('delete asks on a terminal: "n" keeps the project, "y" deletes it', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'Asked'])).code, 0);
    const no = await cli(['project', 'delete', 'Asked'], { tty: true, input: 'n\n' });
    assert.equal(no.code, 0, no.stderr);
    assert.match(no.stderr, /Delete project "Asked", its 0 endpoint\(s\) and its request log\? \[y\/N\]/);
    assert.match(no.stderr, /Cancelled; nothing was deleted\./);
    assert.equal(json<unknown[]>(await cli(['project', 'list', '--json'])).length, 1);
    const yes = await cli(['project', 'delete', 'Asked'], { tty: true, input: 'y\n' });
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stdout, /^Deleted project "Asked"/);
    assert.deepEqual(json<unknown[]>(await cli(['project', 'list', '--json'])), []);
  });

  it('unknown projects exit 3 for every command that takes one', async (t) => {
    const { cli } = cliSandbox(t);
    for (const args of [
      ['project', 'show', 'nope'],
      ['project', 'update', 'nope', '-d', 'x'],
      ['project', 'delete', 'nope', '-f'],
      ['endpoint', 'list', 'nope'],
      ['endpoint', 'add', 'nope', '-p', '/x'],
      ['list', 'endpoints', 'nope'],
    ]) {
      assertError(await cli(args), 3, /Project "nope" not found\. Run "mockdev project list"/);
    }
  });

  it('rejects names that could escape the data directory, and duplicates', async (t) => {
    const { cli } = cliSandbox(t);
    for (const name of ['../x', '/etc', 'a\\b', 'nul\u0001x']) {
      assertError(await cli(['project', 'create', name]), 2, /Invalid name/);
    }
    assert.equal((await cli(['project', 'create', 'Orders'])).code, 0);
    assertError(
      await cli(['project', 'create', 'orders']),
      1,
      /A project named "Orders" already exists \(id [A-Za-z0-9_-]+\)/,
    );
  });

  it('a hand-broken project.json is named in the error and left as it is', async (t) => {
    const { cli, dir } = cliSandbox(t);
    const broken = join(dir, 'broken');
    await cli(['init', broken]);
    writeFileSync(join(broken, 'project.json'), '{"name": ');
    const r = await cli(['endpoint', 'add', broken, '-p', '/x']);
    assertError(r, 1, /broken\/project\.json is not valid JSON.*will not overwrite it/);
    assert.equal(readFileSync(join(broken, 'project.json'), 'utf8'), '{"name": ');
  });

  it('a data-dir project with a broken endpoints.json is named by its file (exit 1), asked for by name or id', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    const { id } = json<{ id: string }>(await cli(['project', 'create', 'Fragile', '--json']));
    const file = join(dataDir, 'projects', id, 'endpoints.json');
    writeFileSync(file, '[{"id": ');
    for (const ref of ['Fragile', 'fragile', id]) {
      assertError(await cli(['endpoint', 'list', ref]), 1, /endpoints\.json is not valid JSON/);
      assertError(await cli(['list', 'endpoints', ref]), 1, /endpoints\.json is not valid JSON/);
    }
    assert.equal(readFileSync(file, 'utf8'), '[{"id": ', 'left as it is');
  });

  it('list rejects an unknown resource; with no project outside a project folder it says what to give (exit 2)', async (t) => {
    const { cli, dir } = cliSandbox(t);
    assertError(await cli(['list', 'widgets']), 2, /Unknown resource "widgets"/);
    for (const command of [
      ['list', 'endpoints'],
      ['endpoint', 'list'],
    ]) {
      assertError(
        await cli(command),
        2,
        new RegExp(
          `^mockdev: "${command.join(' ')}" needs a project: none was given, and ${dir} holds no project\\.json\\. Give a project id, name or folder, or run it in a folder that holds project\\.json$`,
          'm',
        ),
      );
    }
  });

  it('list endpoints and endpoint list with no project use the project in the current folder, as serve does', async (t) => {
    const { cli, dir } = cliSandbox(t);
    const folder = join(dir, 'here');
    assert.equal((await cli(['init', folder, '--with-examples'])).code, 0);
    const routes = (r: { code: number | null; stdout: string; stderr: string }) => {
      assert.equal(r.code, 0, r.stderr);
      return json<{ method: string; path: string }[]>(r).map((e) => `${e.method} ${e.path}`);
    };
    const examples = ['GET /api/users', 'GET /api/users/:id', 'POST /api/users', 'GET /health'];
    assert.deepEqual(routes(await cli(['list', 'endpoints', '--json'], { cwd: folder })), examples);
    assert.deepEqual(routes(await cli(['endpoint', 'list', '--json'], { cwd: folder })), examples);
    assert.match(
      (await cli(['list', 'endpoints'], { cwd: folder })).stdout,
      /^ID\s+METHOD\s+PATH[^\n]*\n(.*\n){3}.*GET\s+\/health/,
    );
    assert.equal((await cli(['endpoint', 'disable', folder, 'GET /health'])).code, 0);
    assert.equal(
      routes(await cli(['list', 'endpoints', '--enabled-only', '--json'], { cwd: folder })).length,
      3,
    );
  });
});

describe('the built binary (spawned): version, init, project and list', () => {
  it('version exits 0; an unknown command and a bad MOCKDEV_LOG_LEVEL exit 2 with one line', async (t) => {
    const { spawn } = cliSandbox(t);
    const version = await spawn(['version']);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(
      version.stdout,
      `mockdev ${packageVersion()} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`,
    );
    assert.equal(version.stderr, '');
    assertError(await spawn(['frobnicate']), 2, /^mockdev: unknown command 'frobnicate'.*mockdev --help/);
    assertError(
      await spawn(['version'], { env: { MOCKDEV_LOG_LEVEL: 'loud' } }),
      2,
      /^mockdev: Invalid MOCKDEV_LOG_LEVEL "loud"/,
    );
  });

  it('init and project create exit 0; a bad port (2), a taken name (1), an unknown project (3), a refused delete (2)', async (t) => {
    const { spawn, dir, dataDir } = cliSandbox(t);
    const init = await spawn(['init', 'shop', '--json']);
    assert.equal(init.code, 0, init.stderr);
    assert.equal(json<{ dir: string }>(init).dir, join(dir, 'shop'));
    assertError(await spawn(['init', 'low', '-p', '80']), 2, /^mockdev: Invalid port 80/);
    const created = await spawn(['project', 'create', 'Orders']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^Created project "Orders"/);
    assert.ok(existsSync(join(dataDir, 'projects')), 'MOCKDEV_DATA_DIR is the data dir');
    assertError(
      await spawn(['project', 'create', 'orders']),
      1,
      /^mockdev: A project named "Orders" already exists/,
    );
    assertError(await spawn(['list', 'endpoints', 'nope']), 3, /^mockdev: Project "nope" not found/);
    assertError(await spawn(['project', 'delete', 'Orders']), 2, /refusing without confirmation/);
  });
});
