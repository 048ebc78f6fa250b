#!/usr/bin/env node
// `npm test`: the type check, the lint (layer rule included) and the format check, then every test
// with Node's built-in runner (TypeScript through tsx): unit tests next to the code
// (src/**/*.test.ts, ui/src/**/*.test.ts), contract suites (test/contract), integration tests (test/**/*.test.ts) and
// the browser tests of the web UI (test/e2e, with chromium).
// Usage: node scripts/run-tests.mjs [filter...]   (a filter keeps test files whose path contains
// it, and skips the checks)
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
const files = ['src', 'test', 'ui']
  .flatMap((d) => walk(join(root, d)))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command; resolves with its exit code and, when `quiet`, what it printed. */
const run = (cmd, args, { quiet = false, env = process.env } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (quiet)
      for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });

if (filters.length === 0) {
  const checks = [
    ['type check (tsc --noEmit)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
    ['type check of the web UI (tsc -p ui)', bin('tsc'), ['-p', 'ui/tsconfig.json']],
    ['type check of the web UI unit tests', bin('tsc'), ['-p', 'ui/tsconfig.test.json']],
    ['lint (eslint)', bin('eslint'), ['.']],
    ['format (prettier --check)', bin('prettier'), ['--check', '.']],
  ];
  const started = Date.now();
  const results = await Promise.all(checks.map(([, cmd, args]) => run(cmd, args, { quiet: true })));
  let failed = false;
  results.forEach(({ code, out }, i) => {
    if (code === 0) return;
    failed = true;
    console.error(`\n${checks[i][0]} failed:\n${out}`);
  });
  if (failed) {
    console.error('Fix the problems above (npm run format fixes formatting) and run npm test again.');
    process.exit(1);
  }
  console.log(
    `# checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${checks.map((c) => c[0]).join(', ')}`,
  );
}

// The browser tests (test/e2e) drive Debian's chromium: install it first when missing (as root),
// or stop here naming the package. They never skip.
if (files.some((f) => f.startsWith('test/e2e/'))) {
  const { ensureChromium } = await import('./ensure-chromium.mjs');
  if (!ensureChromium()) process.exit(1);
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
