/**
 * `mockdev ui` spawned from the built CLI, with `serve` and the CLI in other processes: the
 * wiring of the live events and of the servers the UI runs (status, stop, its own stop).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { json, runCli, tempDir } from '../helpers/cli.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject, startServe } from '../helpers/server.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { startUi, type UiHandle } from '../helpers/ui.js';

type Json = Record<string, unknown>;

async function sandbox(t: AfterHook) {
  const { dir, cleanup } = tempDir('mockdev-ui-');
  const uis: UiHandle[] = [];
  const streams: SseClient[] = [];
  t.after(async () => {
    for (const s of streams) s.close();
    for (const ui of uis) await ui.stop().catch(() => ui.stop('SIGKILL'));
    // Servers the UI started went with it; anything left is stopped before the folder goes.
    await runCli(['stop'], { dataDir: dir }).catch(() => undefined);
    cleanup();
  });
  const ui = await startUi([], { dataDir: dir });
  uis.push(ui);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${ui.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const events = async () => {
    const s = await openSse(`${ui.url}/api/v1/events`);
    streams.push(s);
    return s;
  };
  const cli = (...args: string[]) => runCli(args, { dataDir: dir });
  return { dir, ui, api, events, cli };
}

describe('mockdev ui (spawned)', () => {
  it('streams a request answered by a `serve` in another process within a second, and its start', async (t) => {
    const { dir, events } = await sandbox(t);
    const { id } = await makeProject(dir, 'live', [{ path: '/hello', body: 'hi' }]);
    const stream = await events();
    const serve = await startServe(['live'], { dataDir: dir });
    t.after(() => serve.stop().then(() => undefined));
    await stream.next(
      (e, d) => e.event === 'server' && (d as Json).change === 'started',
      'the server started event',
    );
    assert.equal(await (await fetch(`${serve.url}/hello`)).text(), 'hi');
    const answered = Date.now();
    const event = await stream.next(
      (e, d) => e.event === 'request' && (d as Json).path === '/hello',
      'the request event',
      5000,
    );
    const latency = event.at - answered;
    assert.ok(latency < 1000, `the request event came ${latency} ms after the answer`);
    const data = JSON.parse(event.data) as Json;
    assert.equal(data.projectId, id);
    assert.equal(data.status, 200);
    assert.equal(data.method, 'GET');
  });

  it('runs servers that `mockdev status` lists and `mockdev stop` stops, while the UI keeps answering', async (t) => {
    const { dir, api, cli } = await sandbox(t);
    await makeProject(dir, 'one', [{ path: '/x', body: '1' }]);
    await makeProject(dir, 'two', [{ path: '/x', body: '2' }]);
    const one = await api('PUT', '/projects/one/server', { port: 0 });
    assert.equal(one.status, 201, one.text);
    const two = await api('PUT', '/projects/two/server', { port: 0 });
    assert.equal(two.status, 201, two.text);
    const urlOne = (one.json as Json).url as string;
    assert.equal(await (await fetch(`${urlOne}/x`)).text(), '1');

    const status = await cli('status', '--json');
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(
      json<Json[]>(status)
        .map((s) => s.projectName)
        .sort(),
      ['one', 'two'],
    );
    const table = await cli('status');
    assert.match(table.stdout, /PROJECT\s+URL\s+PID\s+UPTIME\s+PROJECT ID/);

    const stopped = await cli('stop', 'one');
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /^Stopped "one" at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)\n$/);
    await assert.rejects(fetch(`${urlOne}/x`), 'the server of "one" is closed');
    assert.equal((await api('GET', '/health')).status, 200, 'the UI still answers');
    assert.deepEqual(
      ((await api('GET', '/servers')).json as Json[]).map((s) => s.projectName),
      ['two'],
    );

    const all = await cli('stop', '--json');
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      json<Json[]>(all).map((s) => s.projectName),
      ['two'],
    );
    assert.equal((await api('GET', '/health')).status, 200, 'the UI still answers');
    assert.deepEqual((await api('GET', '/servers')).json, []);
    // And it can start one again.
    assert.equal((await api('PUT', '/projects/one/server', { port: 0 })).status, 201);
  });

  it('stops the servers it started when it stops (SIGTERM)', async (t) => {
    const { dir, ui, api, cli } = await sandbox(t);
    await makeProject(dir, 'one', [{ path: '/x', body: '1' }]);
    const one = await api('PUT', '/projects/one/server', { port: 0 });
    assert.equal(one.status, 201, one.text);
    const url = (one.json as Json).url as string;
    assert.equal(await (await fetch(`${url}/x`)).text(), '1');
    assert.equal((await ui.stop()).code, 0, ui.stderr());
    await assert.rejects(fetch(`${url}/x`), 'the server stopped with the UI');
    assert.deepEqual(json(await cli('status', '--json')), []);
    assert.match(ui.stderr(), /Stopping the admin API and the mock servers it started/);
  });

  it('streams an endpoint added by the CLI as an `endpoints` event', async (t) => {
    const { dir, events, cli } = await sandbox(t);
    const { id } = await makeProject(dir, 'watched', []);
    const stream = await events();
    const added = await cli('endpoint', 'add', 'watched', '-p', '/new', '-b', '{"a":1}');
    assert.equal(added.code, 0, added.stderr);
    const event = await stream.next(
      (e, d) => e.event === 'endpoints' && (d as Json).projectId === id && (d as Json).count === 1,
      'the endpoints event',
      10_000,
    );
    assert.equal((JSON.parse(event.data) as Json).change, 'updated');
  });
});
