/**
 * `mockdev endpoint`: every case in-process, each test with its own data dir and project set up
 * in-process; spawned runs of the built binary prove the real wiring, concurrent processes and a
 * reader closing the pipe early.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { CLI, assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook, type CliSandbox } from '../helpers/cli-inprocess.js';

const assertError = assertCliError;

/** `endpoint add api …` options of the endpoints tests start from. */
const CREATE_ORDER = [
  '-n',
  'Create order',
  '-p',
  '/api/orders',
  '-m',
  'post',
  '-s',
  '201',
  '-b',
  '{"id":7}',
  '--delay',
  '250',
  '--content-type',
  'application/vnd.api+json',
  '-H',
  'Location: /api/orders/7',
  '-H',
  'X-Trace=abc',
];
const USER_BY_ID = ['-p', '/api/users/:id'];
const QUEUE_ORDER = ['-n', 'Queue order', '-p', '/api/queue', '-m', 'PUT', '-s', '202'];

/** A sandbox with project "api" holding the given endpoints (`endpoint add api <options>`). */
async function apiProject(t: AfterHook, ...endpoints: string[][]): Promise<CliSandbox> {
  const sandbox = cliSandbox(t);
  const created = await sandbox.cli(['project', 'create', 'api']);
  assert.equal(created.code, 0, created.stderr);
  for (const options of endpoints) {
    const added = await sandbox.cli(['endpoint', 'add', 'api', ...options]);
    assert.equal(added.code, 0, added.stderr);
  }
  return sandbox;
}

describe('mockdev endpoint', () => {
  it('add with every option, then show it as JSON with the DECISIONS shape', async (t) => {
    const { cli, dir } = await apiProject(t);
    writeFileSync(join(dir, 'body.csv'), 'a,b\n1,2\n');
    const r = await cli(['endpoint', 'add', 'api', ...CREATE_ORDER, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const e = json<Endpoint>(r);
    assert.deepEqual(Object.keys(e), [
      'id',
      'name',
      'method',
      'path',
      'status',
      'headers',
      'body',
      'contentType',
      'delay',
      'enabled',
      'kind',
      'variations',
    ]);
    assert.deepEqual(
      { ...e, id: undefined },
      {
        id: undefined,
        name: 'Create order',
        method: 'POST',
        path: '/api/orders',
        status: 201,
        headers: { Location: '/api/orders/7', 'X-Trace': 'abc' },
        body: '{"id":7}',
        contentType: 'application/vnd.api+json',
        delay: 250,
        enabled: true,
        kind: 'mock',
        variations: [],
      },
    );
    const csv = json<Endpoint>(
      await cli([
        'endpoint',
        'add',
        'api',
        '-p',
        '/report.csv',
        '--content-type',
        'text/csv',
        '--body-file',
        'body.csv',
        '--json',
      ]),
    );
    assert.equal(csv.body, 'a,b\n1,2\n');
    assert.equal(csv.name, 'get-report-csv');
    assert.deepEqual(json(await cli(['endpoint', 'show', 'api', e.id, '--json'])), e);
    assert.deepEqual(json(await cli(['endpoint', 'show', 'api', 'POST /api/orders', '--json'])), e);
  });

  it('add uses the defaults of DECISIONS and prints a summary line', async (t) => {
    const { cli } = await apiProject(t, CREATE_ORDER);
    const r = await cli(['endpoint', 'add', 'api', '-p', '/api/users/:id']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Added GET \/api\/users\/:id -> 200 as "get-users-by-id" \(id [A-Za-z0-9_-]+\)\n$/,
    );
    const e = json<Endpoint>(await cli(['endpoint', 'show', 'api', 'get-users-by-id', '--json']));
    assert.deepEqual(
      [e.method, e.status, e.delay, e.enabled, e.kind, e.contentType, e.body],
      ['GET', 200, 0, true, 'mock', 'application/json', ''],
    );
    const human = await cli(['endpoint', 'show', 'api', 'Create order']);
    assert.match(human.stdout, /method:\s+POST/);
    assert.match(human.stdout, /delay:\s+250 ms/);
    assert.match(human.stdout, /headers:\n {2}Location: \/api\/orders\/7/);
    assert.match(human.stdout, /body:\n\{\n {2}"id": 7\n\}/);
  });

  it('refuses bad values with exit 2 and one line naming the value', async (t) => {
    const { cli } = await apiProject(t);
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-m', 'FETCH']),
      2,
      /Invalid method "FETCH": must be one of GET/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-s', '700']),
      2,
      /Invalid status 700: must be from 200 to 599/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-s', '101']),
      2,
      /Invalid status 101: must be from 200 to 599 \(a 1xx status is an interim answer/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/bad', '-H', 'X Evil: a']),
      2,
      /^mockdev: Invalid header name "X Evil": may contain only letters, digits and/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/bad', '-H', 'X-Ok: caf\u00e9 \u2615']),
      2,
      /Invalid value of header "X-Ok" "caf\u00e9 \u2615": must be one line of printable characters/,
    );
    for (const [path, why] of [
      ['/users/{id', /has an unbalanced "\{" or "\}" in "\{id"; write a parameter as \{id\} or :id/],
      ['/users/id}', /has an unbalanced "\{" or "\}"/],
      ['/users/{}', /has an empty parameter "\{\}"/],
      ['/users/:', /has a ":" with no parameter name after it/],
      ['/users/:id/:id', /uses the parameter "id" twice/],
      ['/users/{id}/posts/:id', /uses the parameter "id" twice/],
      [
        '/files/*',
        /must not contain "\*": wildcards are not supported; use a parameter such as \/files\/\{name\}/,
      ],
    ] as const) {
      assertError(
        await cli(['endpoint', 'add', 'api', '-p', path]),
        2,
        new RegExp(`Invalid path "${path.replace(/[{}*]/g, '\\$&')}": ${why.source}`),
      );
    }
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-s', 'ok']),
      2,
      /Invalid --status "ok": must be a whole number/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '--delay', '-5']),
      2,
      /Invalid delay -5: must not be negative/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-H', 'novalue']),
      2,
      /Invalid --header "novalue"/,
    );
    assertError(await cli(['endpoint', 'add', 'api']), 2, /Missing --path/);
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '--body-file', 'missing.txt']),
      2,
      /Cannot read --body-file "missing.txt"/,
    );
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', 'x', '--body-file', 'missing.txt']),
      2,
      /Give either --body or --body-file, not both/,
    );
    assert.deepEqual(json(await cli(['endpoint', 'list', 'api', '--json'])), [], 'nothing added');
  });

  it('refuses a duplicate method + path, naming the existing endpoint', async (t) => {
    const { cli } = await apiProject(t, USER_BY_ID);
    assertError(
      await cli(['endpoint', 'add', 'api', '-p', '/api/users/{userId}']),
      1,
      /GET \/api\/users\/\{userId\} clashes with endpoint "get-users-by-id" \(GET \/api\/users\/:id, id [A-Za-z0-9_-]+\)/,
    );
  });

  it('update changes only the options given', async (t) => {
    const { cli } = await apiProject(t, CREATE_ORDER, USER_BY_ID);
    const before = json<Endpoint>(await cli(['endpoint', 'show', 'api', 'Create order', '--json']));
    const after = json<Endpoint>(
      await cli([
        'endpoint',
        'update',
        'api',
        'Create order',
        '-s',
        '202',
        '-b',
        '{"queued":true}',
        '--json',
      ]),
    );
    assert.deepEqual(after, { ...before, status: 202, body: '{"queued":true}' });
    const renamed = json<Endpoint>(
      await cli([
        'endpoint',
        'update',
        'api',
        before.id,
        '-n',
        'Queue order',
        '-p',
        '/api/queue',
        '-m',
        'PUT',
        '--delay',
        '0',
        '--content-type',
        'application/json',
        '-H',
        'X-New: 1',
        '--json',
      ]),
    );
    assert.deepEqual(
      [renamed.name, renamed.path, renamed.method, renamed.delay, renamed.headers],
      ['Queue order', '/api/queue', 'PUT', 0, { Location: '/api/orders/7', 'X-Trace': 'abc', 'X-New': '1' }],
      '-H adds a header and keeps the others',
    );
    assertError(
      await cli(['endpoint', 'update', 'api', before.id]),
      2,
      /Nothing to update\. Pass at least one option, e\.g\. -s 404 .*mockdev endpoint update --help/,
    );
    assertError(
      await cli(['endpoint', 'update', 'api', 'nope', '-s', '200']),
      1,
      /Endpoint "nope" not found in project "api"/,
    );
    assertError(
      await cli(['endpoint', 'update', 'api', before.id, '-p', '/api/users/:x', '-m', 'GET']),
      1,
      /clashes with endpoint "get-users-by-id"/,
    );
  });

  it('update -H adds or replaces one header; --remove-header removes one', async (t) => {
    const { cli } = await apiProject(t, CREATE_ORDER);
    const update = async (...args: string[]) => {
      const r = await cli(['endpoint', 'update', 'api', 'Create order', ...args, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return json<Endpoint>(r).headers;
    };
    assert.deepEqual(
      await update('-H', 'location: /api/orders/8'),
      {
        location: '/api/orders/8',
        'X-Trace': 'abc',
      },
      'replaced in place whatever the case, as the name is given now',
    );
    assert.deepEqual(await update('--remove-header', 'x-trace', '-H', 'Cache-Control: no-store'), {
      location: '/api/orders/8',
      'Cache-Control': 'no-store',
    });
    assertError(
      await cli(['endpoint', 'update', 'api', 'Create order', '--remove-header', 'X-Gone']),
      2,
      /Endpoint "Create order" has no header "X-Gone" to remove\. Its headers: location, Cache-Control/,
    );
    assertError(
      await cli(['endpoint', 'update', 'api', 'Create order', '-H', 'A: 1', '--remove-header', 'a']),
      2,
      /Header "a" is both set \(-H\) and removed \(--remove-header\)/,
    );
    assertError(
      await cli(['endpoint', 'update', 'api', 'Create order', '-H', 'Bad Name: 1']),
      2,
      /Invalid header name "Bad Name"/,
    );
    const shown = json<Endpoint>(await cli(['endpoint', 'show', 'api', 'Create order', '--json']));
    assert.deepEqual(
      shown.headers,
      { location: '/api/orders/8', 'Cache-Control': 'no-store' },
      'refusals changed nothing',
    );
  });

  it('disable / enable toggle, list --enabled-only hides disabled ones', async (t) => {
    const { cli } = await apiProject(t, USER_BY_ID, QUEUE_ORDER);
    const d = await cli(['endpoint', 'disable', 'api', 'Queue order']);
    assert.match(d.stdout, /Disabled PUT \/api\/queue "Queue order"/);
    const enabledOnly = json<Endpoint[]>(await cli(['endpoint', 'list', 'api', '--enabled-only', '--json']));
    assert.ok(!enabledOnly.some((e) => e.name === 'Queue order'));
    assert.deepEqual(
      enabledOnly.map((e) => e.name),
      ['get-users-by-id'],
    );
    const all = json<Endpoint[]>(await cli(['endpoint', 'list', 'api', '--json']));
    assert.equal(all.find((e) => e.name === 'Queue order')?.enabled, false);
    assert.deepEqual(json(await cli(['list', 'endpoints', 'api', '--enabled-only', '--json'])), enabledOnly);
    assert.equal(
      json<Endpoint>(await cli(['endpoint', 'enable', 'api', 'Queue order', '--json'])).enabled,
      true,
    );
    const table = await cli(['endpoint', 'list', 'api']);
    assert.match(table.stdout, /^ID\s+METHOD\s+PATH\s+STATUS\s+ENABLED\s+KIND\s+NAME\n/);
    assert.match(table.stdout, /PUT\s+\/api\/queue\s+202\s+yes\s+mock\s+Queue order/);
  });

  it('remove refuses without a TTY unless --force, and leaves the endpoint there', async (t) => {
    const { cli } = await apiProject(t, QUEUE_ORDER);
    assertError(
      await cli(['endpoint', 'remove', 'api', 'Queue order']),
      2,
      /refusing without confirmation\. Pass --force/,
    );
    assert.ok(
      json<Endpoint[]>(await cli(['endpoint', 'list', 'api', '--json'])).some(
        (e) => e.name === 'Queue order',
      ),
    );
    const r = await cli(['endpoint', 'remove', 'api', 'Queue order', '-f']);
    assert.match(r.stdout, /Removed PUT \/api\/queue "Queue order"/);
    assertError(await cli(['endpoint', 'show', 'api', 'Queue order']), 1, /not found/);
  });

  it('remove asks on a terminal and keeps the endpoint when the answer is no', async (t) => {
    const { cli } = await apiProject(t, QUEUE_ORDER);
    const no = await cli(['endpoint', 'remove', 'api', 'Queue order'], { tty: true, input: 'no\n' });
    assert.equal(no.code, 0, no.stderr);
    assert.match(no.stderr, /Remove endpoint "Queue order" \(PUT \/api\/queue\)\? \[y\/N\]/);
    assert.match(no.stderr, /Cancelled; nothing was removed\./);
    assert.equal(json<Endpoint[]>(await cli(['endpoint', 'list', 'api', '--json'])).length, 1);
    const yes = await cli(['endpoint', 'remove', 'api', 'Queue order', '--json'], {
      tty: true,
      input: 'yes\n',
    });
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(json<Endpoint>(yes).name, 'Queue order');
    assert.deepEqual(json(await cli(['endpoint', 'list', 'api', '--json'])), []);
  });
});

describe('mockdev endpoint: the built binary (spawned)', () => {
  it('add exits 0; a bad value exits 2 and an unknown endpoint 1, each with one line', async (t) => {
    const { spawn } = await apiProject(t);
    const added = await spawn(['endpoint', 'add', 'api', '-p', '/spawned', '--json']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(json<Endpoint>(added).path, '/spawned');
    assertError(
      await spawn(['endpoint', 'add', 'api', '-p', '/x', '-m', 'FETCH']),
      2,
      /^mockdev: Invalid method "FETCH"/,
    );
    assertError(await spawn(['endpoint', 'show', 'api', 'nope']), 1, /^mockdev: Endpoint "nope" not found/);
  });

  it('eight processes adding endpoints at once to one project lose nothing', async (t) => {
    const { cli, spawn } = await apiProject(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        spawn(['endpoint', 'add', 'api', '-p', `/parallel/${i}`, '--json']),
      ),
    );
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const paths = json<Endpoint[]>(await cli(['endpoint', 'list', 'api', '--json'])).map((e) => e.path);
    for (let i = 0; i < 8; i++) assert.ok(paths.includes(`/parallel/${i}`), `/parallel/${i} kept`);
  });

  it('a reader that closes the pipe early is not an error', async (t) => {
    const { cli, dir, dataDir } = cliSandbox(t);
    const big = join(dir, 'big');
    assert.equal((await cli(['init', big])).code, 0);
    const endpoints = Array.from({ length: 3000 }, (_, i) => ({
      id: `e${i}`,
      name: `n${i}`,
      method: 'GET',
      path: `/big/${i}`,
      status: 200,
      body: 'x'.repeat(200),
    }));
    writeFileSync(join(big, 'endpoints.json'), JSON.stringify(endpoints));
    const r = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${CLI}" endpoint list "${big}" --json | head -c 100 >/dev/null`],
      {
        env: { ...process.env, MOCKDEV_DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    assert.equal(r.status, 0);
    assert.equal(r.stderr, '');
  });
});
