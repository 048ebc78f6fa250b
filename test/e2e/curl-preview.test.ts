import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Request } from 'playwright-core';
import type { UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { openShopSession } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

type Listed = { id: string; method: string; path: string; name: string; body: string };

describe('web UI: cURL import with its live preview', () => {
  let s: UiSession;
  let shop: string;
  const preview = () => s.page.getByRole('region', { name: 'cURL preview' });
  const command = () => s.page.getByRole('textbox', { name: 'cURL command' });
  const route = () => preview().locator('.curl-route');
  const nameIs = (value: string) =>
    waitUntil(
      async () => (await s.page.getByLabel('Endpoint name').inputValue()) === value,
      `the endpoint name to be ${value}`,
    );

  before(async () => {
    ({ s, shop } = await openShopSession());
  });
  after(() => s?.close());

  it('updates the preview as the command is typed: method, path and the generated name', async () => {
    await s.open(`/projects/${shop}/import`);
    await command().fill('curl https://api.example.com/v1/us');
    await route().getByText('GET /v1/us', { exact: true }).waitFor();
    await preview().getByText('URL: https://api.example.com/v1/us').waitFor();
    await nameIs('get-us');

    await command().pressSequentially('ers/42');
    await route().getByText('GET /v1/users/42', { exact: true }).waitFor();
    await nameIs('get-users-by-id');

    await command().pressSequentially(' -X DELETE');
    await route().getByText('DELETE /v1/users/42', { exact: true }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the cURL preview');
  });

  it('cancels a preview request made stale by typing: only the newest command is shown', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = (r: Request) =>
      r.url().endsWith('/api/v1/curl/preview') &&
      (r.postDataJSON() as { command: string }).command.includes('/slow');
    await s.page.route('**/api/v1/curl/preview', async (r) => {
      if (slow(r.request())) await held;
      await r.continue().catch(() => undefined);
    });
    try {
      const sent = s.page.waitForRequest(slow);
      const failed = s.page.waitForEvent('requestfailed', slow);
      await command().fill('curl https://api.example.com/slow');
      await sent;
      await command().fill('curl -X PATCH https://api.example.com/fast');
      await route().getByText('PATCH /fast', { exact: true }).waitFor();
      const aborted = await failed;
      assert.match(aborted.failure()?.errorText ?? '', /ABORTED|cancel/i);
    } finally {
      release();
      await s.page.unroute('**/api/v1/curl/preview');
    }
    assert.equal(await route().innerText(), 'PATCH /fast');
  });

  it('shows the query and headers as key/value tables, the JSON body formatted and Basic auth', async () => {
    await command().fill(
      `curl -X POST 'https://api.example.com/v1/orders?tag=a&tag=b' -H 'Content-Type: application/json' -H 'X-Trace: 7' -u bob:hunter22 -d '{"item":"book","qty":[1,2]}'`,
    );
    await route().getByText('POST /v1/orders', { exact: true }).waitFor();
    const query = preview().getByRole('table', { name: 'Query parameters' });
    assert.deepEqual(await query.getByRole('row').allInnerTexts(), ['Parameter\tValue', 'tag\ta', 'tag\tb']);
    const headers = preview().getByRole('table', { name: 'Headers' });
    assert.deepEqual(await headers.getByRole('row').allInnerTexts(), [
      'Header\tValue',
      'Content-Type\tapplication/json',
      'X-Trace\t7',
    ]);
    assert.equal(
      await preview().getByLabel('Request body').innerText(),
      '{\n  "item": "book",\n  "qty": [\n    1,\n    2\n  ]\n}',
    );
    await preview().getByText('kept with the endpoint for reference').waitFor();
    const auth = preview().getByTestId('preview-auth');
    await auth.getByText(/Basic, user bob, password \*{8}/).waitFor();
    assert.doesNotMatch(await auth.innerText(), /hunter22/);
    await assertAccessibleInBothThemes(s.page, 'the cURL preview with tables and a body');
  });

  it('detects a Bearer token and warns about an unrecognised flag', async () => {
    await command().fill(
      `curl https://api.example.com/v1/me -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz'`,
    );
    await preview().getByTestId('preview-auth').getByText('Bearer token ********wxyz').waitFor();
    await command().pressSequentially(' --frobnicate');
    await preview()
      .getByRole('listitem')
      .filter({ hasText: /Unrecognised flag --frobnicate at line 1, column \d+ \(ignored\)/ })
      .waitFor();
  });

  it('masks the credential in the headers table, the URL, the query and the warnings, as in the auth line', async () => {
    const headers = () => preview().getByRole('table', { name: 'Headers' });
    await command().fill(
      `curl https://api.example.com/v1/me -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' -H 'X-Copy: abcdefghijklmnopqrstuvwxyz'`,
    );
    await headers().getByRole('cell', { name: 'X-Copy' }).waitFor();
    await preview().getByTestId('preview-auth').getByText('Bearer token ********wxyz').waitFor();
    assert.deepEqual(await headers().getByRole('row').allInnerTexts(), [
      'Header\tValue',
      'Authorization\tBearer ********',
      'X-Copy\t********',
    ]);
    assert.doesNotMatch(await preview().innerText(), /abcdefghijkl/);

    await command().fill(
      `curl 'https://bob:hunter22@api.example.com/v1/x?sig=hunter22' -H 'Authorization: Basic Ym9iOmh1bnRlcjIy' --hunter22`,
    );
    await preview()
      .getByTestId('preview-auth')
      .getByText(/Basic, user bob/)
      .waitFor();
    await preview().getByText('URL: https://api.example.com/v1/x?sig=********').waitFor();
    assert.deepEqual(await headers().getByRole('row').allInnerTexts(), [
      'Header\tValue',
      'Authorization\tBasic ********',
    ]);
    const shown = await preview().innerText();
    assert.doesNotMatch(shown, /hunter22|Ym9iOmh1bnRlcjIy/, 'the password in no form');
    await s.page.setViewportSize({ width: 900, height: 800 });
    try {
      await assertAccessibleInBothThemes(s.page, 'the cURL preview with a credential, at 900 px');
    } finally {
      await s.page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows the parse error of an unterminated quote with its fix, then the preview again once fixed', async () => {
    await command().fill(`curl 'https://api.example.com/v1/items`);
    const alert = s.page.getByTestId('curl-error');
    await alert.waitFor();
    assert.equal(await alert.getAttribute('role'), 'alert');
    await alert.getByText(/Unbalanced quote: the ' opened at line 1, column 6 is never closed/).waitFor();
    await alert.getByText('At line 1, column 6.').waitFor();
    await alert.getByText(/^Fix: Add the closing '/).waitFor();
    assert.equal(await preview().count(), 0);
    assert.equal(await s.page.getByRole('button', { name: 'Import endpoint' }).isDisabled(), true);
    await assertAccessibleInBothThemes(s.page, 'the cURL parse error');

    await command().pressSequentially(`'`);
    await route().getByText('GET /v1/items', { exact: true }).waitFor();
    assert.equal(await alert.count(), 0);
  });

  it('keeps an edited name while the preview updates, and imports the endpoint with it', async () => {
    await command().fill(
      `curl -X PUT https://api.example.com/v1/carts/7 -H 'Content-Type: application/json' -d '{"n":1}'`,
    );
    const name = s.page.getByLabel('Endpoint name');
    await nameIs('put-carts-by-id');
    await name.fill('Update cart');
    await command().pressSequentially(' -H "X-More: 1"');
    await preview().getByRole('table', { name: 'Headers' }).getByRole('cell', { name: 'X-More' }).waitFor();
    assert.equal(await name.inputValue(), 'Update cart');

    await s.page.getByRole('button', { name: 'Import endpoint' }).click();
    const created = s.page.locator('.import-created');
    await created.getByText(/Created Update cart \(PUT \/v1\/carts\/7\) in Shop\./).waitFor();
    const list = await s.cliJson<Listed[]>(['endpoint', 'list', 'Shop']);
    const endpoint = list.find((e) => e.name === 'Update cart');
    assert.ok(endpoint, 'the CLI lists the imported endpoint under its edited name');
    assert.equal(endpoint.method, 'PUT');
    assert.equal(endpoint.path, '/v1/carts/7');
    // The next import starts from the generated name again.
    await nameIs('put-carts-by-id');
    await created.getByRole('link', { name: 'Open Update cart' }).click();
    await s.page.waitForURL(`**/projects/${shop}/endpoints?edit=${endpoint.id}`);
  });
});
