#!/usr/bin/env node
// `npm start`: serves the demo project (the `init --with-examples` endpoints) on 127.0.0.1:3001.
// The demo is the project folder <data dir>/demo: made on the first run, served as it is on the
// next ones (same id, same request log, your edits kept; delete the folder to start afresh). The
// data directory is mockdev's usual one ($MOCKDEV_DATA_DIR when set), so `mockdev status`,
// `mockdev requests list demo` and `mockdev stop demo` in another terminal reach it. PORT
// overrides 3001.
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
const server = spawn(process.execPath, [cli, 'serve', demo, '-p', port, '--host', '127.0.0.1'], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
