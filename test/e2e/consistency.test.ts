import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessibleInBothThemes, projectId } from '../helpers/io.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import type { UiSession } from '../helpers/browser.js';

const WIDTHS = [1280, 900];

/**
 * The UI says one thing one way: the top bar's project is the screen's own, a time reads the
 * same in the log and its detail, and nothing shows a person an API path.
 */
describe('web UI: consistency', () => {
  let s: UiSession;
  let shop: string;
  let beta: string;
  const picker = () => s.page.getByRole('combobox', { name: 'Project' });
  const chosen = () => picker().evaluate((e: HTMLSelectElement) => e.selectedOptions[0]?.text ?? '');

  before(async () => {
    ({ s, shop } = await openShopSession({
      seed: async (cli) => {
        await cli(['project', 'create', 'Beta', '-p', '4101']);
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/users', '-b', '[]']);
      },
    }));
    beta = await projectId(s, 'Beta');
  });
  after(() => s?.close());

  for (const width of WIDTHS)
    it(`shows the screen’s project in the top bar on a direct load, never another (${width} px)`, async () => {
      await s.page.setViewportSize({ width, height: 800 });
      // Shop is the project seen last (remembered); Beta's screen is then loaded directly.
      await s.open(`/projects/${shop}/endpoints`);
      assert.equal(await chosen(), 'Shop');
      await s.open(`/projects/${beta}/requests`);
      await s.page.getByRole('heading', { level: 1, name: 'Request log' }).waitFor();
      assert.equal(await chosen(), 'Beta');
      await s.open('/projects/Beta/flows');
      assert.equal(await chosen(), 'Beta', 'by name too');

      await s.open('/projects/no-such-project/endpoints');
      await s.page.getByRole('heading', { level: 1, name: 'Project not found' }).waitFor();
      assert.equal(await chosen(), 'No project', 'not the remembered project, nor the first');
      assert.equal(await s.page.getByRole('button', { name: 'Start server' }).count(), 0);
      assert.equal(await s.page.locator('.sidebar .nav-heading', { hasText: /shop|beta/i }).count(), 0);
      await assertAccessibleInBothThemes(s.page, `a project not found (${width} px)`);

      await picker().selectOption({ label: 'Shop' });
      await s.page.waitForURL(`**/projects/${shop}/endpoints`);
      assert.equal(await chosen(), 'Shop');
    });

  it('writes a request’s time one way in the log and in its detail', async () => {
    await s.page.setViewportSize({ width: 1280, height: 800 });
    const mock = await startMockServer(s, 'Shop');
    await s.open(`/projects/${shop}/requests`);
    assert.equal((await fetch(`${mock}/api/users`)).status, 200);
    const row = s.page
      .getByRole('table', { name: 'Logged requests, newest first' })
      .locator('tbody tr')
      .first();
    await row.waitFor({ timeout: 15_000 });
    const rowTime = await row.locator('time').innerText();
    assert.match(rowTime, /^\d{2}:\d{2}:\d{2}\.\d{3}$/);
    await row.getByRole('button', { name: '/api/users', exact: true }).click();
    const detail = s.page.getByRole('region', { name: /GET \/api\/users → 200/ });
    const detailTime = await detail.locator('dd time').innerText();
    assert.match(detailTime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    assert.ok(detailTime.endsWith(` ${rowTime}`), `${detailTime} is the row's ${rowTime} with its date`);
    const stamp = await detail.locator('dd time').getAttribute('datetime');
    assert.equal(await row.locator('time').getAttribute('datetime'), stamp, 'the same moment');
  });

  it('says where to activate a license in the UI’s words, never an API path', async () => {
    await s.page.setViewportSize({ width: 900, height: 800 });
    await s.open(`/projects/${shop}/environments`);
    const said = s.page.getByText(/Activate a license in License/);
    await said.first().waitFor();
    const text = await s.page.locator('body').innerText();
    assert.doesNotMatch(text, /\/api\/v1|\bPOST \/|\bGET \//, 'no API path on the screen');
    await assertAccessibleInBothThemes(s.page, 'the Pro refusal in the UI’s words (900 px)');
  });
});
