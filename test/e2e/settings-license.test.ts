import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { startStandInService, testSigner, type StandInService } from '../helpers/license.js';
import { waitUntil } from '../helpers/wait.js';

const signer = testSigner();
type Settings = Record<string, unknown>;
type Status = { plan: string; state: string; licensee: string | null; key: string | null };

describe('web UI: settings and license', () => {
  let s: UiSession;
  let service: StandInService;
  const bodyBackground = () => s.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const theme = () => s.page.evaluate(() => document.documentElement.dataset.theme);
  const settings = () => s.cliJson<Settings>(['settings', 'show']);
  /** The "Saved" a setting says beside itself once saved (found by its control). */
  const saved = (control: Locator) =>
    control
      .locator('xpath=ancestor::div[contains(@class,"setting")][1]')
      .getByRole('status')
      .getByText('Saved', { exact: true })
      .waitFor();

  before(async () => {
    service = await startStandInService();
    s = await openUiSession({
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: service.url },
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100']);
      },
    });
  });
  after(async () => {
    await s?.close();
    await service?.close();
  });

  it('shows every setting and applies the theme at once: dark, light, then the system’s', async () => {
    await s.open('/settings');
    await s.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const themes = s.page.getByRole('group', { name: 'Theme' });
    assert.equal(await themes.getByLabel('System (follows the operating system)').isChecked(), true);
    for (const label of [
      'Default port of new projects',
      'MCP HTTP port',
      'UI port',
      'Requests kept per project',
      'Body size limit (bytes)',
      'Request size limit (bytes)',
    ])
      assert.equal(await s.page.getByRole('spinbutton', { name: label }).count(), 1, label);
    for (const label of [
      'Start the MCP server automatically',
      'Confirm before deleting',
      'Developer mode',
      'Allow error reports',
    ])
      assert.equal(await s.page.getByRole('checkbox', { name: label }).count(), 1, label);
    assert.equal(await s.page.getByRole('combobox', { name: 'MCP logging' }).inputValue(), 'all');
    await assertAccessibleInBothThemes(s.page, 'the settings screen');
    const light = await bodyBackground();

    await themes.getByLabel('Dark', { exact: true }).check();
    await waitUntil(async () => (await theme()) === 'dark', 'the dark theme on the page');
    const dark = await bodyBackground();
    assert.notEqual(dark, light, 'the body turns dark without a reload');
    await saved(themes);
    assert.equal((await settings()).theme, 'dark');

    await themes.getByLabel('Light', { exact: true }).check();
    await waitUntil(async () => (await bodyBackground()) === light, 'the light background again');
    assert.equal(await theme(), 'light');
    await waitUntil(async () => (await settings()).theme === 'light', 'theme light saved');

    await s.page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await bodyBackground(), light, 'the light setting ignores the system’s dark');
    await themes.getByLabel('System (follows the operating system)').check();
    await waitUntil(async () => (await bodyBackground()) === dark, 'the system’s dark colours');
    assert.equal(await theme(), 'system');
    await waitUntil(async () => (await settings()).theme === 'system', 'theme system saved');
    await assertAccessibleInBothThemes(s.page, 'the settings screen (system dark)');
    await s.page.emulateMedia({ colorScheme: 'light' });
    await waitUntil(async () => (await bodyBackground()) === light, 'the system’s light colours');
  });

  it('applies a theme changed elsewhere (the CLI) at once, without a reload', async () => {
    await s.open('/projects');
    const marker = await s.page.evaluate(
      () => ((window as unknown as { marker: number }).marker = Math.random()),
    );
    const r = await s.cli(['settings', 'update', '--theme', 'dark']);
    assert.equal(r.code, 0, r.stderr);
    await waitUntil(async () => (await theme()) === 'dark', 'the dark theme from the CLI');
    assert.equal(
      await s.page.evaluate(() => (window as unknown as { marker: number }).marker),
      marker,
      'the same page: no reload',
    );
    await s.cli(['settings', 'update', '--theme', 'system']);
    await waitUntil(async () => (await theme()) === 'system', 'back to the system theme');
    await s.open('/settings'); // where the next tests start
    await s.page.getByRole('group', { name: 'Theme' }).waitFor();
  });

  it('shows a refused port next to the field in the screen’s words (no internal name), and says Saved beside a saved one', async () => {
    const port = s.page.getByRole('spinbutton', { name: 'Default port of new projects' });
    await port.fill('70000');
    await port.press('Enter');
    const error = port.locator('xpath=ancestor::div[contains(@class,"setting")]').getByRole('alert');
    await error.getByText('Default port must be from 1024 to 65535', { exact: true }).waitFor();
    assert.doesNotMatch(
      await s.page.locator('main').innerText(),
      /defaultPort|Saved/,
      'no internal name; not saved',
    );
    assert.equal(await port.getAttribute('aria-invalid'), 'true');
    assert.equal((await settings()).defaultPort, 3001);
    await assertAccessibleInBothThemes(s.page, 'the settings screen with a refused value');

    await port.fill('4321');
    await port.press('Tab');
    await saved(port);
    await error.waitFor({ state: 'detached' });
    assert.equal((await settings()).defaultPort, 4321);

    // At 900 px, far down the screen: "Saved" shows where the change was made, in view.
    await s.page.setViewportSize({ width: 900, height: 700 });
    const size = s.page.getByRole('spinbutton', { name: 'Request size limit (bytes)' });
    assert.equal(await size.inputValue(), String(10 * 1024 * 1024));
    await size.fill('20971520');
    await size.press('Tab');
    await saved(size);
    const said = size.locator('xpath=ancestor::div[contains(@class,"setting")][1]').getByRole('status');
    assert.ok(
      await said.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
      }),
      'the Saved beside the field is in view',
    );
    await s.page.setViewportSize({ width: 1280, height: 800 });
    assert.equal((await settings()).requestSizeLimitBytes, 20 * 1024 * 1024);
  });

  it('saves the switches and the select: confirm before deleting off, MCP logging', async () => {
    const confirm = s.page.getByRole('checkbox', { name: 'Confirm before deleting' });
    await confirm.uncheck();
    await saved(confirm);
    assert.equal((await settings()).confirmBeforeDelete, false);
    const logging = s.page.getByRole('combobox', { name: 'MCP logging' });
    await logging.selectOption('errors');
    await saved(logging);
    assert.equal((await settings()).mcpLoggingMode, 'errors');
    const url = s.page.getByRole('textbox', { name: 'Error report URL' });
    await url.fill('ftp://nope');
    await url.press('Enter');
    await s.page
      .getByRole('alert')
      .getByText(/http or https/)
      .waitFor();
    await url.fill('');
    await url.press('Enter');
    await saved(url);
    assert.equal((await settings()).errorReportingUrl, null);
  });

  it('shows the license status, a malformed key’s error, and activates a valid key', async () => {
    await s.open('/license');
    await s.page.getByRole('heading', { level: 1, name: 'License' }).waitFor();
    const status = s.page.getByTestId('license-status');
    await status.getByText('Free', { exact: true }).waitFor();
    await status.getByText('No license activated', { exact: true }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the license screen');

    const key = s.page.getByRole('textbox', { name: 'License key' });
    await key.fill('not-a-key');
    await s.page.getByRole('button', { name: 'Activate', exact: true }).click();
    await s.page
      .getByRole('alert')
      .getByText(/This is not a mockdev license key/)
      .waitFor();
    assert.equal((await s.cliJson<Status>(['license', 'status'])).plan, 'free');
    await assertAccessibleInBothThemes(s.page, 'the license screen with an error');

    // A key signed by someone else is refused (403), its reason shown.
    await key.fill(testSigner().key({ sub: 'eve@example.com' }));
    await s.page.getByRole('button', { name: 'Activate', exact: true }).click();
    await s.page
      .getByRole('alert')
      .getByText(/This license key is refused: its signature does not match/)
      .waitFor();
    assert.equal((await s.cliJson<Status>(['license', 'status'])).plan, 'free');

    const valid = signer.key({ sub: 'ada@example.com' });
    await key.fill(valid);
    await s.page.getByRole('button', { name: 'Activate', exact: true }).click();
    await status.getByText('Pro', { exact: true }).waitFor();
    await status.getByText('Active', { exact: true }).waitFor();
    await status.getByText('ada@example.com').waitFor();
    await status.getByText(`…${valid.slice(-6)}`).waitFor();
    assert.equal(await s.page.getByText(valid).count(), 0, 'the key is never shown whole');
    const cli = await s.cliJson<Status>(['license', 'status']);
    assert.equal(cli.plan, 'pro');
    assert.equal(cli.licensee, 'ada@example.com');
  });

  it('activates by e-mail: the service is asked, Check says pending, then confirmed makes it Pro', async () => {
    await s.page.getByRole('textbox', { name: 'E-mail address' }).fill('grace@example.com');
    await s.page.getByRole('button', { name: 'Send activation e-mail' }).click();
    await s.page
      .getByRole('status')
      .getByText(/is e-mailing a link to grace@example\.com/)
      .waitFor();
    assert.deepEqual(service.calls[0], {
      method: 'POST',
      url: '/v1/activations',
      body: { email: 'grace@example.com' },
    });
    await s.page.getByRole('button', { name: 'Check', exact: true }).click();
    await s.page
      .getByRole('status')
      .getByText(/^Not confirmed yet/)
      .waitFor();

    const key = signer.key({ sub: 'grace@example.com' });
    service.answer = { status: 200, body: JSON.stringify({ status: 'confirmed', key }) };
    await s.page.getByRole('button', { name: 'Check', exact: true }).click();
    await s.page
      .getByRole('status')
      .getByText('Confirmed: the license of grace@example.com is active.')
      .waitFor();
    await s.page.getByTestId('license-status').getByText('grace@example.com').waitFor();
    const cli = await s.cliJson<Status & { activation: string }>(['license', 'status']);
    assert.equal(cli.licensee, 'grace@example.com');
    assert.equal(cli.activation, 'email');
    await assertAccessibleInBothThemes(s.page, 'the license screen after e-mail activation');

    service.postStatus = 500;
    await s.page.getByRole('button', { name: 'Send activation e-mail' }).click();
    await s.page
      .getByRole('alert')
      .getByText(/The license service at .* answered HTTP 500/)
      .waitFor();
  });
});
