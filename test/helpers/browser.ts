import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { json, runCli, tempDir, type CliResult } from './cli.js';
import { startUi, type UiHandle } from './ui.js';

/**
 * The browser tests' harness: Debian's chromium driven by playwright-core against a real
 * `mockdev ui` on a temp data dir (its own free port). `npm test` installs chromium first
 * (scripts/ensure-chromium.mjs); a missing browser fails the test, never skips it.
 */
export const CHROMIUM = process.env.MOCKDEV_CHROMIUM || '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
    timeout: 30_000,
  });
}

export interface UiSession {
  dataDir: string;
  ui: UiHandle;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The UI's origin, http://127.0.0.1:PORT. */
  url: string;
  /** Runs the CLI on the same data directory. */
  cli: (args: string[]) => Promise<CliResult>;
  /** Runs the CLI with --json and parses its output (asserting exit 0). */
  cliJson: <T = unknown>(args: string[]) => Promise<T>;
  /** Opens a path of the UI and waits until the app has rendered. */
  open: (path?: string) => Promise<void>;
  close: () => Promise<void>;
}

export interface UiSessionOptions {
  /** Extra `mockdev ui` arguments (e.g. --token). */
  uiArgs?: string[];
  env?: Record<string, string | undefined>;
  /** The settings' colour scheme the browser reports (prefers-color-scheme). */
  colorScheme?: 'light' | 'dark';
  /** Runs before `mockdev ui` starts (seed data through the CLI). */
  seed?: (cli: (args: string[]) => Promise<CliResult>) => Promise<void>;
}

/** A temp data dir, `mockdev ui` on it, and a browser page. `close()` ends all three. */
export async function openUiSession(options: UiSessionOptions = {}): Promise<UiSession> {
  const { dir: dataDir, cleanup } = tempDir('mockdev-e2e-');
  const cli = (args: string[]) => runCli(args, { dataDir, env: options.env });
  const cliJson = async <T>(args: string[]) => {
    const r = await cli([...args, '--json']);
    assert.equal(r.code, 0, `mockdev ${args.join(' ')} --json: ${r.stderr}`);
    return json<T>(r);
  };
  let ui: UiHandle | undefined;
  let browser: Browser | undefined;
  try {
    await options.seed?.(cli);
    ui = await startUi(options.uiArgs ?? [], { dataDir, env: options.env });
    browser = await launchBrowser();
    const context = await browser.newContext({
      colorScheme: options.colorScheme ?? 'light',
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const url = ui.url;
    const open = async (path = '/') => {
      await page.goto(`${url}${path}`);
      await page.locator('.app, .sign-in').first().waitFor();
    };
    const started = { ui, browser };
    return {
      dataDir,
      ui,
      browser,
      context,
      page,
      url,
      cli,
      cliJson,
      open,
      close: async () => {
        await started.browser.close().catch(() => undefined);
        await started.ui.stop();
        cleanup();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await ui?.stop();
    cleanup();
    throw e;
  }
}

const axeSource = (): string =>
  readFileSync(join(createRequire(import.meta.url).resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation, naming
 * each rule and the elements. (Evaluated through the DevTools protocol, so the page's CSP stays
 * as served.)
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe found serious or critical violations on ${what}`,
  );
}
