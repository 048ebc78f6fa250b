// The web UI measurement of `npm run bench` (issue 14): the size of dist/ui as `mockdev ui`
// sends it (each file gzipped at level 9, as src/api/ui-files.ts serves it) against the budget
// of 250 KB, and the time to the first interactive screen against the target of 1 s: a spawned
// `mockdev ui` over a project of 1,000 endpoints, and Debian's chromium (playwright-core)
// opening /projects/<id>/endpoints in a fresh browser context each run (no cache). The time is
// the page's own clock (performance.now(), from the navigation's start) when the endpoint tree's
// first row is in the page with its data: React renders and attaches its handlers in the same
// task, so the screen answers clicks from then on. Median and slowest of BENCH_UI_RUNS (7).
// The functions given to page.addInitScript, waitForFunction and evaluate run in the browser.
/* global window, document, MutationObserver */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { endpoints } from './bench-api.mjs';
import { chromiumPath, ensureChromium } from './ensure-chromium.mjs';

const BUDGET_KB = 250;
const TARGET_MS = 1000;

/** Every file of dist/ui with its size as sent (gzipped) and as stored. */
export function uiBundleSize(root) {
  const dir = join(root, 'dist', 'ui');
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const body = readFileSync(full);
        files.push({
          file: relative(dir, full),
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        });
      }
    }
  };
  walk(dir);
  const gzip = files.reduce((n, f) => n + f.gzip, 0);
  const raw = files.reduce((n, f) => n + f.raw, 0);
  return { files, gzip, raw };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureUi({ root, cli, env: baseEnv, runs = 7 }) {
  const lines = [];
  const size = uiBundleSize(root);
  const kb = (n) => (n / 1024).toFixed(1);
  lines.push(
    `Web UI bundle: ${kb(size.gzip)} KB gzipped (${kb(size.raw)} KB as stored), budget ${BUDGET_KB} KB: ${size.gzip / 1024 <= BUDGET_KB ? 'ok' : 'OVER'}`,
  );
  for (const f of size.files.sort((a, b) => b.gzip - a.gzip))
    lines.push(`  ${f.file}: ${kb(f.gzip)} KB gzipped (${kb(f.raw)} KB)`);
  if (!ensureChromium()) return { lines: [...lines, 'First screen: not measured (no chromium)'], ok: false };

  const { chromium } = await import('playwright-core');
  const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-bench-ui-'));
  const env = { ...baseEnv, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'info' };
  delete env.MOCKDEV_UI_TOKEN;
  let child;
  let browser;
  try {
    const mockdev = (...args) => execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    const project = JSON.parse(mockdev('project', 'create', 'uibench', '--json'));
    writeFileSync(
      join(dataDir, 'projects', project.id, 'endpoints.json'),
      JSON.stringify(endpoints(), null, 2),
    );
    child = spawn(process.execPath, [cli, 'ui', '-p', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    const deadline = Date.now() + 20_000;
    let url;
    while (!(url = /admin API on (http:\/\/[^\s)]+)/.exec(out)?.[1])) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`mockdev ui did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const times = [];
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (document.querySelector('[role="tree"] [role="treeitem"]')) {
            window.__firstScreen = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${url}/projects/${project.id}/endpoints`);
      await page.waitForFunction(() => window.__firstScreen !== undefined, null, { timeout: 30_000 });
      const ms = await page.evaluate(() => window.__firstScreen);
      if (i > 0) times.push(ms); // the first run warms the server and the browser up
      await context.close();
    }
    const med = median(times);
    const max = Math.max(...times);
    lines.push(
      `First interactive screen (1,000 endpoints, cold browser context): median ${med.toFixed(0)} ms, slowest ${max.toFixed(0)} ms of ${runs}, target < ${TARGET_MS} ms: ${max < TARGET_MS ? 'ok' : med < TARGET_MS ? 'median ok' : 'OVER'}`,
    );
    return { lines, ok: size.gzip / 1024 <= BUDGET_KB && med < TARGET_MS };
  } finally {
    await browser?.close().catch(() => undefined);
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((r) => child.on('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
