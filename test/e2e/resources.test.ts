import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { http } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';
import { codeText } from './code-editor-helpers.js';

type Item = Record<string, unknown>;
interface ResourceView {
  id: string;
  name: string;
  path: string;
  seed: Item[];
  itemCount: number;
}

/**
 * The Resources screen: a resource added from a path with its seed typed as JSON (a seed that
 * is not an array of objects said in place, nothing saved), its items as an editable JSON
 * document (checked as typed, saved as `resource data` then reads them), a change from outside
 * shown live, Reset back to the seed after confirming; and the endpoint tree showing the
 * resource as one row in its folder, which opens it.
 */
describe('web UI: resources', () => {
  let s: UiSession;
  let shop: string;
  const BASE = '/api/v1/projects/Shop/resources';

  const resources = async () => {
    const r = await http(`${s.url}${BASE}`);
    assert.equal(r.status, 200, r.body);
    return r.json as ResourceView[];
  };
  const data = async () => {
    const r = await http(`${s.url}${BASE}/users/data`);
    assert.equal(r.status, 200, r.body);
    return (r.json as { items: Item[] }).items;
  };
  const parsed = async (label: string): Promise<unknown> =>
    JSON.parse(await codeText(s.page.getByLabel(label, { exact: true })));

  before(async () => {
    ({ s, shop } = await openShopSession());
  });
  after(async () => {
    await s?.close();
  });

  it('adds a resource from a path with its seed as JSON; a seed that is not a list of objects is refused in place', async () => {
    await s.open(`/projects/${shop}/resources`);
    await s.page.getByText('No resources yet: add one below.').waitFor();
    const form = s.page.getByRole('form', { name: 'New resource' });
    await form.getByLabel('Collection path').fill('/api/users');
    assert.equal(await form.getByLabel('Name', { exact: true }).getAttribute('placeholder'), 'users');
    const seed = form.getByLabel('Seed (JSON array of objects)', { exact: true });
    await seed.fill('[{"id": 1, "name": "Ada"}, 2]');
    await form.getByText('Item 1 is not a JSON object').waitFor();
    assert.equal(await seed.getAttribute('aria-invalid'), 'true');
    const add = form.getByRole('button', { name: 'Add resource' });
    assert.equal(await add.isDisabled(), true, 'a bad seed cannot be sent');
    await assertAccessibleInBothThemes(s.page, 'the Resources screen with a seed problem');

    await seed.fill('[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Linus"}]');
    await waitUntil(async () => !(await add.isDisabled()), 'the seed accepted');
    await add.click();
    await s.page.getByRole('heading', { name: /^users/ }).waitFor();
    const [users] = await resources();
    assert.deepEqual([users!.name, users!.path, users!.itemCount], ['users', '/api/users', 2]);
    assert.deepEqual(await parsed('Items of users'), [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Linus' },
    ]);
    await s.page.getByRole('rowheader', { name: 'users' }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the Resources screen with a resource open');
  });

  it('edits the items as one JSON document, checked as typed', async () => {
    const items = s.page.getByLabel('Items of users', { exact: true });
    const save = s.page.getByRole('button', { name: 'Save data' });
    await items.fill('[{"id": 7, "name": "Grace"},]');
    await s.page.getByText(/^Invalid JSON: /).waitFor();
    assert.equal(await save.isDisabled(), true);
    await items.fill('{"id": 7}');
    await s.page.getByText(/Must be a JSON array of objects/).waitFor();
    assert.equal(await save.isDisabled(), true);

    await items.fill('[{"id": 7, "name": "Grace"}]');
    await waitUntil(async () => !(await save.isDisabled()), 'the items accepted');
    await save.click();
    await waitUntil(async () => (await data()).length === 1, 'the items saved');
    assert.deepEqual(await data(), [{ id: 7, name: 'Grace' }]);
    const [users] = await resources();
    assert.deepEqual(users!.seed, [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Linus' },
    ]);
  });

  it('shows items replaced elsewhere, and resets to the seed after confirming', async () => {
    const put = await http(`${s.url}${BASE}/users/data`, { method: 'PUT', body: [{ id: 9, name: 'Alan' }] });
    assert.equal(put.status, 200, put.body);
    await waitUntil(
      async () => JSON.stringify(await parsed('Items of users')) === '[{"id":9,"name":"Alan"}]',
      'the change from outside shown',
    );

    await s.page.getByRole('button', { name: 'Reset to seed' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Reset users to its seed?' });
    await dialog.getByText('1 current item(s) replaced by the 2 of the seed').waitFor();
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await waitUntil(async () => (await data()).length === 2, 'the seed back');
    assert.deepEqual(await data(), [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Linus' },
    ]);
    await waitUntil(
      async () => ((await parsed('Items of users')) as Item[]).length === 2,
      'the editor shows the seed',
    );
  });

  it('changes the seed after confirming, which resets the data to it', async () => {
    const seed = s.page.getByLabel('Seed of users', { exact: true });
    const save = s.page.getByRole('button', { name: 'Save seed', exact: true });
    assert.equal(await save.isDisabled(), true, 'nothing to save yet');
    await seed.fill('{"id": 3}');
    await s.page.getByText(/Must be a JSON array of objects/).waitFor();
    assert.equal(await save.isDisabled(), true);
    await seed.fill('[{"id": 3, "name": "Barbara"}]');
    await waitUntil(async () => !(await save.isDisabled()), 'the seed accepted');
    await save.click();
    const dialog = s.page.getByRole('dialog', { name: 'Save the seed of users?' });
    await dialog.getByText('the current items are replaced by the 1 of the seed', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Save seed' }).click();
    await waitUntil(async () => (await resources())[0]!.seed.length === 1, 'the seed saved');
    assert.deepEqual((await resources())[0]!.seed, [{ id: 3, name: 'Barbara' }]);
    await waitUntil(async () => (await data()).length === 1, 'the data reset to the new seed');
    assert.deepEqual(await data(), [{ id: 3, name: 'Barbara' }]);
  });

  it('shows the resource as one row in its folder of the endpoint tree, which opens it', async () => {
    const added = await http(`${s.url}/api/v1/projects/Shop/endpoints`, {
      method: 'POST',
      body: { path: '/api/users/{id}/avatar' },
    });
    assert.equal(added.status, 201, added.body);
    await s.open(`/projects/${shop}/endpoints`);
    const row = s.page.getByRole('treeitem', { name: 'RES users' });
    await row.waitFor();
    const folder = s.page.getByRole('treeitem', { name: 'users/' });
    assert.equal(await folder.getAttribute('aria-level'), '1');
    assert.equal(await row.getAttribute('aria-level'), '2', 'in the users/ folder');
    await assertAccessibleInBothThemes(s.page, 'the endpoint tree with a resource');
    await row.dblclick();
    await s.page.getByRole('heading', { name: /^users/ }).waitFor();
    const [users] = await resources();
    assert.match(s.page.url(), new RegExp(`/projects/${shop}/resources\\?edit=${users!.id}$`));
  });

  it("a resource's request in the log is answered by the resource, and its detail opens it", async () => {
    const url = await startMockServer(s, 'Shop');
    const answer = await fetch(`${url}/api/users`);
    assert.equal(answer.status, 200, await answer.text());
    await s.open(`/projects/${shop}/requests`);
    await s.page.getByRole('button', { name: '/api/users', exact: true }).first().click();
    const detail = s.page.getByRole('region', { name: /GET \/api\/users → 200/ });
    await detail.getByText('the resource users (/api/users)', { exact: true }).waitFor();
    const link = detail.getByRole('link', { name: 'Open the resource users' });
    await link.click();
    await s.page.getByRole('heading', { name: 'Resources of Shop', level: 1 }).waitFor();
    assert.match(s.page.url(), /resources\?edit=/);
  });
});
