import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from '../helpers/browser.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { startUi, type UiHandle } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk (bytes 16-23), or undefined for anything not a PNG. */
function pngSize(bytes: number[]): { width: number; height: number } | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) return undefined;
  const at = (i: number) =>
    ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0;
  return { width: at(16), height: at(20) };
}

describe('web UI: an installable web app that starts offline', () => {
  // A browser profile on disk, as an installed app has (an incognito context cannot install).
  let dataDir: string;
  let cleanup: () => void;
  let ui: UiHandle;
  let restarted: UiHandle | undefined;
  let context: BrowserContext;
  let page: Page;
  const s = {
    get url() {
      return ui.url;
    },
    get page() {
      return page;
    },
    get context() {
      return context;
    },
    open: async (path: string) => {
      await page.goto(`${ui.url}${path}`);
      await page.locator('.app, .sign-in').first().waitFor();
    },
  };
  before(async () => {
    ({ dir: dataDir, cleanup } = tempDir('mockdev-e2e-install-'));
    const created = await runCli(['project', 'create', 'Shop', '-p', '4100'], { dataDir });
    assert.equal(created.code, 0, created.stderr);
    ui = await startUi([], { dataDir });
    context = await chromium.launchPersistentContext(join(dataDir, 'browser-profile'), {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      viewport: { width: 1280, height: 800 },
      timeout: 30_000,
    });
    context.setDefaultTimeout(10_000);
    page = context.pages()[0] ?? (await context.newPage());
  });
  after(async () => {
    await context?.close().catch(() => undefined);
    await restarted?.stop();
    await ui?.stop();
    cleanup?.();
  });

  it('has a valid manifest the browser finds installable, with PNG icons of the sizes it asks for', async () => {
    await s.open('/projects');
    const cdp = await s.context.newCDPSession(s.page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string; critical: number }[];
      data?: string;
    };
    assert.equal(manifest.url, `${s.url}/manifest.webmanifest`);
    assert.deepEqual(manifest.errors, [], 'the browser reads the manifest without an error');
    const data = JSON.parse(manifest.data ?? '{}') as {
      name: string;
      start_url: string;
      display: string;
      icons: ManifestIcon[];
    };
    assert.equal(data.name, 'mockdev');
    assert.equal(data.start_url, '/');
    assert.equal(data.display, 'standalone');

    const response = await s.page.request.get(`${s.url}/manifest.webmanifest`);
    assert.equal(response.headers()['content-type'], 'application/manifest+json');

    const pngs = data.icons.filter((i) => i.type === 'image/png');
    for (const wanted of ['192x192', '512x512'])
      assert.ok(
        pngs.some((i) => i.sizes === wanted && (i.purpose ?? 'any').includes('any')),
        `a ${wanted} icon`,
      );
    assert.ok(
      pngs.some((i) => i.purpose === 'maskable'),
      'a maskable icon',
    );
    for (const icon of pngs) {
      const file = await s.page.request.get(`${s.url}${icon.src}`);
      assert.equal(file.status(), 200, icon.src);
      assert.equal(file.headers()['content-type'], 'image/png', icon.src);
      const size = pngSize([...(await file.body())]);
      assert.deepEqual(size && `${size.width}x${size.height}`, icon.sizes, `${icon.src} is ${icon.sizes}`);
    }

    // What Chromium itself checks before it offers "Install": nothing stands in the way.
    await waitUntil(
      async () => {
        const r = (await cdp.send('Page.getInstallabilityErrors')) as {
          installabilityErrors: { errorId: string }[];
        };
        return r.installabilityErrors.length === 0;
      },
      'Chromium to find the UI installable',
      15_000,
    );
    await cdp.detach();
  });

  it('runs a service worker that takes control of the page', async () => {
    await s.page.evaluate(() => navigator.serviceWorker.ready);
    await waitUntil(
      async () =>
        (await s.page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state)) ===
        'activated',
      'the service worker to be activated',
    );
    await waitUntil(
      () => s.page.evaluate(() => navigator.serviceWorker.controller !== null),
      'the service worker to control the page',
    );
    const script = await s.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    assert.equal(script, `${s.url}/sw.js`);
    const cached = await s.page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('mockdev-shell-'))!);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    for (const path of ['/index.html', '/manifest.webmanifest', '/icons/icon-192.png'])
      assert.ok(cached.includes(path), `${path} is kept`);
    assert.ok(
      cached.some((p) => p.startsWith('/assets/') && p.endsWith('.js')),
      'the scripts are kept',
    );
    assert.ok(!cached.some((p) => p.startsWith('/api/')), 'nothing of the admin API is kept');
  });

  it('starts with mockdev ui stopped, says so, and connects once it runs again', async () => {
    const port = ui.port;
    await s.open(`/projects`);
    await ui.stop();
    await s.page.reload();
    const down = s.page.getByRole('alert').filter({ hasText: 'mockdev ui cannot be reached' });
    await down.waitFor();
    assert.match(await down.innerText(), /this page connects as soon as it answers/);
    await s.page.setViewportSize({ width: 900, height: 700 });
    await assertAccessibleInBothThemes(s.page, 'the UI started offline');

    restarted = await startUi(['-p', String(port)], { dataDir });
    await s.page.locator('.app').waitFor({ timeout: 15_000 });
    await s.page.getByRole('link', { name: 'Shop' }).first().waitFor();
  });
});
