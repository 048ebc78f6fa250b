#!/usr/bin/env node
// `npm start`: serves a demo project (the `init --with-examples` endpoints) on 127.0.0.1:3001.
// Data lives in $MOCKDEV_DATA_DIR when set, else in a fresh temp folder. PORT overrides 3001.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const dataDir = process.env.MOCKDEV_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mockdev-demo-'));
const env = { ...process.env, MOCKDEV_DATA_DIR: dataDir };
const demo = join(dataDir, 'demo');
const port = process.env.PORT ?? '3001';
const init = spawnSync(
  process.execPath,
  [cli, 'init', demo, '--name', 'demo', '--with-examples', '--force'],
  { stdio: ['ignore', 'ignore', 'inherit'], env },
);
if (init.status !== 0) process.exit(init.status ?? 1);
console.log(`Data directory: ${dataDir}`);
const server = spawn(process.execPath, [cli, 'serve', demo, '-p', port, '--host', '127.0.0.1'], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
