import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { testSigner } from '../helpers/license.js';

const signer = testSigner();
interface Cert {
  subject: string;
  sans: string[];
  fingerprint256: string;
  daysLeft: number;
}
interface Status {
  ca: Cert | null;
  leaf: Cert | null;
}

/**
 * The TLS screen: without a license it shows the status and the trust commands but offers no
 * Generate, saying what Pro adds; with one, Generate makes the CA and the leaf (shown as `tls
 * status` sees them), Renew keeps the CA, and the trust commands of a chosen system copy.
 */
describe('web UI: TLS', () => {
  let s: UiSession;
  const status = () => s.cliJson<Status>(['tls', 'status']);

  before(async () => {
    s = await openUiSession({
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined },
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100']);
      },
    });
  });
  after(() => s?.close());

  it('without a license says what Pro adds, links to the License screen and offers no Generate', async () => {
    await s.open('/tls');
    await s.page.getByRole('heading', { level: 1, name: 'TLS' }).waitFor();
    const note = s.page.getByRole('note', { name: 'Generating certificates needs a Pro license.' });
    await note.waitFor();
    assert.match(await note.innerText(), /Pro makes a CA for this machine/);
    assert.equal(await s.page.getByRole('button', { name: /Generate|Renew/ }).count(), 0);
    await s.page.getByText('No CA yet: generating a certificate makes one.').waitFor();
    // The trust commands need no license: this system's first.
    assert.equal(await s.page.getByLabel('System').inputValue(), 'linux');
    await s.page
      .getByRole('list', { name: 'Steps for Linux' })
      .getByText(/update-ca-certificates/)
      .first()
      .waitFor();
    // Built: its navigation link carries no "not built yet" badge.
    await s.page.getByRole('navigation').getByRole('link', { name: 'TLS', exact: true }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the TLS screen without a license');
    await note.getByRole('link', { name: 'Activate a license' }).click();
    await s.page.waitForURL('**/license');
    await s.page.getByRole('heading', { level: 1, name: 'License' }).waitFor();
  });

  it('generates the CA and a leaf with an added name, and shows them as `tls status` sees them', async () => {
    const r = await s.cli(['license', 'activate', signer.key({ sub: 'pro@example.com' })]);
    assert.equal(r.code, 0, r.stderr);
    await s.open('/tls');
    const form = s.page.getByRole('form', { name: 'Generate the certificate' });
    await form.getByLabel(/More host names/).fill('myapp.test, 192.168.1.20');
    await form.getByRole('button', { name: 'Generate certificate' }).click();

    const leafNames = s.page.getByRole('list', { name: 'Names of the server certificate' });
    await leafNames.getByText('myapp.test', { exact: true }).waitFor();
    const made = await status();
    assert.ok(made.ca && made.leaf, 'the CA and the leaf exist');
    assert.ok(made.leaf.sans.includes('192.168.1.20'), JSON.stringify(made.leaf.sans));
    const ca = s.page.getByRole('region', { name: 'Certificate authority' });
    const leaf = s.page.getByRole('region', { name: 'Server certificate' });
    await ca.getByText(made.ca.fingerprint256).waitFor();
    await leaf.getByText(made.leaf.fingerprint256).waitFor();
    await ca
      .getByText(/mockdev development CA/)
      .first()
      .waitFor();
    await leaf.getByText(`(${made.leaf.daysLeft} days left)`).waitFor();
    for (const name of ['localhost', '127.0.0.1', '::1'])
      await leafNames.getByText(name, { exact: true }).waitFor();
    // Each trust store this system has, with what it says of the CA.
    await s.page.getByRole('region', { name: 'Trust stores' }).getByRole('table').waitFor();
    await assertAccessibleInBothThemes(s.page, 'the TLS screen with a CA and a leaf');

    // Renew: a new leaf, the same CA.
    const renew = s.page.getByRole('form', { name: 'Renew the certificate' });
    await renew.getByRole('button', { name: 'Renew certificate' }).click();
    await s.page.getByRole('status').getByText('Made a new certificate with the same CA').waitFor();
    const renewed = await status();
    assert.equal(renewed.ca!.fingerprint256, made.ca.fingerprint256);
    assert.notEqual(renewed.leaf!.fingerprint256, made.leaf.fingerprint256);
    await leaf.getByText(renewed.leaf!.fingerprint256).waitFor();
  });

  it('shows the trust commands of a chosen system, each copied by its button', async () => {
    await s.open('/tls');
    await s.page.getByLabel('System').selectOption('macos');
    const steps = s.page.getByRole('list', { name: 'Steps for macOS' });
    const command = steps.locator('code', { hasText: 'security add-trusted-cert' }).first();
    await command.waitFor();
    const text = await command.innerText();
    assert.match(text, /ca\.pem/);
    await steps.getByRole('button', { name: /^Copy command 1 of step 1/ }).click();
    await s.page
      .getByRole('status')
      .getByText(/^Copied command 1 of step 1/)
      .waitFor();
    const copied = await s.page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await steps.locator('code').first().innerText());

    await s.page.getByLabel('System').selectOption('node');
    await s.page
      .getByRole('list', { name: 'Steps for Node.js' })
      .getByText(/NODE_EXTRA_CA_CERTS/)
      .first()
      .waitFor();
    await assertAccessibleInBothThemes(s.page, 'the TLS screen with the trust commands of Node.js');
  });
});
