#!/usr/bin/env node
// Runs every test with Node's built-in runner (TypeScript through tsx):
// unit tests next to the code (src/**/*.test.ts) and integration tests (test/**/*.test.ts).
// Usage: node scripts/run-tests.mjs [filter...]   (a filter keeps files whose path contains it)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap((d) => walk(join(root, d)))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, MOCKDEV_TEST: '1' } },
);
const timer = setTimeout(() => {
  console.error('Test run exceeded 20 minutes; stopping it.');
  child.kill('SIGKILL');
}, 20 * 60_000);
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  process.exit(code ?? (signal ? 1 : 0));
});
