#!/usr/bin/env node
// `npm start`: serves the demo project (scripts/demo-project.mjs: the `init --with-examples`
// endpoints, templated, a variation chosen by a rule, a delayed endpoint and a flow) on
// 127.0.0.1:3001, and the web UI (`mockdev ui`) on 127.0.0.1:3200, then prints both URLs once
// both are up, after the servers' own output.
// The demo is the project folder <data dir>/demo: made on the first run, served as it is on the
// next ones (same id, same request log, your edits kept; delete the folder to start afresh). The
// data directory is mockdev's usual one ($MOCKDEV_DATA_DIR when set), so `mockdev status`,
// `mockdev requests list demo` and `mockdev stop demo` in another terminal reach it. PORT
// overrides 3001, UI_PORT the UI's port (default: the uiPort setting, 3200). When either process
// ends (`mockdev stop demo`, a busy port), the other is stopped and its exit code is ours.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEMO_COMMANDS } from './demo-project.mjs';

/** mockdev's data directory: the rule of src/store/fs/data-dir.ts (a test checks they agree). */
function dataDirectory(env, platform = process.platform) {
  const set = (v) => v !== undefined && v.trim() !== '';
  if (set(env.MOCKDEV_DATA_DIR)) return env.MOCKDEV_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'mockdev');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'mockdev');
  return join(set(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share'), 'mockdev');
}

const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const dataDir = dataDirectory(process.env);
const env = { ...process.env, MOCKDEV_DATA_DIR: dataDir };
const demo = join(dataDir, 'demo');
const port = process.env.PORT ?? '3001';
const reused = existsSync(join(demo, 'project.json'));

/** Makes the demo project: `init`, then the commands of demo-project.mjs; nothing half-made is left. */
function makeDemo() {
  for (const args of [['init', demo, '--name', 'demo', '--with-examples'], ...DEMO_COMMANDS]) {
    const made = spawnSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
    if (made.status !== 0) {
      process.stderr.write(made.stderr);
      rmSync(demo, { recursive: true, force: true });
      process.exit(made.status ?? 1);
    }
  }
}
if (!reused) makeDemo();
console.log(`Data directory: ${dataDir}`);
console.log(`Demo project: ${demo}${reused ? ' (from an earlier run)' : ' (new)'}`);

const children = [];
let exiting = false;
/**
 * Runs one mockdev command, passing its output through line by line: `onLine` sees each line and
 * returns what to print instead (a string), or false to print nothing.
 */
function run(args, onLine) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    const flush = (line) => {
      const shown = onLine(line);
      if (shown !== false) to.write(`${shown ?? line}\n`);
    };
    from.setEncoding('utf8').on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      lines.forEach(flush);
    });
    from.on('end', () => rest && flush(rest));
  }
  child.on('exit', (code, signal) => {
    if (exiting) return;
    exiting = true;
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  children.push(child);
  return child;
}

/** A busy port: the variable to set is ours (PORT, UI_PORT), not the command's --port. */
const busyPort = (line, variable) => {
  const m = /Port (\d+) is already in use on (\S+?)\.(\s|$)/.exec(line);
  if (!m) return undefined;
  const next = Number(m[1]) + 1;
  return `npm start: port ${m[1]} is already in use on ${m[2]}. Set ${variable} to another port (${variable}=${next} npm start; ${variable}=0 picks a free one), or stop the process using it`;
};

/** How to have the UI as a desktop app (docs/ui.md "A window of its own"). */
const DESKTOP =
  'As a desktop app: "Install mockdev" in the browser\'s address bar, or next time `mockdev ui --app` (its own window)';

const ready = {};
/** Both servers up: their URLs and how to stop, once, after everything they printed. */
const up = (name, url) => {
  ready[name] = url;
  if (ready.demo && ready.uiUrl && ready.ui)
    console.log(
      [
        '',
        `Demo mock server: ${ready.demo}`,
        `Web UI:           ${ready.uiUrl}`,
        `Try:  curl ${ready.demo}/api/users/42          a templated answer (user 42)`,
        `      curl ${ready.demo}/api/users/abc         a variation chosen by a rule (404)`,
        `      curl ${ready.demo}/api/reports/monthly   a delayed answer (1.5 s)`,
        `      curl -X POST ${ready.demo}/api/orders    a flow: its webhook is logged a second later`,
        DESKTOP,
        'Press Ctrl+C to stop both.',
      ].join('\n'),
    );
};
run(['serve', demo, '-p', port, '--host', '127.0.0.1'], (line) => {
  const served = /Serving "demo" at (http:\/\/\S+)/.exec(line);
  if (served) ready.demoUrl = served[1];
  if (line.startsWith('Requests are logged')) {
    process.stdout.write('Requests are logged (mockdev requests list demo).\n');
    up('demo', ready.demoUrl);
    return false;
  }
  return busyPort(line, 'PORT');
});
const uiArgs = ['ui', '--host', '127.0.0.1', ...(process.env.UI_PORT ? ['-p', process.env.UI_PORT] : [])];
run(uiArgs, (line) => {
  const served = /admin API on (http:\/\/[^\s)]+)/.exec(line);
  if (served) ready.uiUrl = served[1];
  if (line === 'Press Ctrl+C to stop.') {
    up('ui', ready.uiUrl);
    return false;
  }
  return busyPort(line, 'UI_PORT');
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    exiting = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  });
