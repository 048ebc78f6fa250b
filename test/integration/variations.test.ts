/**
 * Response variations: every `endpoint variation` command in-process (bad input, refusals),
 * then every selection mode and rule operator over HTTP against a spawned `mockdev serve`,
 * with the variations set up and changed through the CLI (live reload).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, Variation } from '../../src/core/model/endpoint.js';
import type { VariationView } from '../../src/core/model/variation-response.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook, type CliSandbox } from '../helpers/cli-inprocess.js';
import { startServe, waitUntil } from '../helpers/server.js';

const USERS = 'GET /api/users/:id';

/** A sandbox with project "api" and GET /api/users/:id answering 200 {"id":"any"}. */
async function apiProject(t: AfterHook): Promise<CliSandbox> {
  const sandbox = cliSandbox(t);
  for (const args of [
    ['project', 'create', 'api'],
    ['endpoint', 'add', 'api', '-p', '/api/users/:id', '-b', '{"id":"any"}', '-H', 'X-Default: yes'],
  ]) {
    const r = await sandbox.cli(args);
    assert.equal(r.code, 0, r.stderr);
  }
  return sandbox;
}

const addVariation = async (cli: CliSandbox['cli'], ...args: string[]): Promise<VariationView> => {
  const r = await cli(['endpoint', 'variation', 'add', 'api', USERS, ...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return json<VariationView>(r);
};

describe('mockdev endpoint variation', () => {
  it('add, list, update, activate, remove', async (t) => {
    const { cli } = await apiProject(t);
    const added = await addVariation(
      cli,
      ...['-n', 'admins', '-s', '403', '-b', '{"admin":true}', '--content-type', 'application/vnd.x+json'],
      ...['--delay', '5', '-H', 'X-Var: 1', '--when', 'header.x-role~^adm', '--when', 'query.full?'],
    );
    assert.deepEqual(
      { ...added, id: undefined },
      {
        id: undefined,
        name: 'admins',
        status: 403,
        headers: { 'X-Var': '1' },
        body: '{"admin":true}',
        contentType: 'application/vnd.x+json',
        delay: 5,
        rules: [
          { source: 'header', key: 'x-role', op: 'regex', value: '^adm' },
          { source: 'query', key: 'full', op: 'exists' },
        ],
        inherits: [],
      },
    );
    // Unset fields: the endpoint's status (copied), no rules; body, content type and headers
    // are the endpoint's at run time (not stored).
    const plain = await addVariation(cli, '-n', 'plain');
    assert.deepEqual(
      [plain.status, plain.contentType, plain.body, plain.headers, plain.rules, plain.inherits],
      [200, undefined, undefined, {}, undefined, ['body', 'contentType', 'headers']],
    );

    const table = await cli(['endpoint', 'variation', 'list', 'api', USERS]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /admins\s+403\s+5 ms\s+header\.x-role~\^adm and query\.full\?/);
    assert.match(table.stdout, /INHERITED/);
    assert.match(table.stdout, /plain\s+200\s+0 ms\s+body, content type, headers\s*$/m);
    assert.match(table.stderr, /Selection mode: rules/);
    assert.match(
      table.stderr,
      /Inherited from the endpoint: body "\{\\"id\\":\\"any\\"\}", content type application\/json, headers X-Default/,
    );

    const updated = await cli([
      ...['endpoint', 'variation', 'update', 'api', USERS, 'ADMINS', '-n', 'admin', '-s', '401'],
      ...['--when', 'body.user.role=admin', '--remove-header', 'x-var', '--json'],
    ]);
    assert.equal(updated.code, 0, updated.stderr);
    const u = json<Variation>(updated);
    assert.deepEqual(
      [u.id, u.name, u.status, u.headers, u.body, u.rules],
      [
        added.id,
        'admin',
        401,
        {},
        '{"admin":true}',
        [{ source: 'body', key: 'user.role', op: 'equals', value: 'admin' }],
      ],
    );
    const cleared = await cli([
      'endpoint',
      'variation',
      'update',
      'api',
      USERS,
      added.id,
      '--clear-rules',
      '--json',
    ]);
    assert.equal(json<Variation>(cleared).rules, undefined);

    const activated = await cli(['endpoint', 'variation', 'activate', 'api', USERS, 'plain', '--json']);
    assert.equal(json<Endpoint>(activated).activeVariationId, plain.id);
    const listed = json<Variation[]>(await cli(['endpoint', 'variation', 'list', 'api', USERS, '--json']));
    assert.deepEqual(
      listed.map((v) => v.name),
      ['admin', 'plain'],
    );
    // Removing the active variation goes back to selection by mode.
    const removed = await cli(['endpoint', 'variation', 'remove', 'api', USERS, 'plain', '-f']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /Removed variation "plain"/);
    const shown = json<Endpoint>(await cli(['endpoint', 'show', 'api', USERS, '--json']));
    assert.equal(shown.activeVariationId, undefined);
    assert.deepEqual(
      shown.variations.map((v) => v.name),
      ['admin'],
    );

    const back = await cli(['endpoint', 'variation', 'activate', 'api', USERS]);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /answers by rules again/);
    const mode = await cli(['endpoint', 'update', 'api', USERS, '--mode', 'sequential', '--json']);
    assert.equal(json<Endpoint>(mode).mode, 'sequential');
    const human = await cli(['endpoint', 'show', 'api', USERS]);
    assert.match(human.stdout, /variations:\s+admin \(401; inherits headers\); mode sequential/);
  });

  it('bad input: exit 2 with one line; unknown project 3; unknown endpoint or variation 1', async (t) => {
    const { cli } = await apiProject(t);
    await addVariation(cli, '-n', 'missing', '-s', '404');
    const add = (...args: string[]) => cli(['endpoint', 'variation', 'add', 'api', USERS, ...args]);
    assertCliError(
      await add('-n', 'x', '--when', 'page=2'),
      2,
      /Invalid rule "page=2": expected <source>\.<key><op><value>/,
    );
    assertCliError(await add('-n', 'x', '--when', 'cookie.a=1'), 2, /unknown source "cookie"/);
    assertCliError(await add('-n', 'x', '--when', 'query.a~('), 2, /not a valid regular expression/);
    // Linear-time engine: lookaround and backreferences are refused with what to write instead.
    assertCliError(
      await add('-n', 'x', '--when', 'header.x-role~^(?!adm)'),
      2,
      /lookahead or lookbehind .*cannot run in linear time: .*add a variation for this case first/,
    );
    assertCliError(await add('-n', 'x', '--when', 'query.a~(a)\\1'), 2, /backreference/);
    // Only =, ~ and ? are operators.
    for (const [rule, op] of [
      ['query.q!=x', '!='],
      ['header.x-a=~abc', '=~'],
      // CSS's starts-with, ends-with, contains and dash-match: never part of a key.
      ['query.q^=x', '^='],
      ['query.q$=x', '$='],
      ['body.name*=x', '*='],
      ['header.accept-language|=en', '|='],
    ])
      assertCliError(
        await add('-n', 'x', '--when', rule!),
        2,
        new RegExp(
          `unknown operator "${op!.replace(/[$^*|]/g, '\\$&')}": use = \\(equals\\), ~ \\(regex\\) or \\? \\(exists\\)`,
        ),
      );
    assertCliError(await add('-n', 'x', '--when', 'body.a?1'), 2, /takes no value/);
    assertCliError(
      await add('-n', 'x', '--when', 'param.userId=1'),
      2,
      /Variation "x" has a rule on path parameter "userId", which GET \/api\/users\/:id does not have\. Its parameters: id/,
    );
    assertCliError(await add('-n', 'x', '-s', '99'), 2, /Invalid .*status.*99/);
    assertCliError(await add('-n', 'x', '--delay', 'soon'), 2, /Invalid --delay "soon"/);
    assertCliError(await add('-n', '', '-s', '404'), 2, /name/);
    assertCliError(await add('-s', '404'), 2, /--name/);
    assertCliError(await add('-n', 'MISSING'), 1, /already has a variation named "missing"/);
    assertCliError(
      await cli(['endpoint', 'update', 'api', USERS, '--mode', 'sometimes']),
      2,
      /Invalid mode "sometimes"/,
    );
    assertCliError(
      await cli([
        'endpoint',
        'variation',
        'update',
        'api',
        USERS,
        'missing',
        '--when',
        'query.a=1',
        '--clear-rules',
      ]),
      2,
      /either --when or --clear-rules/,
    );
    assertCliError(
      await cli(['endpoint', 'variation', 'update', 'api', USERS, 'missing']),
      2,
      /Nothing to update/,
    );
    assertCliError(
      await cli(['endpoint', 'variation', 'list', 'nope', USERS]),
      3,
      /Project "nope" not found/,
    );
    assertCliError(
      await cli(['endpoint', 'variation', 'list', 'api', 'GET /nope']),
      1,
      /Endpoint "GET \/nope" not found/,
    );
    const ghost = ['api', USERS, 'ghost'];
    for (const args of [
      ['activate', ...ghost],
      ['remove', ...ghost, '-f'],
      ['update', ...ghost, '-s', '200'],
    ])
      assertCliError(
        await cli(['endpoint', 'variation', ...args]),
        1,
        /Variation "ghost" not found on endpoint "get-users-by-id"\. Its variations: missing/,
      );
  });

  it('the built binary runs the commands (spawned: the lazily loaded handler chunk is in dist/)', async (t) => {
    const { spawn } = await apiProject(t);
    const add = await spawn([
      'endpoint',
      'variation',
      'add',
      'api',
      USERS,
      '-n',
      'zero',
      '-s',
      '404',
      '--when',
      'param.id=0',
    ]);
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stdout, /Added variation "zero" .* -> 404 to GET \/api\/users\/:id when param\.id=0/);
    const bad = await spawn(['endpoint', 'variation', 'add', 'api', USERS, '-n', 'x', '--when', 'nope']);
    assertCliError(bad, 2, /Invalid rule "nope"/);
  });

  it('remove refuses without --force off a terminal, and asks on one', async (t) => {
    const { cli } = await apiProject(t);
    await addVariation(cli, '-n', 'missing', '-s', '404');
    assertCliError(
      await cli(['endpoint', 'variation', 'remove', 'api', USERS, 'missing']),
      2,
      /Remove variation "missing" of GET \/api\/users\/:id: refusing without confirmation\. Pass --force/,
    );
    const no = await cli(['endpoint', 'variation', 'remove', 'api', USERS, 'missing'], {
      tty: true,
      input: 'n\n',
    });
    assert.equal(no.code, 0, no.stderr);
    assert.match(no.stderr, /Cancelled/);
    const yes = await cli(['endpoint', 'variation', 'remove', 'api', USERS, 'missing'], {
      tty: true,
      input: 'y\n',
    });
    assert.equal(yes.code, 0, yes.stderr);
    const left = json<Variation[]>(await cli(['endpoint', 'variation', 'list', 'api', USERS, '--json']));
    assert.deepEqual(left, []);
  });
});

interface Answer {
  status: number;
  body: string;
  type: string | null;
  header: string | null;
}

describe('variations over HTTP against mockdev serve', () => {
  it('every rule operator and source, the request header, active, sequential and random', async (t) => {
    const sandbox = await apiProject(t);
    const { cli } = sandbox;
    await addVariation(
      cli,
      '-n',
      'page2',
      '-s',
      '206',
      '-b',
      'page two',
      '--content-type',
      'text/plain',
      '--when',
      'query.page=2',
    );
    await addVariation(
      cli,
      '-n',
      'admins',
      '-s',
      '403',
      '-b',
      '{"admin":true}',
      '-H',
      'X-Var: admins',
      '--when',
      'header.X-Role~^adm',
    );
    await addVariation(cli, '-n', 'zero', '-s', '404', '--when', 'param.id=0');
    await addVariation(cli, '-n', 'has-user', '-s', '409', '--when', 'body.user.id?');
    await addVariation(
      cli,
      '-n',
      'slow',
      '-s',
      '202',
      '--delay',
      '300',
      '--when',
      'query.slow?',
      '--when',
      'body.kind~^sl',
    );

    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const call = async (path: string, init?: RequestInit): Promise<Answer> => {
      const r = await fetch(`${server.url}${path}`, init);
      return {
        status: r.status,
        body: await r.text(),
        type: r.headers.get('content-type'),
        header: r.headers.get('x-var'),
      };
    };
    const status = async (path: string, init?: RequestInit) => (await call(path, init)).status;

    // Default response when nothing matches.
    assert.deepEqual(await call('/api/users/1'), {
      status: 200,
      body: '{"id":"any"}',
      type: 'application/json',
      header: null,
    });
    // query equals: status, body and content type from the variation.
    assert.deepEqual(await call('/api/users/1?page=2'), {
      status: 206,
      body: 'page two',
      type: 'text/plain',
      header: null,
    });
    assert.equal(await status('/api/users/1?page=3'), 200);
    // header regex, the name in any case; headers from the variation.
    assert.deepEqual(await call('/api/users/1', { headers: { 'x-role': 'admin' } }), {
      status: 403,
      body: '{"admin":true}',
      type: 'application/json',
      header: 'admins',
    });
    assert.equal(await status('/api/users/1', { headers: { 'x-role': 'user' } }), 200);
    // path param equals.
    assert.equal(await status('/api/users/0'), 404);
    // JSON body exists (fetch sends no body with a GET: node's request does).
    const withBody = async (body: string, path = '/api/users/1') => {
      const { request } = await import('node:http');
      return new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}${path}`,
          {
            method: 'GET',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    };
    assert.equal(await withBody('{"user":{"id":7}}'), 409);
    assert.equal(await withBody('{"user":{}}'), 200);
    assert.equal(await withBody('not json'), 200);
    // Two rules, both must match; the chosen response's delay applies.
    const started = performance.now();
    assert.equal(await withBody('{"kind":"slowly"}', '/api/users/1?slow'), 202);
    assert.ok(performance.now() - started >= 250, 'the variation delay applies');
    assert.equal(await withBody('{"kind":"fast"}', '/api/users/1?slow'), 200);

    // The request header names one (any case, or its id), over the rules; an unknown one is ignored.
    assert.equal(await status('/api/users/1?page=2', { headers: { 'X-Mockdev-Variation': 'ZERO' } }), 404);
    assert.equal(await status('/api/users/1?page=2', { headers: { 'X-Mockdev-Variation': 'ghost' } }), 206);

    // The log shows the chosen response.
    const log = await cli(['requests', 'list', 'api', '--json', '-l', '100']);
    const records = json<{ path: string; status: number; response: { status: number; body: string } }[]>(log);
    const page2 = records.find((r) => r.path === '/api/users/1' && r.status === 206);
    assert.ok(page2, JSON.stringify(records.map((r) => [r.path, r.status])));
    assert.equal(page2.response.body, 'page two');

    // Active: every request gets it, whatever the rules say; live reload.
    assert.equal((await cli(['endpoint', 'variation', 'activate', 'api', USERS, 'admins'])).code, 0);
    await waitUntil(
      async () => (await status('/api/users/1?page=2')) === 403,
      'the active variation to answer',
    );
    assert.equal(
      await status('/api/users/0', { headers: { 'X-Mockdev-Variation': 'page2' } }),
      206,
      'the header still picks',
    );
    assert.equal((await cli(['endpoint', 'variation', 'activate', 'api', USERS])).code, 0);
    await waitUntil(async () => (await status('/api/users/1?page=2')) === 206, 'rules to answer again');

    // Sequential: the default, then each variation in order.
    assert.equal((await cli(['endpoint', 'update', 'api', USERS, '--mode', 'sequential'])).code, 0);
    await waitUntil(async () => (await status('/api/users/1?slow')) === 206, 'the sequence to start');
    // The sequence is at its third step now (default, page2 consumed by the wait or a retry).
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) seen.push(await status('/api/users/1?slow'));
    const cycle = [200, 206, 403, 404, 409, 202];
    const at = cycle.indexOf(seen[0]!);
    assert.deepEqual(
      seen,
      Array.from({ length: 12 }, (_, i) => cycle[(at + i) % cycle.length]),
    );

    // Random: every response comes up.
    assert.equal(
      (await cli(['endpoint', 'update', 'api', USERS, '--mode', 'random', '--delay', '0'])).code,
      0,
    );
    assert.equal(
      (await cli(['endpoint', 'variation', 'update', 'api', USERS, 'slow', '--delay', '0'])).code,
      0,
    );
    const statuses = new Set<number>();
    await waitUntil(async () => {
      statuses.add(await status('/api/users/1'));
      return statuses.size === 6;
    }, 'every response to come up at random');
  });
});
