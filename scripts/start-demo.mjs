#!/usr/bin/env node
// `npm start`: creates a demo project with the example endpoints in a temp data directory
// and lists it. (Serving it arrives with the mock server.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const dataDir = process.env.MOCKDEV_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mockdev-demo-'));
const demo = join(dataDir, 'demo');
const run = (...args) => {
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env: { ...process.env, MOCKDEV_DATA_DIR: dataDir } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('init', demo, '--name', 'demo', '--with-examples', '--force');
run('endpoint', 'list', demo);
