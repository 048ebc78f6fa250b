import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { testSigner } from '../helpers/license.js';
import { openShopSession } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

const signer = testSigner();
interface Env {
  id: string;
  name: string;
  scope: string;
  variables: Record<string, string>;
  secretKeys: string[];
  active?: boolean;
}

describe('web UI: environments (Pro)', () => {
  let s: UiSession;
  let shop: string;
  const list = async () => s.cliJson<Env[]>(['environment', 'list', 'Shop']);
  const find = async (name: string) => (await list()).find((e) => e.name === name);
  const row = (name: string) =>
    s.page.getByRole('row').filter({ has: s.page.getByRole('rowheader', { name, exact: true }) });

  before(async () => {
    ({ s, shop } = await openShopSession({
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined },
    }));
  });
  after(() => s?.close());

  it('without a license says environments need one, with a link to the License screen', async () => {
    await s.open(`/projects/${shop}/environments`);
    const alert = s.page.getByRole('alert').filter({ hasText: 'needs a Pro license' });
    await alert.waitFor();
    assert.match(
      await alert.innerText(),
      /^Pro license required\n"environment" needs a Pro license, and no license is activated\. Activate a license/,
    );
    await assertAccessibleInBothThemes(s.page, 'the environments screen without a license');
    await s.page.getByRole('link', { name: 'Activate a license' }).click();
    await s.page.waitForURL('**/license');
    await s.page.getByRole('heading', { level: 1, name: 'License' }).waitFor();
  });

  it('creates an environment with a variable and a secret, masked until revealed', async () => {
    const r = await s.cli(['license', 'activate', signer.key({ sub: 'pro@example.com' })]);
    assert.equal(r.code, 0, r.stderr);
    await s.open(`/projects/${shop}/environments`);
    await s.page.getByText('No environments yet: create one above.').waitFor();
    await s.page.getByLabel('New environment name').fill('Dev');
    await s.page.getByRole('button', { name: 'Create environment' }).click();
    await s.page.getByRole('heading', { name: /^Edit Dev/ }).waitFor();
    assert.equal((await find('Dev'))?.scope, 'project');

    await s.page.getByRole('button', { name: 'Add variable' }).click();
    await s.page.getByLabel('Name of variable 1').fill('API_URL');
    await s.page.getByLabel('Value of API_URL').fill('https://dev.example.com');
    await s.page.getByRole('button', { name: 'Add variable' }).click();
    await s.page.getByLabel('Name of variable 2').fill('TOKEN');
    await s.page.getByLabel('Value of TOKEN').fill('s3cret-token');
    await s.page.getByLabel('TOKEN is a secret').check();
    await assertAccessibleInBothThemes(s.page, 'the environment editor');
    await s.page.getByRole('button', { name: 'Save environment' }).click();
    await row('Dev').getByText('2 (1 secret)').waitFor();

    const shown = await s.cliJson<Env>(['environment', 'show', 'Dev']);
    assert.deepEqual(shown.variables, { API_URL: 'https://dev.example.com', TOKEN: '********' });
    assert.deepEqual(shown.secretKeys, ['TOKEN']);
    const revealed = await s.cliJson<Env>(['environment', 'show', 'Dev', '--reveal']);
    assert.equal(revealed.variables.TOKEN, 's3cret-token');

    // Saved and shown again from the API: the secret is masked, then revealed on demand.
    const secret = s.page.getByLabel('Value of TOKEN');
    await waitUntil(async () => (await secret.inputValue()) === '', 'the secret masked after the save');
    assert.equal(await secret.getAttribute('type'), 'password');
    assert.equal(await secret.getAttribute('placeholder'), '******** (hidden)');
    assert.equal(await s.page.getByLabel('Value of API_URL').inputValue(), 'https://dev.example.com');
    await s.page.getByRole('button', { name: 'Reveal secrets' }).click();
    await waitUntil(async () => (await secret.inputValue()) === 's3cret-token', 'the secret revealed');
    assert.equal(await secret.getAttribute('type'), 'text');

    // A hidden secret left alone keeps its value when something else changes.
    await s.page.getByRole('button', { name: 'Hide secrets' }).click();
    await s.page.getByLabel('Value of API_URL').fill('https://dev2.example.com');
    await s.page.getByRole('button', { name: 'Save environment' }).click();
    await waitUntil(
      async () =>
        (await s.cliJson<Env>(['environment', 'show', 'Dev', '--reveal'])).variables.API_URL ===
        'https://dev2.example.com',
      'the changed variable saved',
    );
    assert.equal(
      (await s.cliJson<Env>(['environment', 'show', 'Dev', '--reveal'])).variables.TOKEN,
      's3cret-token',
    );
  });

  it('activates a project and a global environment, and deactivates one keeping the other', async () => {
    // An edit in progress stays while the list changes around it.
    await s.page.getByLabel('Value of API_URL').fill('not saved yet');
    await row('Dev').getByRole('button', { name: 'Activate Dev' }).click();
    await row('Dev').getByText('Active', { exact: true }).waitFor();
    assert.equal((await find('Dev'))?.active, true);
    assert.equal(await s.page.getByLabel('Value of API_URL').inputValue(), 'not saved yet');
    await s.page.getByRole('button', { name: 'Close' }).click();
    await s.page.getByRole('heading', { name: /^Edit Dev/ }).waitFor({ state: 'detached' });

    await s.page.getByLabel('New environment name').fill('Shared');
    await s.page.getByLabel('Scope').selectOption('global');
    await s.page.getByRole('button', { name: 'Create environment' }).click();
    await row('Shared').getByText('Global').waitFor();
    await row('Shared').getByRole('button', { name: 'Activate Shared' }).click();
    await row('Shared').getByText('Active', { exact: true }).waitFor();
    assert.deepEqual(
      (await list()).map((e) => [e.name, e.scope, e.active]),
      [
        ['Dev', 'project', true],
        ['Shared', 'global', true],
      ],
    );
    await assertAccessibleInBothThemes(s.page, 'the environments list');

    await row('Dev').getByRole('button', { name: 'Deactivate Dev' }).click();
    await row('Dev').getByText('Inactive').waitFor();
    assert.equal((await find('Dev'))?.active, false);
    assert.equal((await find('Shared'))?.active, true);
  });

  it('duplicates an environment, secrets included', async () => {
    await row('Dev').getByRole('button', { name: 'Duplicate Dev' }).click();
    await row('Dev copy').waitFor();
    await s.page.getByRole('heading', { name: /^Edit Dev copy/ }).waitFor();
    const copy = await s.cliJson<Env>(['environment', 'show', 'Dev copy', '--reveal']);
    assert.deepEqual(copy.variables, { API_URL: 'https://dev2.example.com', TOKEN: 's3cret-token' });
    assert.deepEqual(copy.secretKeys, ['TOKEN']);
  });

  it('deletes an environment after confirming, listing what goes', async () => {
    await row('Dev copy').getByRole('button', { name: 'Delete Dev copy' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete the environment Dev copy?' });
    await dialog.getByRole('listitem').getByText('Dev copy (Shop): 2 variable(s), 1 secret(s)').waitFor();
    await assertAccessibleInBothThemes(s.page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.ok(await find('Dev copy'), 'cancel keeps it');

    await row('Dev copy').getByRole('button', { name: 'Delete Dev copy' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row('Dev copy').waitFor({ state: 'detached' });
    assert.deepEqual((await list()).map((e) => e.name).sort(), ['Dev', 'Shared']);
  });
});
