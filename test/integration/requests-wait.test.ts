/**
 * `mockdev requests count` and `mockdev requests wait`: a spawned `mockdev serve` logs the
 * requests (another process writes the log, as in a test script), the CLI runs in-process.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject, startServe, waitUntil } from '../helpers/server.js';

interface Rec {
  id: string;
  method: string;
  path: string;
  status: number;
}
interface WaitResult {
  done: boolean;
  wanted: number;
  count: number;
  records: Rec[];
}

/** A sandbox whose project "waits" is served by a spawned `mockdev serve`. */
async function served(t: AfterHook) {
  const sandbox = cliSandbox(t);
  await makeProject(sandbox.dataDir, 'waits', [
    { path: '/a', body: '{"a":1}' },
    { method: 'POST', path: '/a', status: 201, body: '{"created":true}' },
    { path: '/fail', status: 500, body: '{"error":"boom"}' },
  ]);
  const serve = await startServe(['waits'], { dataDir: sandbox.dataDir });
  sandbox.defer(() => serve.stop());
  /** Sends one request; resolves once its whole answer has arrived. */
  const send = async (path: string, method = 'GET') =>
    (await fetch(`${serve.url}${path}`, { method, signal: AbortSignal.timeout(10_000) })).text();
  const count = async (...args: string[]) =>
    json<{ count: number }>(await sandbox.cli(['requests', 'count', 'waits', '--json', ...args])).count;
  return { ...sandbox, send, count };
}

describe('requests count', () => {
  it("counts the logged requests that pass the list's filters, after --since", async (t) => {
    const { cli, send, count } = await served(t);
    assert.equal(await count(), 0);
    for (const path of ['/a', '/a', '/fail', '/missing']) await send(path);
    await send('/a', 'POST');
    await waitUntil(async () => (await count()) === 5, 'the five requests in the log');
    const plain = await cli(['requests', 'count', 'waits']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, '5\n', 'the number alone, for scripts');
    assert.equal(await count('-m', 'post'), 1);
    assert.equal(await count('-s', '4xx'), 1);
    assert.equal(await count('-s', '200,500'), 3);
    assert.equal(await count('--path', '/a'), 3);
    assert.equal(await count('-m', 'GET', '--path', '/a', '-s', '2xx'), 2);
    const [second] = json<Rec[]>(await cli(['requests', 'list', 'waits', '--json'])).slice(-2);
    assert.equal(await count('--since', second!.id), 3);
    assert.equal(await count('--since', second!.id, '-s', '5xx'), 1);
    assert.equal(await count('--since', '0'), 5);
  });
});

describe('requests wait', () => {
  it('returns within 300 ms of the answer to the N-th matching request, printing them oldest first', async (t) => {
    const { cli, send } = await served(t);
    let since = '0';
    const latencies: number[] = [];
    for (let round = 0; round < 3; round++) {
      let returned = 0;
      const waiting = cli(
        ['requests', 'wait', 'waits', '-m', 'GET', '--path', '/a', '-c', '2', '--since', since, '--json'],
        { timeoutMs: 30_000 },
      ).then((r) => ((returned = performance.now()), r));
      // The waiter has started following the log before the requests come (it cannot be seen
      // from outside: a moment is given); a wait that started late would count them at once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await send('/a');
      await send('/a', 'POST'); // does not match
      await send('/fail'); // does not match
      assert.equal(returned, 0, 'one matching request is not two');
      await send('/a');
      const answered = performance.now();
      const r = await waiting;
      assert.equal(r.code, 0, r.stderr);
      const result = json<WaitResult>(r);
      assert.deepEqual([result.done, result.wanted, result.count], [true, 2, 2]);
      assert.deepEqual(
        result.records.map((x) => `${x.method} ${x.path}`),
        ['GET /a', 'GET /a'],
      );
      assert.ok(Number(result.records[0]!.id) < Number(result.records[1]!.id), 'oldest first');
      latencies.push(returned - answered);
      since = (await cli(['requests', 'list', 'waits', '-l', '1', '--json'])).stdout.match(
        /"id": "(\d+)"/,
      )![1]!;
    }
    t.diagnostic(`returned ${latencies.map((l) => l.toFixed(0)).join(', ')} ms after the answer`);
    // The log is followed as it is written: a busy machine may slow one round, not all three.
    assert.ok(
      Math.min(...latencies) < 300,
      `returned ${latencies.map((l) => l.toFixed(0)).join(', ')} ms after the answer`,
    );
    for (const l of latencies) assert.ok(l < 5000, `each round well within seconds: ${l.toFixed(0)} ms`);
  });

  it('counts the requests already logged without --since, and prints the table', async (t) => {
    const { cli, send, count } = await served(t);
    await send('/a', 'POST');
    await send('/a');
    await waitUntil(async () => (await count()) === 2, 'the two requests in the log');
    const r = await cli(['requests', 'wait', 'waits', '-m', 'POST']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ID\s+TIME\s+METHOD\s+PATH\s+STATUS/);
    assert.match(r.stdout, /POST\s+\/a\s+201/);
    assert.doesNotMatch(r.stdout, /GET/);
    const both = json<WaitResult>(await cli(['requests', 'wait', 'waits', '-c', '2', '--json']));
    assert.deepEqual(
      both.records.map((x) => x.method),
      ['POST', 'GET'],
      'the newest N, oldest first',
    );
  });

  it('exits 1 at the timeout saying how many it saw, and prints those', async (t) => {
    const { cli, send, count } = await served(t);
    await send('/fail');
    await waitUntil(async () => (await count()) === 1, 'the request in the log');
    const started = performance.now();
    const r = await cli(['requests', 'wait', 'waits', '-s', '5xx', '-c', '3', '--timeout', '400']);
    const took = performance.now() - started;
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, 'Timed out after 400 ms: saw 1 matching request, waited for 3\n');
    assert.match(r.stdout, /GET\s+\/fail\s+500/);
    assert.ok(took >= 350 && took < 10_000, `waited ${took.toFixed(0)} ms`);
    const once = await cli(['requests', 'wait', 'waits', '-s', '5xx', '--timeout', '0']);
    assert.equal(once.code, 0, `--timeout 0 still looks once: ${once.stderr}`);
    const none = await cli(['requests', 'wait', 'waits', '-m', 'DELETE', '--timeout', '0', '--json']);
    assert.equal(none.code, 1);
    assert.deepEqual(json<WaitResult>(none), { done: false, wanted: 1, count: 0, records: [] });
    assert.match(none.stderr, /saw 0 matching requests, waited for 1/);
    const after = await cli(['requests', 'wait', 'waits', '--since', '999999', '--timeout', '100']);
    assert.equal(after.code, 1);
    assert.match(after.stderr, /saw 0 matching requests after 999999, waited for 1/);
    assert.match(after.stdout, /No matching request logged/);
  });

  it('refuses bad input in one line, exit 2; an unknown project exit 3', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    await makeProject(dataDir, 'waits', []);
    const bad: [string[], RegExp][] = [
      [['wait', 'waits', '-c', '0'], /Invalid count 0: must be a whole number from 1 to 1000/],
      [['wait', 'waits', '-c', '1001'], /Invalid count 1001/],
      [['wait', 'waits', '--count', 'two'], /Invalid --count "two": must be a whole number/],
      [['wait', 'waits', '--timeout', '-1'], /Invalid timeout -1: must be a whole number of milliseconds/],
      [['wait', 'waits', '--timeout', 'soon'], /Invalid --timeout "soon"/],
      [['wait', 'waits', '--since', 'last'], /Invalid since "last": must be a request id/],
      [['count', 'waits', '--since', '-3'], /Invalid since "-3"/],
      [['count', 'waits', '-s', '99x'], /status/i],
      [['wait', 'waits', '-m', 'NOT A METHOD'], /method/i],
      [['count', 'waits', '--bogus'], /unknown option '--bogus'/],
    ];
    for (const [args, re] of bad) assertCliError(await cli(['requests', ...args]), 2, re);
    assertCliError(await cli(['requests', 'count', 'nope']), 3, /Project "nope" not found/);
    assertCliError(
      await cli(['requests', 'wait', 'nope', '--timeout', '100']),
      3,
      /Project "nope" not found/,
    );
  });
});
