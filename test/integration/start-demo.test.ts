/**
 * `npm start` (scripts/start-demo.mjs): the demo project is made once and served again on the
 * next runs, beside the web UI (both URLs printed once both are up, after the servers' own
 * output, "Press Ctrl+C" once), in mockdev's usual data directory (here a temp one, through the
 * variables that point the platform's data folder elsewhere), so the CLI reaches it by name. The
 * demo shows templates, a variation chosen by a rule, a delay and a flow; a busy port names the
 * variable that moves it (PORT, UI_PORT).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { resolveDataDir } from '../../src/store/fs/data-dir.js';
import { json, ROOT, tempDir, type CliResult } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { waitUntil } from '../helpers/wait.js';

interface Run {
  url: string;
  uiUrl: string;
  out: () => string;
  exited: Promise<number | null>;
  pid: number;
  running: () => boolean;
}

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
};

/** A temp home for `npm start`: its data dir, the CLI on it, and runs stopped (by pid) at the end. */
function demoSandbox(t: TestContext, vars: Record<string, string> = {}) {
  const tmp = tempDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MOCKDEV_DATA_DIR: undefined,
    MOCKDEV_LOG_LEVEL: undefined,
    HOME: tmp.dir,
    XDG_DATA_HOME: join(tmp.dir, 'xdg'),
    APPDATA: join(tmp.dir, 'appdata'),
    PORT: '0',
    UI_PORT: '0',
    ...vars,
  };
  // Where the CLI itself puts its data with that environment: the script must agree.
  const dataDir = resolveDataDir(env);
  const cli = (args: string[]): Promise<CliResult> => runCliInProcess(args, { dataDir });
  const runs: Run[] = [];
  t.after(async () => {
    try {
      // The servers first (the script forwards a signal to its server, but a stop is certain).
      await cli(['stop']);
    } finally {
      for (const r of runs.filter((x) => x.running())) {
        signal(r.pid, 'SIGTERM');
        const timer = setTimeout(() => signal(r.pid, 'SIGKILL'), 10_000);
        await r.exited;
        clearTimeout(timer);
      }
      tmp.cleanup();
    }
  });

  /** Runs `npm start`'s script; `served` false: it is expected to end without serving. */
  const start = async (served = true): Promise<Run> => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start-demo.mjs')], {
      cwd: tmp.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    let code: number | null | undefined;
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (c) => {
        code = c;
        resolve(c);
      }),
    );
    const run: Run = {
      url: '',
      uiUrl: '',
      out: () => out,
      exited,
      pid: child.pid!,
      running: () => code === undefined,
    };
    runs.push(run);
    if (!served) return run;
    const both = /Demo mock server: (http:\/\/\S+)\nWeb UI: +(http:\/\/\S+)/;
    await waitUntil(() => both.test(out) || code !== undefined, 'the demo and the UI to be served', 30_000);
    const m = both.exec(out);
    assert.ok(m, `the demo and the UI are served, both URLs printed (exit ${code}):\n${out}`);
    assert.match(out, new RegExp(`Serving "demo" at ${m[1]}`));
    run.url = m[1]!;
    run.uiUrl = m[2]!;
    return run;
  };
  return { start, cli, dataDir };
}

const listening = async (): Promise<Server> => {
  const server = createServer((_req, res) => res.end('taken'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

describe('npm start (the demo)', () => {
  it('reuses its demo project across runs: the same id, and the request log of the first run', async (t) => {
    const { start, cli, dataDir } = demoSandbox(t);
    const demoId = async () => {
      const status = json<{ projectName: string; projectId: string }[]>(await cli(['status', '--json']));
      assert.deepEqual(
        status.map((s) => s.projectName),
        ['demo'],
      );
      return status[0]!.projectId;
    };
    const logged = async () =>
      json<{ path: string }[]>(await cli(['requests', 'list', 'demo', '--json'])).map((r) => r.path);

    const first = await start();
    assert.match(first.out(), new RegExp(`Data directory: ${dataDir}`));
    assert.match(first.out(), /Demo project: .*demo \(new\)/);
    assert.match(
      first.out(),
      /As a desktop app: .*`mockdev ui --app`/,
      'it says how to have the UI in a window',
    );
    const id = await demoId();
    assert.equal((await fetch(`${first.url}/health`)).status, 200);
    // The web UI is up beside it, and its API sees the demo project.
    assert.match(await (await fetch(`${first.uiUrl}/`)).text(), /<div id="root">/);
    const projects = (await (await fetch(`${first.uiUrl}/api/v1/projects`)).json()) as { name: string }[];
    assert.deepEqual(
      projects.map((p) => p.name),
      ['demo'],
    );
    await waitUntil(async () => (await logged()).join() === '/health', 'the first run to be logged');
    const stopped = await cli(['stop', 'demo']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.equal(await first.exited, 0, 'npm start ends (the UI with it) when the demo server is stopped');

    const second = await start();
    assert.match(second.out(), /Demo project: .*demo \(from an earlier run\)/);
    assert.equal(await demoId(), id, 'the same demo project');
    assert.equal((await fetch(`${second.url}/api/users`)).status, 200);
    await waitUntil(
      async () => (await logged()).join() === '/api/users,/health',
      'the second run logged after the first',
    );
    process.kill(second.pid, 'SIGTERM');
    assert.equal(await second.exited, 0);
    assert.deepEqual(await logged(), ['/api/users', '/health'], 'the log after both runs');
    assert.deepEqual(
      json<{ id: string; name: string }[]>(await cli(['list', '--json'])).map((p) => [p.id, p.name]),
      [[id, 'demo']],
    );
  });

  it('prints the URLs once both are up, after the tables, and "Press Ctrl+C" once', async (t) => {
    const { start } = demoSandbox(t);
    const run = await start();
    await waitUntil(() => run.out().includes('Press Ctrl+C'), 'the last line');
    // Whatever the servers print later (nothing, until a stop), the summary is the last of it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const out = run.out();
    assert.equal(out.match(/Ctrl\+C/g)?.length, 1, `"Press Ctrl+C" once:\n${out}`);
    const summary = out.indexOf('Demo mock server:');
    for (const line of [`${run.url}/health`, 'Requests are logged', 'admin API on'])
      assert.ok(out.indexOf(line) < summary, `"${line}" before the summary:\n${out}`);
    assert.match(out, /Press Ctrl\+C to stop both\.\n$/, 'the summary ends the output');
  });

  it('serves a demo that shows templates, a variation chosen by a rule, a delay and a flow', async (t) => {
    const { start, cli } = demoSandbox(t);
    const { url } = await start();
    const user = await fetch(`${url}/api/users/42`);
    assert.equal(user.status, 200);
    const body = (await user.json()) as { id: number; name: string };
    assert.equal(body.id, 42, 'user 42');
    assert.deepEqual(await (await fetch(`${url}/api/users/42`)).json(), body, 'the same user 42 every time');
    const notFound = await fetch(`${url}/api/users/abc`);
    assert.equal(notFound.status, 404, 'the variation its rule chose');
    assert.deepEqual(await notFound.json(), { error: 'No user has the id abc' });
    const created = await fetch(`${url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ann', role: 'admin' }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(((await created.json()) as { received: unknown }).received, {
      name: 'Ann',
      role: 'admin',
    });
    const began = Date.now();
    assert.equal((await fetch(`${url}/api/reports/monthly`)).status, 200);
    assert.ok(Date.now() - began >= 1400, `delayed (${Date.now() - began} ms)`);
    const order = await fetch(`${url}/api/orders`, { method: 'POST' });
    assert.equal(order.status, 202);
    const { id } = (await order.json()) as { id: string };
    const webhook = await waitUntil(
      async () =>
        json<{ method: string; path: string; body: string | null }[]>(
          await cli(['requests', 'list', 'demo', '--path', '/api/webhooks/orders', '--json']),
        )[0],
      "the flow's webhook to be logged",
      20_000,
    );
    assert.equal(webhook.method, 'POST');
    assert.deepEqual(JSON.parse(webhook.body ?? ''), { id, status: 'shipped' });
  });

  for (const variable of ['PORT', 'UI_PORT'])
    it(`on a busy port names ${variable} as the fix (exit 4), and leaves nothing running`, async (t) => {
      const busy = await listening();
      t.after(() => busy.close());
      const port = (busy.address() as AddressInfo).port;
      const { start, cli } = demoSandbox(t, { [variable]: String(port) });
      const run = await start(false);
      assert.equal(await run.exited, 4, run.out());
      assert.match(
        run.out(),
        new RegExp(
          `npm start: port ${port} is already in use on 127\\.0\\.0\\.1\\. Set ${variable} to another port \\(${variable}=${port + 1} npm start; ${variable}=0 picks a free one\\)`,
        ),
      );
      assert.doesNotMatch(run.out(), /--port/, 'not the command option, which npm start does not take');
      assert.deepEqual(json(await cli(['status', '--json'])), [], 'nothing left running');
    });
});
