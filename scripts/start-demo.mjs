#!/usr/bin/env node
// `npm start`: serves the demo project (the `init --with-examples` endpoints) on 127.0.0.1:3001,
// and the web UI (`mockdev ui`) on 127.0.0.1:3200, printing both URLs.
// The demo is the project folder <data dir>/demo: made on the first run, served as it is on the
// next ones (same id, same request log, your edits kept; delete the folder to start afresh). The
// data directory is mockdev's usual one ($MOCKDEV_DATA_DIR when set), so `mockdev status`,
// `mockdev requests list demo` and `mockdev stop demo` in another terminal reach it. PORT
// overrides 3001, UI_PORT the UI's port (default: the uiPort setting, 3200). When either process
// ends (`mockdev stop demo`, a busy port), the other is stopped and its exit code is ours.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

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
if (!reused) {
  const init = spawnSync(process.execPath, [cli, 'init', demo, '--name', 'demo', '--with-examples'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (init.status !== 0) process.exit(init.status ?? 1);
}
console.log(`Data directory: ${dataDir}`);
console.log(`Demo project: ${demo}${reused ? ' (from an earlier run)' : ' (new)'}`);
const children = [];
let exiting = false;
/** Runs one mockdev command; its output goes through, and `onLine` sees each line. */
function run(args, onLine) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    from.setEncoding('utf8').on('data', (d) => {
      to.write(d);
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      lines.forEach(onLine);
    });
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

/** How to have the UI as a desktop app (docs/ui.md "A window of its own"). */
const DESKTOP =
  'As a desktop app: "Install mockdev" in the browser\'s address bar, or next time `mockdev ui --app` (its own window)';
const urls = {};
const summary = (name, url) => {
  urls[name] = url;
  if (urls.demo && urls.ui)
    console.log(
      `\nDemo mock server: ${urls.demo}\nWeb UI:           ${urls.ui}\n(Ctrl+C stops both)\n${DESKTOP}`,
    );
};
run(['serve', demo, '-p', port, '--host', '127.0.0.1'], (line) => {
  const m = /Serving "demo" at (http:\/\/\S+)/.exec(line);
  if (m) summary('demo', m[1]);
});
const uiArgs = ['ui', '--host', '127.0.0.1', ...(process.env.UI_PORT ? ['-p', process.env.UI_PORT] : [])];
run(uiArgs, (line) => {
  const m = /admin API on (http:\/\/[^\s)]+)/.exec(line);
  if (m) summary('ui', m[1]);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    exiting = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  });
