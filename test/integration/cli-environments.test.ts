/**
 * `environment list | create | show | update | delete | activate | duplicate` (Pro): keys
 * signed by the test's own pair; secrets masked everywhere except `show --reveal`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json, type CliResult } from '../helpers/cli.js';
import { proSandbox, startProServer } from '../helpers/pro.js';

interface View {
  id: string;
  name: string;
  scope: string;
  projectId: string | null;
  variables: Record<string, string>;
  secretKeys: string[];
  active?: boolean;
}

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

describe('environment', () => {
  it('refuses every command without a Pro license (exit 1, the gate message)', async (t) => {
    const { cli } = await proSandbox(t, { activate: false });
    ok(await cli(['project', 'create', 'shop']));
    for (const args of [
      ['list', 'shop'],
      ['create', '-n', 'dev', '--var', 'A=1'],
      ['show', 'dev'],
      ['update', 'dev', '-n', 'x'],
      ['delete', 'dev', '-f'],
      ['activate', 'shop', 'dev'],
      ['activate', 'shop'],
      ['duplicate', 'dev'],
    ])
      assertCliError(
        await cli(['environment', ...args]),
        1,
        /^mockdev: "environment" needs a Pro license, and no license is activated\. .*mockdev license activate <KEY>/,
      );
  });

  it('creates global and project environments, lists them marked, shows secrets masked unless --reveal', async (t) => {
    const { cli, dataDir } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    const created = ok(
      await cli([
        'environment',
        'create',
        '-n',
        'dev',
        '-p',
        'shop',
        '--var',
        'API_URL=http://h/?a=1\\,b=2,USER=ann',
        '--var',
        'EMPTY=',
        '--secret',
        'TOKEN=tok-123=xyz',
      ]),
    );
    assert.match(
      created.stdout,
      /^Created environment "dev" \(id \S+, project \S+\) with 4 variables \(1 secret\)\.\n$/,
    );
    const global = json<View>(
      ok(
        await cli([
          'environment',
          'create',
          '-n',
          'shared',
          '--var',
          'REGION=eu,PASS=p4ss',
          '--secret',
          'PASS',
          '--json',
        ]),
      ),
    );
    assert.equal(global.scope, 'global');
    assert.equal(global.projectId, null);
    assert.deepEqual(global.variables, { REGION: 'eu', PASS: '********' });

    const shown = json<View>(ok(await cli(['environment', 'show', 'dev', '--json'])));
    assert.deepEqual(shown.variables, {
      API_URL: 'http://h/?a=1,b=2',
      USER: 'ann',
      EMPTY: '',
      TOKEN: '********',
    });
    assert.deepEqual(shown.secretKeys, ['TOKEN']);
    const text = ok(await cli(['environment', 'show', 'dev']));
    assert.match(text.stdout, /Name:\s+dev/);
    assert.match(text.stdout, / {2}TOKEN=\*{8} {2}\(secret\)/);
    const revealed = json<View>(ok(await cli(['environment', 'show', shown.id, '--reveal', '--json'])));
    assert.equal(revealed.variables.TOKEN, 'tok-123=xyz');
    assert.match(
      ok(await cli(['environment', 'show', 'shared', '--reveal'])).stdout,
      / {2}PASS=p4ss {2}\(secret\)/,
    );

    const list = ok(await cli(['environment', 'list', 'shop']));
    assert.match(list.stdout, /ACTIVE\s+NAME\s+ID\s+SCOPE/);
    assert.match(list.stdout, /dev\s+\S+\s+project\s+4\s+1/);
    assert.match(list.stdout, /shared\s+\S+\s+global\s+2\s+1/);
    const listed = json<View[]>(ok(await cli(['environment', 'list', 'shop', '--json'])));
    assert.ok(Array.isArray(listed), 'a list command prints a JSON array');
    const shopId = listed[0]!.projectId;
    assert.deepEqual(
      listed.map((e) => [e.name, e.scope, e.projectId, e.active]),
      [
        ['dev', 'project', shopId, false],
        ['shared', 'global', null, false],
      ],
    );
    assert.match(shopId ?? '', /\S/, 'a project environment names its project');
    for (const r of [created, text, list])
      assert.ok(!r.stdout.includes('tok-123') && !r.stdout.includes('p4ss'));
    assert.ok(!JSON.stringify(listed).includes('tok-123'));

    // On disk: the secrets apart, readable by the user only.
    const dir = join(dataDir, 'environments');
    const plainText = readFileSync(join(dir, `${shown.id}.json`), 'utf8');
    assert.ok(!plainText.includes('tok-123'));
    assert.equal(statSync(join(dir, `${shown.id}.secrets.json`)).mode & 0o777, 0o600);
    assert.ok(readdirSync(dir).includes('active.json') === false);
  });

  it('refuses bad input with exit 2, an unknown project with 3, an unknown environment with 1', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    assertCliError(
      await cli(['environment', 'create', '--var', 'A=1']),
      2,
      /An environment name is required\. Give one with -n, --name, e\.g\. dev$/m,
    );
    for (const [name, rule] of [
      ['a\tb', /Invalid name "a\\tb": must not contain control characters/],
      ['a/b', /Invalid name "a\/b": must not contain "\/" or "\\"/],
      ['e'.repeat(201), /Invalid name "e+\.\.\.: must be at most 200 characters/],
    ] as const) {
      assertCliError(await cli(['environment', 'create', '-n', name]), 2, rule);
    }
    assertCliError(
      await cli(['environment', 'create', '-n', 'x', '--var', '1BAD=v']),
      2,
      /Invalid variable key "1BAD": a key starts with a letter or _/,
    );
    assertCliError(
      await cli(['environment', 'create', '-n', 'x', '--var', 'NOVALUE']),
      2,
      /Invalid --var "NOVALUE": expected KEY=VALUE/,
    );
    assertCliError(
      await cli(['environment', 'create', '-n', 'x', '--secret', 'S']),
      2,
      /Secret "S" has no value/,
    );
    assertCliError(
      await cli(['environment', 'create', '-n', 'x', '-p', 'nope']),
      3,
      /Project "nope" not found/,
    );
    assertCliError(await cli(['environment', 'list', 'nope']), 3, /Project "nope" not found/);
    assertCliError(await cli(['environment', 'activate', 'nope', 'x']), 3, /Project "nope" not found/);
    for (const args of [
      ['show', 'ghost'],
      ['update', 'ghost', '-n', 'x'],
      ['delete', 'ghost', '-f'],
      ['duplicate', 'ghost'],
      ['activate', 'shop', 'ghost'],
    ])
      assertCliError(await cli(['environment', ...args]), 1, /Environment "ghost" not found/);
    ok(await cli(['environment', 'create', '-n', 'dev', '-p', 'shop']));
    assertCliError(
      await cli(['environment', 'create', '-n', 'DEV', '-p', 'shop']),
      1,
      /already has an environment named "dev"/,
    );
    assertCliError(await cli(['environment', 'update', 'dev']), 2, /Nothing to update/);
    assertCliError(await cli(['environment', 'update', 'dev', '--unset', 'NOPE']), 2, /Cannot unset "NOPE"/);
  });

  it('updates names, variables and secrets; --unset first makes a secret plain', async (t) => {
    const { cli } = await proSandbox(t);
    const env = json<View>(
      ok(await cli(['environment', 'create', '-n', 'g', '--var', 'A=1,B=2', '--secret', 'S=sss', '--json'])),
    );
    const r = ok(
      await cli([
        'environment',
        'update',
        'g',
        '-n',
        'g2',
        '--var',
        'A=10',
        '--secret',
        'B',
        '--secret',
        'T=t\\,t',
      ]),
    );
    assert.match(r.stdout, /^Updated environment "g2" \(id \S+\): 4 variables \(3 secrets\)\.\n$/);
    assert.ok(!r.stdout.includes('sss'));
    let shown = json<View>(ok(await cli(['environment', 'show', env.id, '--reveal', '--json'])));
    assert.equal(shown.name, 'g2');
    assert.deepEqual(shown.variables, { A: '10', B: '2', S: 'sss', T: 't,t' });
    assert.deepEqual(shown.secretKeys.sort(), ['B', 'S', 'T']);
    const updated = json<View>(
      ok(
        await cli([
          'environment',
          'update',
          'g2',
          '--unset',
          'S,A',
          '--unset',
          'B',
          '--var',
          'B=plain',
          '--json',
        ]),
      ),
    );
    assert.deepEqual(updated.variables, { B: 'plain', T: '********' });
    shown = json<View>(ok(await cli(['environment', 'show', 'g2', '--json'])));
    assert.deepEqual(shown.secretKeys, ['T']);
  });

  it('activates one project environment and one global one; ENV omitted deactivates', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    ok(await cli(['project', 'create', 'other', '-p', '3999']));
    ok(await cli(['environment', 'create', '-n', 'dev', '-p', 'shop']));
    ok(await cli(['environment', 'create', '-n', 'prod', '-p', 'shop']));
    ok(await cli(['environment', 'create', '-n', 'theirs', '-p', 'other']));
    const g = json<View>(ok(await cli(['environment', 'create', '-n', 'shared', '--json'])));
    assert.match(
      ok(await cli(['environment', 'activate', 'shop', 'dev'])).stdout,
      /^Active for "shop": "dev" \(\S+, the project's\)\.\n$/,
    );
    assert.match(
      ok(await cli(['environment', 'activate', 'shop', g.id])).stdout,
      /^Active for "shop": "dev" \(\S+, the project's\) over "shared" \(\S+, global\)\.\n$/,
    );
    ok(await cli(['environment', 'activate', 'shop', 'prod']));
    const listed = json<View[]>(ok(await cli(['environment', 'list', 'shop', '--json'])));
    assert.deepEqual(
      listed.filter((e) => e.active).map((e) => e.name),
      ['prod', 'shared'],
    );
    assert.match(ok(await cli(['environment', 'list', 'shop'])).stdout, /\*\s+prod/);
    assertCliError(
      await cli(['environment', 'activate', 'shop', 'theirs']),
      1,
      /Environment "theirs" not found among the environments of "shop"/,
    );
    const theirs = json<View[]>(ok(await cli(['environment', 'list', 'other', '--json'])))[0]!;
    assertCliError(await cli(['environment', 'activate', 'shop', theirs.id]), 1, /not found/);
    assert.match(
      ok(await cli(['environment', 'activate', 'shop'])).stdout,
      /^No environment is active for "shop" now\.\n$/,
    );
    const after = json<View[]>(ok(await cli(['environment', 'list', 'shop', '--json'])));
    assert.deepEqual(
      after.filter((e) => e.active),
      [],
    );
  });

  it('duplicates (secrets included), deletes with confirmation, and goes with its project', async (t) => {
    const { cli, dataDir } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    ok(await cli(['environment', 'create', '-n', 'dev', '-p', 'shop', '--secret', 'K=v']));
    assert.match(
      ok(await cli(['environment', 'duplicate', 'dev'])).stdout,
      /^Duplicated as "dev copy" \(id \S+, project \S+\) with 1 variable \(1 secret\)\.\n$/,
    );
    const staged = json<View>(ok(await cli(['environment', 'duplicate', 'dev', '-n', 'staging', '--json'])));
    assert.deepEqual(staged.variables, { K: '********' });
    assert.equal(
      json<View>(ok(await cli(['environment', 'show', 'staging', '--reveal', '--json']))).variables.K,
      'v',
    );
    assertCliError(
      await cli(['environment', 'duplicate', 'dev', '-n', 'staging']),
      1,
      /already has an environment named "staging"/,
    );

    assertCliError(
      await cli(['environment', 'delete', 'staging']),
      2,
      /refusing without confirmation\. Pass --force/,
    );
    const asked = await cli(['environment', 'delete', 'staging'], { tty: true, input: 'n\n' });
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stderr, /Nothing deleted/);
    assert.match(
      ok(await cli(['environment', 'delete', 'staging', '-f'])).stdout,
      /^Deleted environment "staging" \(id \S+\)\.\n$/,
    );
    ok(await cli(['settings', 'update', '--confirm-before-delete', 'false']));
    ok(await cli(['environment', 'delete', 'dev copy']));

    ok(await cli(['environment', 'activate', 'shop', 'dev']));
    ok(await cli(['project', 'delete', 'shop', '-f']));
    assert.deepEqual(
      readdirSync(join(dataDir, 'environments')).filter((n) => !n.startsWith('.')),
      ['active.json'],
    );
    assert.deepEqual(JSON.parse(readFileSync(join(dataDir, 'environments', 'active.json'), 'utf8')), {
      projects: {},
    });
  });

  it('never prints a secret without --reveal: not at trace level, not in an export', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    ok(await cli(['endpoint', 'add', 'shop', '-p', '/x', '-b', '{}']));
    const trace = { env: { MOCKDEV_LOG_LEVEL: 'trace' } };
    const runs = [
      await cli(['environment', 'create', '-n', 'dev', '-p', 'shop', '--secret', 'TOKEN=leak-me-not'], trace),
      await cli(['environment', 'update', 'dev', '--secret', 'OTHER=leak-me-not-2'], trace),
      await cli(['environment', 'show', 'dev'], trace),
      await cli(['environment', 'show', 'dev', '--json'], trace),
      await cli(['environment', 'list', 'shop', '--json'], trace),
      await cli(['environment', 'activate', 'shop', 'dev'], trace),
      await cli(['environment', 'duplicate', 'dev', '--json'], trace),
      await cli(['export', 'shop'], trace),
      await cli(['environment', 'create', '-n', 'dev', '-p', 'shop', '--secret', 'TOKEN=leak-me-not'], trace),
    ];
    for (const r of runs) {
      assert.ok(!`${r.stdout}${r.stderr}`.includes('leak-me-not'), `${r.stdout}\n${r.stderr}`);
    }
    assert.equal(runs.at(-1)!.code, 1);
  });

  it('works from the built binary (spawned)', async (t) => {
    const { spawn } = await proSandbox(t);
    ok(await spawn(['environment', 'create', '-n', 'bin', '--secret', 'K=spawned']));
    const r = ok(await spawn(['environment', 'show', 'bin', '--reveal']));
    assert.match(r.stdout, / {2}K=spawned {2}\(secret\)/);
  });
});

describe('environment secrets and the request log', () => {
  it('a served project with an active secret logs no secret, even one a template sends (log, show, requests.db)', async (t) => {
    const { makeProject, waitUntil } = await import('../helpers/server.js');
    const sandbox = await proSandbox(t);
    const { cli, dataDir } = sandbox;
    await makeProject(dataDir, 'served', [
      {
        path: '/x',
        body: '{"token":"{{env.TOKEN}}","host":"{{env.HOST}}"}',
        headers: { 'X-Token': 'Bearer {{env.TOKEN}}' },
      },
    ]);
    ok(
      await cli([
        'environment',
        'create',
        '-n',
        'dev',
        '-p',
        'served',
        '--var',
        'HOST=api.test',
        '--secret',
        'TOKEN=never-logged-42',
      ]),
    );
    ok(await cli(['environment', 'activate', 'served', 'dev']));
    const { server } = await startProServer(sandbox, 'served');
    const res = await fetch(`${server.url}/x`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-token'), 'Bearer never-logged-42', 'the client gets what was rendered');
    assert.deepEqual(await res.json(), { token: 'never-logged-42', host: 'api.test' });
    const list = async () => json<{ id: string }[]>(ok(await cli(['requests', 'list', 'served', '--json'])));
    await waitUntil(async () => (await list()).length === 1, 'the request in the log');
    const shown = ok(await cli(['requests', 'show', (await list())[0]!.id, '--json']));
    assert.ok(!shown.stdout.includes('never-logged-42'));
    const record = json<{ response: { body: string; headers: Record<string, string> } }>(shown);
    assert.equal(record.response.body, '{"token":"********","host":"api.test"}');
    assert.equal(record.response.headers['X-Token'], 'Bearer ********');
    // An environment change reaches the running server without a restart.
    ok(await cli(['environment', 'update', 'dev', '--var', 'HOST=api2.test']));
    await waitUntil(async () => {
      const again = await fetch(`${server.url}/x`, { signal: AbortSignal.timeout(10_000) });
      return ((await again.json()) as { host: string }).host === 'api2.test';
    }, 'the new HOST served');
    for (const name of readdirSync(dataDir).filter(
      (n) => n.startsWith('requests') && statSync(join(dataDir, n)).isFile(),
    ))
      assert.ok(!readFileSync(join(dataDir, name)).includes('never-logged-42'), name);
  });
});

describe('README environment examples', () => {
  it('run as written, in order', async (t) => {
    const { execFileSync } = await import('node:child_process');
    const { ROOT } = await import('../helpers/cli.js');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
      .flatMap((m) => m[1]!.split('\n'))
      .filter((l) => l.startsWith('mockdev environment '));
    assert.ok(lines.length >= 13, `found ${lines.length}`);
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'Payments'])); // the README's project
    for (const line of lines) {
      const out = execFileSync(
        '/bin/sh',
        ['-c', `mockdev() { printf '%s\\0' "$@"; }\n${line.replace(/#.*$/, '')}`],
        {
          encoding: 'utf8',
          timeout: 10_000,
        },
      );
      const r = await cli(out.split('\0').slice(0, -1));
      assert.equal(r.code, 0, `${line}\n${r.stderr}`);
    }
    const shared = json<View>(ok(await cli(['environment', 'show', 'shared', '--reveal', '--json'])));
    assert.deepEqual(shared.variables, { GREETING: 'hello, world', TOKEN: 'n3w', API_KEY: 'k3y' });
  });
});
