import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { openShopSession } from '../helpers/ui-seed.js';

/**
 * The endpoint editor in the dark theme (theme setting "system", the browser preferring dark):
 * axe on a new endpoint with its problems shown, an endpoint with variations (one active, the
 * variation form open) and a proxy endpoint.
 */
describe('endpoint editor in the dark theme (web UI)', () => {
  let s: UiSession;
  let projectId: string;
  const endpointsPath = (q: string) => `/projects/${projectId}/endpoints?${q}`;
  const show = (e: string) => s.cliJson<Endpoint>(['endpoint', 'show', 'Shop', e]);

  before(async () => {
    ({ s, shop: projectId } = await openShopSession({
      colorScheme: 'dark',
      seed: async (cli) => {
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/users', '-b', '[]', '-H', 'X-Total: 2']);
        // `endpoint variation <command> Shop "GET /api/users" …args`
        const variation = (command: string, ...args: string[]) =>
          cli(['endpoint', 'variation', command, 'Shop', 'GET /api/users', ...args]);
        await variation('add', '-n', 'second-page', '-s', '206');
        await variation('update', 'second-page', '--when', 'query.page=2');
        await variation('add', '-n', 'admins', '--when', 'header.x-role~^adm');
        await variation('activate', 'admins');
        await cli([
          'endpoint',
          'add',
          'Shop',
          '-p',
          '/github/*',
          '--proxy',
          'https://api.github.com',
          '--record',
        ]);
      },
    }));
  });
  after(() => s?.close());

  it('is dark', async () => {
    await s.open(endpointsPath('new=/'));
    assert.equal((await s.cliJson<{ theme: string }>(['settings', 'show'])).theme, 'system');
    const bg = await s.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(22, 24, 28)');
  });

  it('passes axe on a new endpoint with its problems shown', async () => {
    const ed = s.page.getByRole('region', { name: 'New endpoint', exact: true });
    await ed.getByLabel('Status', { exact: true }).fill('99');
    await ed.getByRole('button', { name: 'Add header' }).click();
    await ed.getByLabel('Response header 1 name').fill('Bad Name');
    await ed.getByLabel('Body', { exact: true }).fill('{"a": 1,}');
    await ed.getByRole('button', { name: 'Create endpoint' }).click();
    await ed.getByText('A whole number from 200 to 599').waitFor();
    await ed.getByText(/^A header name may contain only/).waitFor();
    await ed.getByText(/^Invalid JSON: Line 1, column 9/).waitFor();
    await assertAccessible(s.page, 'a new endpoint with problems (dark)');
    await ed.getByLabel('Body', { exact: true }).fill('{"a": {{queryParam "a"}}}');
    await ed.getByText(/^Not JSON as written/).waitFor();
    await assertAccessible(s.page, 'a new endpoint with a template warning (dark)');
  });

  it('passes axe on an endpoint with variations, one active, the variation form open', async () => {
    const users = await show('GET /api/users');
    await s.open(endpointsPath(`edit=${users.id}`));
    const ed = s.page.getByRole('region', { name: 'Edit GET /api/users', exact: true });
    const v = ed.getByRole('region', { name: 'Variations', exact: true });
    await v
      .getByRole('row', { name: /second-page/ })
      .getByRole('cell', { name: 'query.page=2' })
      .waitFor();
    await v
      .getByRole('row', { name: /admins/ })
      .getByText('Active', { exact: true })
      .waitFor();
    await v.getByRole('button', { name: 'Edit variation admins' }).click();
    const form = v.getByRole('form', { name: 'Edit variation admins' });
    assert.equal(await form.getByLabel('Rule 1 condition').inputValue(), 'regex');
    assert.equal(await form.getByLabel('Rule 1 value').inputValue(), '^adm');
    await assertAccessible(s.page, 'an endpoint with variations (dark)');
  });

  it('passes axe on a proxy endpoint', async () => {
    const proxy = await show('GET /github/*');
    await s.open(endpointsPath(`edit=${proxy.id}`));
    const ed = s.page.getByRole('region', { name: 'Edit GET /github/*', exact: true });
    assert.equal(await ed.getByLabel('Target URL').inputValue(), 'https://api.github.com');
    assert.equal(await ed.getByLabel('Record forwarded exchanges').isChecked(), true);
    await assertAccessible(s.page, 'a proxy endpoint (dark)');
  });
});
