/**
 * `mockdev requests`: each test serves a project of its own (the mock server started in-process
 * on a free port) and sends it the same seven requests, then runs the CLI in-process on the
 * log while the server runs. One test spawns `mockdev serve` and the CLI binary to prove the
 * real wiring: a clear from another process while a server keeps logging.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startServer } from '../../src/app/server.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject, startServe, waitUntil, writeEndpoints } from '../helpers/server.js';

interface Rec {
  id: string;
  method: string;
  path: string;
  status: number;
  starred: boolean;
}

const ENDPOINTS = [
  { path: '/a', body: '{"a":1}' },
  { method: 'POST', path: '/a', status: 201, body: '{"created":true}' },
  { path: '/fail', status: 500, body: '{"error":"boom"}' },
  { method: 'DELETE', path: '/a/:id', status: 204 },
];

/** Sends the seven requests every test starts from, one after another. */
async function sendRequests(url: string): Promise<void> {
  const send = async (path: string, init?: RequestInit) =>
    (await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) })).text();
  for (let i = 0; i < 3; i++) await send('/a');
  await send('/a', {
    method: 'POST',
    body: '{"name":"n"}',
    headers: { 'content-type': 'application/json' },
  });
  await send('/fail');
  await send('/missing');
  await send('/a/1', { method: 'DELETE' });
}

/** A sandbox whose project "reqs" is served in-process and has logged the seven requests. */
async function served(t: AfterHook) {
  const sandbox = cliSandbox(t);
  const { cli } = sandbox;
  await makeProject(sandbox.dataDir, 'reqs', ENDPOINTS);
  const ctx = createContext({ dataDir: sandbox.dataDir, cwd: sandbox.dir });
  const server = await startServer(ctx, { project: 'reqs', port: 0 });
  sandbox.defer(async () => {
    await server.stop();
    ctx.close();
  });
  const list = async (...args: string[]) =>
    json<Rec[]>(await cli(['requests', 'list', 'reqs', '--json', ...args]));
  await sendRequests(server.url);
  await waitUntil(async () => (await list()).length === 7, 'the 7 requests in the log');
  return { ...sandbox, list };
}

describe('requests list/show/delete/star (while the server runs)', () => {
  it('lists newest first with --limit, --method and --status (exact, class, list)', async (t) => {
    const { list } = await served(t);
    const all = await list();
    assert.deepEqual(
      all.map((r) => `${r.method} ${r.path} ${r.status}`),
      [
        'DELETE /a/1 204',
        'GET /missing 404',
        'GET /fail 500',
        'POST /a 201',
        'GET /a 200',
        'GET /a 200',
        'GET /a 200',
      ],
    );
    assert.equal((await list('-l', '2')).length, 2);
    assert.equal((await list('--limit', '2'))[0]!.method, 'DELETE');
    assert.deepEqual(
      (await list('-m', 'post')).map((r) => r.status),
      [201],
    );
    assert.deepEqual(
      (await list('-s', '404')).map((r) => r.path),
      ['/missing'],
    );
    assert.deepEqual(
      (await list('-s', '4xx')).map((r) => r.status),
      [404],
    );
    assert.deepEqual(
      (await list('-s', '5xx')).map((r) => r.status),
      [500],
    );
    assert.deepEqual((await list('-s', '2xx', '-m', 'GET')).length, 3);
    assert.deepEqual(
      (await list('--status', '201,204')).map((r) => r.status),
      [204, 201],
    );
  });

  it('prints a human table without --json', async (t) => {
    const { cli } = await served(t);
    const out = await cli(['requests', 'list', 'reqs', '-l', '3']);
    assert.equal(out.code, 0);
    const lines = out.stdout.trim().split('\n');
    assert.match(lines[0]!, /ID\s+TIME\s+METHOD\s+PATH\s+STATUS/);
    assert.equal(lines.length, 4);
    assert.match(lines[1]!, /DELETE\s+\/a\/1\s+204/);
  });

  it('shows one request with --json and as a human view with pretty JSON bodies', async (t) => {
    const { cli, list } = await served(t);
    const post = (await list('-m', 'POST'))[0]!;
    const shown = json<{ id: string; body: string; response: { status: number; body: string } }>(
      await cli(['requests', 'show', post.id, '--json']),
    );
    assert.equal(shown.id, post.id);
    assert.equal(shown.body, '{"name":"n"}');
    assert.deepEqual(shown.response.status, 201);
    const human = await cli(['requests', 'show', post.id]);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /POST \/a/);
    assert.match(human.stdout, /Request headers:\n(.|\n)*content-type: application\/json/i);
    assert.match(human.stdout, /Request body:\n\{\n {2}"name": "n"\n\}/);
    assert.match(human.stdout, /Response 201/);
    assert.match(human.stdout, /Response body:\n\{\n {2}"created": true\n\}/);
  });

  it('stars and unstars; --starred filters', async (t) => {
    const { cli, list } = await served(t);
    const target = (await list('-s', '500'))[0]!;
    const starred = json<Rec>(await cli(['requests', 'star', target.id, '--json']));
    assert.equal(starred.starred, true);
    assert.deepEqual(
      (await list('--starred')).map((r) => r.id),
      [target.id],
    );
    const human = await cli(['requests', 'star', target.id, '--unstar']);
    assert.match(human.stdout, /Unstarred request/);
    assert.deepEqual(await list('--starred'), []);
  });

  it('--path lists the requests whose path contains the text', async (t) => {
    const { cli, list } = await served(t);
    const all = await list();
    const under = await list('--path', '/a/');
    assert.ok(under.length > 0 && under.length < all.length, 'some, not all');
    assert.deepEqual(
      under.map((r) => r.id),
      all.filter((r) => r.path.includes('/a/')).map((r) => r.id),
    );
    const tooLong = await cli(['requests', 'list', 'reqs', '--path', 'x'.repeat(3000)]);
    assert.equal(tooLong.code, 2);
    assert.match(tooLong.stderr, /Invalid path filter: 3000 characters, the most is 2048/);
  });

  it('deletes by id, all or none; unknown ids are named (exit 1)', async (t) => {
    const { cli, list } = await served(t);
    const gets = await list('-m', 'GET', '-s', '200');
    const refused = await cli(['requests', 'delete', gets[0]!.id, gets[1]!.id]);
    assertCliError(refused, 2, /Delete 2 requests \(.+\): refusing without confirmation\. Pass --force/);
    const no = await cli(['requests', 'delete', gets[0]!.id], { tty: true, input: 'n\n' });
    assert.match(no.stderr, new RegExp(`Delete request ${gets[0]!.id}\\? \\[y/N\\][\\s\\S]*Nothing deleted`));
    assert.equal((await list('-m', 'GET', '-s', '200')).length, 3, 'nothing deleted without a yes');
    const yes = await cli(['requests', 'delete', gets[0]!.id], { tty: true, input: 'y\n' });
    assert.match(yes.stdout, /Deleted 1 request:/);
    const del = await cli(['requests', 'delete', gets[1]!.id, gets[2]!.id, '-f']);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /Deleted 2 requests/);
    assert.deepEqual(await list('-m', 'GET', '-s', '200'), []);
    const kept = (await list())[0]!.id;
    const missing = await cli(['requests', 'delete', kept, '987654321', '--force']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^mockdev: Request "987654321" not found/);
    assert.equal((await list()).length, 4, 'nothing deleted when one id is unknown');
    const show = await cli(['requests', 'show', 'nope']);
    assert.equal(show.code, 1);
    assert.equal(show.stderr.trim().split('\n').length, 1);
  });

  it('clear refuses without --force when not on a terminal, and clears with it', async (t) => {
    const { cli, list } = await served(t);
    const refused = await cli(['requests', 'clear', 'reqs']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--force/);
    assert.equal((await list()).length, 7);
    const cleared = await cli(['requests', 'clear', 'reqs', '-f', '--json']);
    assert.equal(cleared.code, 0);
    assert.equal(json<{ deleted: number }>(cleared).deleted, 7);
    assert.deepEqual(await list(), []);
  });

  it("project delete removes the project's records with it, and only those", async (t) => {
    const { cli, dataDir, list } = await served(t);
    await makeProject(dataDir, 'other', ENDPOINTS);
    const ctx = createContext({ dataDir, cwd: dataDir });
    const other = await startServer(ctx, { project: 'other', port: 0 });
    await sendRequests(other.url);
    await other.stop();
    ctx.close();
    const kept = async () => json<Rec[]>(await cli(['requests', 'list', 'other', '--json'])).length;
    await waitUntil(async () => (await kept()) === 7, "the other project's 7 requests");
    const ids = (await list()).map((r) => r.id);
    const deleted = await cli(['project', 'delete', 'reqs', '--force']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /Deleted project "reqs" \(id [\w-]+\) and its 7 logged request\(s\)/);
    for (const id of ids) assertCliError(await cli(['requests', 'show', id]), 1, /not found/);
    assert.equal(await kept(), 7, 'another project keeps its log');
  });

  it('rejects bad filters with exit 2 and unknown projects with exit 3', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    await makeProject(dataDir, 'reqs', ENDPOINTS);
    for (const args of [
      ['-s', '600'],
      ['-s', '4x'],
      ['-s', 'abc'],
      ['-m', 'FETCH'],
      ['-l', '0'],
      ['-l', 'ten'],
    ]) {
      const r = await cli(['requests', 'list', 'reqs', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    const unknown = await cli(['requests', 'list', 'nope']);
    assert.equal(unknown.code, 3);
    assert.equal((await cli(['requests', 'clear', 'nope', '-f'])).code, 3);
  });
});

describe('requests list with no project', () => {
  it('lists the requests of the project in the current folder; outside one, says what to give (exit 2)', async (t) => {
    const sandbox = cliSandbox(t);
    const { cli, dir } = sandbox;
    const folder = join(dir, 'here');
    assert.equal((await cli(['init', folder, '-n', 'Here'])).code, 0);
    writeEndpoints(folder, ENDPOINTS);
    const ctx = createContext({ dataDir: sandbox.dataDir, cwd: folder });
    const server = await startServer(ctx, { port: 0 });
    sandbox.defer(async () => {
      await server.stop();
      ctx.close();
    });
    await sendRequests(server.url);
    const here = async () => json<Rec[]>(await cli(['requests', 'list', '--json'], { cwd: folder }));
    await waitUntil(async () => (await here()).length === 7, 'the 7 requests, listed in the folder');
    assert.deepEqual(
      (await here()).map((r) => r.id),
      json<Rec[]>(await cli(['requests', 'list', 'Here', '--json'])).map((r) => r.id),
    );
    assertCliError(
      await cli(['requests', 'list']),
      2,
      /^mockdev: "requests list" needs a project: none was given, and .* holds no project\.json\. Give a project id, name or folder/,
    );
  });
});

describe('requests: the built binaries (spawned)', () => {
  it('a clear from another process: refused without --force (2), done with it (0); the server keeps logging', async (t) => {
    const { cli, spawn, dataDir, defer } = cliSandbox(t);
    await makeProject(dataDir, 'reqs', ENDPOINTS);
    const server = await startServe(['reqs'], { dataDir });
    defer(() => server.stop());
    const list = async () => json<Rec[]>(await cli(['requests', 'list', 'reqs', '--json']));
    await sendRequests(server.url);
    await waitUntil(async () => (await list()).length === 7, 'the 7 requests in the log');
    const listed = await spawn(['requests', 'list', 'reqs', '-l', '1', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      json<Rec[]>(listed).map((r) => `${r.method} ${r.path} ${r.status}`),
      ['DELETE /a/1 204'],
    );
    assertCliError(
      await spawn(['requests', 'clear', 'reqs']),
      2,
      /^mockdev: .*refusing without confirmation.*--force/,
    );
    assert.ok((await list()).length > 0);
    const cleared = await spawn(['requests', 'clear', 'reqs', '-f', '--json']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.ok(json<{ deleted: number }>(cleared).deleted > 0);
    assert.deepEqual(await list(), []);
    // the server keeps logging after a clear from another process
    await (await fetch(`${server.url}/a`)).text();
    await waitUntil(async () => (await list()).length === 1, 'a new record after the clear');
    assert.equal(await server.stop(), 0);
  });
});
