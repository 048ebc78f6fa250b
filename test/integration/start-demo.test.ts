/**
 * `npm start` (scripts/start-demo.mjs): the demo project is made once and served again on the
 * next runs, beside the web UI (both URLs printed), in mockdev's usual data directory (here a temp one, through the variables that
 * point the platform's data folder elsewhere), so the CLI reaches it by name.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveDataDir } from '../../src/store/fs/data-dir.js';
import { json, ROOT, tempDir } from '../helpers/cli.js';
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

describe('npm start (the demo)', () => {
  it('reuses its demo project across runs: the same id, and the request log of the first run', async (t) => {
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
    };
    // Where the CLI itself puts its data with that environment: the script must agree.
    const dataDir = resolveDataDir(env);
    const cli = (args: string[]) => runCliInProcess(args, { dataDir });
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

    const start = async (): Promise<Run> => {
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
      const both = /Demo mock server: (http:\/\/\S+)\nWeb UI: +(http:\/\/\S+)/;
      await waitUntil(() => both.test(out) || code !== undefined, 'the demo and the UI to be served', 20_000);
      const m = both.exec(out);
      assert.ok(m, `the demo and the UI are served, both URLs printed (exit ${code}):\n${out}`);
      assert.match(out, new RegExp(`Serving "demo" at ${m[1]}`));
      run.url = m[1]!;
      run.uiUrl = m[2]!;
      return run;
    };
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
});
