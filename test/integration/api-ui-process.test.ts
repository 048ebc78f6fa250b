/**
 * `mockdev ui` as a process (the built binary): what only the wiring can show. The checks
 * themselves (Host, Origin, token, content type) are tested in process with every route
 * (api-projects.test.ts); here they are proven on the socket, with the exit codes, the signals,
 * and the CLI and the API over one data directory.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json, runCli, tempDir } from '../helpers/cli.js';
import { http, startUi, type UiHandle } from '../helpers/ui.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { waitUntil } from '../helpers/wait.js';

type Json = Record<string, unknown>;

/** A data dir removed after the test, and a `mockdev ui` on it stopped (by pid) after the test. */
async function ui(
  t: AfterHook,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<UiHandle & { dataDir: string }> {
  const { dir, cleanup } = tempDir('mockdev-ui-');
  const handle = await startUi(args, { dataDir: dir, env });
  t.after(async () => {
    await handle.stop('SIGKILL');
    cleanup();
  });
  return { ...handle, dataDir: dir };
}

/** Whether a port on 127.0.0.1 can be listened on again (the process let it go). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s: Server = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function stopsCleanly(server: UiHandle, signal: NodeJS.Signals): Promise<void> {
  const exit = await server.stop(signal);
  assert.deepEqual(exit, { code: 0, signal: null }, `${signal}: exit 0\nstderr: ${server.stderr()}`);
  assert.match(server.stderr(), /Stopping the admin API/);
  assert.ok(await portFree(server.port), `${signal}: port ${server.port} is free again`);
}

describe('mockdev ui (spawned)', { concurrency: true }, () => {
  it('answers health; refuses a foreign Host, a foreign Origin and a form post; shares the data dir with the CLI; stops on SIGINT', async (t) => {
    const s = await ui(t);
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const api = `${s.url}/api/v1`;

    const health = await http(`${api}/health`);
    assert.equal(health.status, 200, health.body);
    assert.equal((health.json as Json).status, 'ok');
    assert.match((health.json as Json).version as string, /^\d+\.\d+\.\d+/);

    const rebound = await http(`${api}/projects`, { headers: { Host: 'evil.example' } });
    assert.equal(rebound.status, 403, rebound.body);
    assert.match(rebound.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal((rebound.json as Json).code, 'FORBIDDEN_HOST');

    const foreign = await http(`${api}/projects`, { headers: { Origin: 'http://evil.example' } });
    assert.equal(foreign.status, 403, foreign.body);
    assert.equal((foreign.json as Json).code, 'FORBIDDEN_ORIGIN');
    const own = await http(`${api}/projects`, { headers: { Origin: s.url } });
    assert.equal(own.status, 200, own.body);
    const ownByName = await http(`${api}/projects`, { headers: { Origin: `http://localhost:${s.port}` } });
    assert.equal(ownByName.status, 200, ownByName.body);

    // What a plain HTML form (or a text/plain fetch) can send changes nothing.
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const form = await http(`${api}/projects`, {
        method: 'POST',
        headers: { 'Content-Type': type, Origin: s.url },
        body: type.startsWith('application/x-www') ? 'name=Forged' : '{"name":"Forged"}',
      });
      assert.equal(form.status, 415, `${type}: ${form.body}`);
      assert.equal((form.json as Json).code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    assert.deepEqual((await http(`${api}/projects`)).json, [], 'no project was created');

    // The CLI's change is seen by the API, and the API's by the CLI.
    const byCli = await runCli(['project', 'create', 'From CLI', '--json'], { dataDir: s.dataDir });
    assert.equal(byCli.code, 0, byCli.stderr);
    const cliProject = json<Json>(byCli);
    const listed = await http(`${api}/projects`);
    assert.deepEqual(
      (listed.json as Json[]).map((p) => p.id),
      [cliProject.id],
    );
    const byApi = await http(`${api}/projects`, { method: 'POST', body: { name: 'From API' } });
    assert.equal(byApi.status, 201, byApi.body);
    const list = await runCli(['list', '--json'], { dataDir: s.dataDir });
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      json<Json[]>(list).map((p) => p.name),
      ['From CLI', 'From API'],
    );

    await stopsCleanly(s, 'SIGINT');
  });

  it('with --token: no token or a wrong one is 401, the token is 200; stops on SIGTERM', async (t) => {
    const s = await ui(t, ['--token', 's3cret-token']);
    const url = `${s.url}/api/v1/projects`;
    const none = await http(url);
    assert.equal(none.status, 401, none.body);
    assert.equal((none.json as Json).code, 'UNAUTHORIZED');
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await http(url, { headers: { Authorization: 'Bearer s3cret-tokem' } });
    assert.equal(wrong.status, 401, wrong.body);
    const post = await http(url, { method: 'POST', body: { name: 'Nope' } });
    assert.equal(post.status, 401, post.body);
    const right = await http(url, { headers: { Authorization: 'Bearer s3cret-token' } });
    assert.equal(right.status, 200, right.body);
    assert.deepEqual(right.json, [], 'the refused POST created nothing');
    assert.doesNotMatch(s.stderr() + s.stdout(), /s3cret-token/, 'the token is never printed');

    // A browser signs in once; its cookie then opens the event stream (EventSource sends no headers).
    const signIn = await http(`${s.url}/api/v1/session`, { method: 'POST', body: { token: 's3cret-token' } });
    assert.equal(signIn.status, 204, signIn.body);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const streamStatus = (headers: Record<string, string>) =>
      new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
        const req = request(`${s.url}/api/v1/events`, { headers }, (res) => {
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] });
          req.destroy();
        });
        req.setTimeout(10_000, () => req.destroy(new Error('the event stream did not answer')));
        req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
        req.end();
      });
    const opened = await streamStatus({ cookie });
    assert.equal(opened.status, 200);
    assert.match(opened.type ?? '', /^text\/event-stream/);
    assert.equal((await streamStatus({})).status, 401);
    await stopsCleanly(s, 'SIGTERM');
  });

  it('with MOCKDEV_UI_TOKEN: the same token check', async (t) => {
    const s = await ui(t, [], { MOCKDEV_UI_TOKEN: 'from-env' });
    const url = `${s.url}/api/v1/health`;
    assert.equal((await http(url)).status, 401);
    assert.equal((await http(url, { headers: { Authorization: 'Bearer nope' } })).status, 401);
    const right = await http(url, { headers: { Authorization: 'Bearer from-env' } });
    assert.equal(right.status, 200, right.body);
    await stopsCleanly(s, 'SIGTERM');
  });

  it('--open hands its URL to the desktop opener (xdg-open); without one it warns and keeps serving', async (t) => {
    const bin = tempDir('mockdev-opener-');
    t.after(bin.cleanup);
    const opened = join(bin.dir, 'opened.txt');
    writeFileSync(join(bin.dir, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const s = await ui(t, ['--open'], { PATH: `${bin.dir}:${process.env.PATH ?? ''}` });
    const url = await waitUntil(
      () => existsSync(opened) && readFileSync(opened, 'utf8'),
      'the opener to be called',
    );
    assert.equal(url, s.url);

    const none = await ui(t, ['--open'], { PATH: bin.dir.replace(/$/, '-none') });
    await waitUntil(() => /Could not open a browser/.test(none.stderr()), 'the warning');
    assert.equal((await http(`${none.url}/api/v1/health`)).status, 200);
  });

  it('refuses to start: a non-loopback --host without a token (2), a bad port (2), a busy port (4)', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-ui-');
    t.after(cleanup);
    const run = (args: string[], env: Record<string, string | undefined> = {}) =>
      runCli(['ui', ...args], {
        dataDir: dir,
        env: { MOCKDEV_UI_TOKEN: undefined, ...env },
        timeoutMs: 20_000,
      });

    const [open, low, word, busyPort] = await Promise.all([
      run(['--host', '0.0.0.0', '-p', '0']),
      run(['-p', '80']),
      run(['-p', 'abc']),
      (async () => {
        const blocker = createServer();
        await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
        t.after(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
        const port = (blocker.address() as { port: number }).port;
        return { port, result: await run(['-p', String(port)]) };
      })(),
    ]);
    assertCliError(open, 2, /0\.0\.0\.0 .*needs a token.*MOCKDEV_UI_TOKEN.*--token-file <FILE>.*--token -/);
    assertCliError(low, 2, /--port 80: must be from 1024 to 65535/);
    assertCliError(word, 2, /--port "abc"/);
    assertCliError(busyPort.result, 4, new RegExp(`${busyPort.port}`));
  });
});
