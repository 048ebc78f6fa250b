import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { http } from '../helpers/ui.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

/** How long a request may take to show in the charts (they refresh at most once a second; the machine is busy). */
const LIVE = 5000;

describe('web UI: the request log charts', () => {
  let s: UiSession;
  let mock: string;
  let projectId: string;
  const scripts: string[] = [];

  const charts = () => s.page.getByRole('region', { name: 'Traffic' });
  const legendCount = (cls: string) =>
    charts()
      .getByRole('list', { name: 'Requests by response class' })
      .getByRole('listitem')
      .filter({ hasText: cls });
  const countsAre = (want: Record<string, number>) =>
    waitUntil(
      async () => {
        for (const [cls, n] of Object.entries(want))
          if ((await legendCount(cls).textContent())?.replace(/\s+/g, ' ').trim() !== `${cls} ${n}`)
            return false;
        return true;
      },
      `the legend counts ${JSON.stringify(want)}`,
      LIVE,
    );
  const rateImage = () => charts().getByRole('img', { name: /^Requests per second by response class:/ });
  const latencyImage = () => charts().getByRole('img', { name: /^Latency histogram:/ });
  const setTheme = (theme: 'light' | 'dark') =>
    http(`${s.url}/api/v1/settings`, { method: 'PATCH', body: { theme } }).then((r) =>
      assert.equal(r.status, 200, r.body),
    );
  /** The page is no wider than the window, and each chart fits its box (once redrawn for the width). */
  const fits = (what: string) =>
    waitUntil(
      async () => {
        const overflow = await s.page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        if (overflow > 0) return false;
        for (const box of await charts().locator('.chart-box').all()) {
          const outer = await box.boundingBox();
          const canvas = await box.locator('canvas').first().boundingBox();
          if (!outer || !canvas || canvas.width < 200) return false;
          if (canvas.x < outer.x - 1 || canvas.x + canvas.width > outer.x + outer.width + 1) return false;
        }
        return true;
      },
      `${what}: the page no wider than the window, each chart drawn inside its box`,
      LIVE,
    );

  before(async () => {
    ({ s, shop: projectId } = await openShopSession({
      seed: async (cli) => {
        await cli(['endpoint', 'add', 'Shop', '-p', '/ok', '-b', '{}']);
        await cli(['endpoint', 'add', 'Shop', '-p', '/slow', '--delay', '150', '-b', '{}']);
        await cli(['endpoint', 'add', 'Shop', '-m', 'POST', '-p', '/fail', '-s', '503', '-b', 'down']);
      },
    }));
    mock = await startMockServer(s, 'Shop');
    s.page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
  });
  after(() => s?.close());

  it('loads the chart library only when the request log is opened', async () => {
    await s.open(`/projects/${projectId}/endpoints`);
    await s.page.getByRole('tree', { name: 'Endpoints' }).waitFor();
    assert.deepEqual(
      scripts.filter((p) => /uplot/i.test(p)),
      [],
      'not with the first screen',
    );
    await s.page.getByRole('link', { name: 'Request log' }).click();
    await charts().waitFor();
    await waitUntil(async () => scripts.some((p) => /uplot/i.test(p)), 'the charts chunk loaded', LIVE);
  });

  it('says there is nothing yet, then counts each request live by status class, with p50/p95/p99', async () => {
    await rateImage()
      .and(s.page.getByRole('img', { name: /No requests in the past 15 minutes/ }))
      .waitFor();
    await latencyImage().getByText('No latencies to show.').waitFor();
    await countsAre({ '2xx': 0, '5xx': 0 });
    for (const [method, path] of [
      ['GET', '/ok'],
      ['GET', '/ok'],
      ['GET', '/ok'],
      ['GET', '/slow'],
      ['POST', '/fail'],
      ['POST', '/fail'],
      ['GET', '/nowhere'],
    ])
      assert.ok((await http(`${mock}${path}`, { method })).status >= 200);
    await countsAre({ '2xx': 4, '3xx': 0, '4xx': 1, '5xx': 2 });
    await rateImage()
      .and(s.page.getByRole('img', { name: /7 requests in the past 15 minutes \(4 2xx, 1 4xx, 2 5xx\)/ }))
      .waitFor();
    const latency = await charts().locator('.chart-percentiles').innerText();
    const [, p50, p95, p99] = /^p50 (.+), p95 (.+), p99 (.+) over 7 requests\.$/.exec(latency) ?? [];
    assert.ok(p99, `the percentiles are said: ${latency}`);
    assert.match(p99, /^1\d\d ms$/, 'p99 is the delayed answer');
    assert.doesNotMatch(p50!, /^1\d\d ms$/, 'p50 is not');
    assert.ok(p95);
    assert.equal((await charts().locator('canvas').count()) >= 2, true, 'both charts are drawn');
    await fits('1280 px');
    await assertAccessible(s.page, 'the request log with its charts (light)');
  });

  it('follows the filters in force and the window chosen', async () => {
    await s.page.locator('#filter-status').selectOption('5xx');
    await countsAre({ '2xx': 0, '4xx': 0, '5xx': 2 });
    await charts()
      .locator('.chart-percentiles')
      .getByText(/over 2 requests/)
      .waitFor({ timeout: LIVE });
    await s.page.locator('#filter-status').selectOption('');
    await s.page.getByLabel('Path contains').fill('ok');
    await countsAre({ '2xx': 3, '4xx': 0, '5xx': 0 });
    await s.page.getByLabel('Path contains').fill('');
    await countsAre({ '2xx': 4, '4xx': 1, '5xx': 2 });
    await s.page.locator('#charts-window').selectOption('60');
    await s.page.getByRole('img', { name: /7 requests in the past 60 minutes/ }).waitFor({ timeout: LIVE });
    await s.page.locator('#charts-window').selectOption('15');
  });

  it('fits at 900 px and passes axe in both themes at both widths', async () => {
    await setTheme('dark');
    await s.page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await fits('1280 px, dark');
    await assertAccessible(s.page, 'the request log with its charts (dark, 1280 px)');
    await s.page.setViewportSize({ width: 900, height: 800 });
    await fits('900 px, dark');
    await assertAccessible(s.page, 'the request log with its charts (dark, 900 px)');
    await setTheme('light');
    await s.page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await fits('900 px, light');
    await assertAccessible(s.page, 'the request log with its charts (light, 900 px)');
    // With a request's detail open beside it, the table scrolls within its column: its last
    // column (the star) can be reached, never under the detail.
    const rows = s.page.getByRole('table', { name: 'Logged requests, newest first' }).locator('tbody tr');
    await rows.first().getByRole('button', { name: '/nowhere', exact: true }).click();
    await s.page.getByRole('region', { name: /GET \/nowhere → 404/ }).waitFor();
    const star = rows.first().getByRole('button', { name: /^Star GET \/nowhere/ });
    await star.click({ timeout: 3000 });
    await waitUntil(
      async () => (await star.getAttribute('aria-pressed')) === 'true',
      'the request starred',
      LIVE,
    );
    await s.page.getByRole('button', { name: 'Close' }).click();
    await s.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('goes back to zero when the log is cleared', async () => {
    await s.page.getByRole('button', { name: 'Clear log…' }).click();
    await s.page.getByRole('dialog').getByRole('button', { name: 'Clear log' }).click();
    await countsAre({ '2xx': 0, '4xx': 0, '5xx': 0 });
    await latencyImage().getByText('No latencies to show.').waitFor({ timeout: LIVE });
  });
});
