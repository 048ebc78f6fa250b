/**
 * The License screen against the real license service (dist/license-service, e-mail into an
 * SMTP sink): a trial asked for in the UI, its link opened in the browser, Check, then the
 * status saying whose key signed it; a second trial refused. At 1280 and 900 px, axe in both
 * themes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { tempDir } from '../helpers/cli.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import {
  linkIn,
  startLicenseService,
  startMailSink,
  type MailSink,
  type RunningService,
} from '../helpers/license-service.js';

describe('web UI: a trial from the License screen, through the license service', () => {
  const tmp = tempDir('mockdev-license-e2e-');
  let sink: MailSink;
  let service: RunningService;
  let s: UiSession;

  before(async () => {
    sink = await startMailSink();
    service = await startLicenseService(tmp.dir, sink.url);
    s = await openUiSession({
      env: { MOCKDEV_LICENSE_URL: service.url, MOCKDEV_LICENSE_PUBLIC_KEY: service.publicKeyPem },
    });
  });
  after(async () => {
    await s?.close();
    await service?.stop();
    await sink?.close();
    tmp.cleanup();
  });

  it('asks for a trial, opens the e-mailed link, checks, and shows who signed the key', async () => {
    await s.open('/license');
    const status = s.page.getByTestId('license-status');
    await status.getByText('No license activated', { exact: true }).waitFor();
    const email = s.page.getByRole('textbox', { name: 'E-mail address' });
    await email.fill('ada@example.com');
    await s.page.getByRole('button', { name: 'Start a trial' }).click();
    await s.page
      .getByRole('status')
      .getByText(/is e-mailing a link to ada@example\.com that starts a 14-day trial/)
      .waitFor();
    await assertAccessibleInBothThemes(s.page, 'the license screen, a trial asked for');

    const link = linkIn(await sink.next('ada@example.com'));
    const linkPage = await s.context.newPage();
    await linkPage.goto(link);
    await linkPage.getByRole('heading', { name: 'Your trial of mockdev Pro is confirmed' }).waitFor();
    await linkPage.close();

    await s.page.getByRole('button', { name: 'Check', exact: true }).click();
    await s.page
      .getByRole('status')
      .getByText('Confirmed: the license of ada@example.com is active.')
      .waitFor();
    await status.getByText('Pro', { exact: true }).waitFor();
    await status.getByText('the key in MOCKDEV_LICENSE_PUBLIC_KEY', { exact: true }).waitFor();
    const row = status.getByText('Signed by', { exact: true });
    assert.equal(await row.count(), 1);
    await assertAccessibleInBothThemes(s.page, 'the license screen with a trial');

    await s.page.getByRole('button', { name: 'Start a trial' }).click();
    await s.page
      .getByRole('alert')
      .getByText(/ada@example\.com already had its trial/)
      .waitFor();
    assert.equal(sink.mails.length, 1, 'no second e-mail');
  });

  it('fits at 900 px: nothing overflows the screen', async () => {
    await s.page.setViewportSize({ width: 900, height: 800 });
    await s.open('/license');
    await s.page.getByRole('button', { name: 'Start a trial' }).waitFor();
    const overflow = await s.page.evaluate(() =>
      [...document.querySelectorAll('.license-screen form, .license-screen dl')].some(
        (el) => el.scrollWidth > el.clientWidth + 1,
      ),
    );
    assert.equal(overflow, false);
    await assertAccessibleInBothThemes(s.page, 'the license screen at 900 px');
  });
});
