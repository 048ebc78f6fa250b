import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessible, openUiSession, type UiSession } from '../helpers/browser.js';
import { startUi, type UiHandle } from '../helpers/ui.js';
import {
  ALL_FOLDERS,
  ALL_ROWS,
  cancelConfirmation,
  eventually,
  expectAttr,
  expectShown,
  expectStored,
  focusedName,
  item,
  rightLeftSpace,
  seedShop,
  selectedNames,
  shownNames,
  tipText,
  tree,
  type StoredEndpoint,
  USERS_ROWS,
} from './endpoint-tree-helpers.js';

/**
 * The endpoint folder tree: its ARIA roles and names (rows say the path below their folder),
 * folders from shared path segments, every folder expanded on a project's first visit, keyboard,
 * search, multi-selection, live updates, and expanded folders kept in the data directory across a
 * reload, another browser and a restart of `mockdev ui`. (Row menus and their actions:
 * endpoint-tree-actions.test.ts; the pane, long rows, mouse and keyboard mixed:
 * endpoint-tree-layout.test.ts.)
 */
describe('endpoint tree', () => {
  let s: UiSession;
  let projectId = '';
  let restarted: UiHandle | undefined;
  const list = () => s.cliJson<StoredEndpoint[]>(['endpoint', 'list', 'Shop']);
  const screen = () => `/projects/${projectId}/endpoints`;

  before(async () => {
    s = await openUiSession({ seed: seedShop });
    projectId = (await s.cliJson<{ id: string }[]>(['list']))[0]!.id;
  });
  after(async () => {
    await restarted?.stop();
    await s?.close();
  });

  it('is an ARIA tree labelled Endpoints, multiselectable, every folder expanded on the first visit (and kept), and passes axe', async () => {
    await s.open(screen());
    const t = tree(s.page);
    await t.waitFor();
    assert.equal(await t.getAttribute('aria-multiselectable'), 'true');
    await expectShown(s.page, ALL_ROWS, 'every folder expanded on the first visit');
    // The first visit is saved: the next one opens what was left open, not every folder.
    await expectStored(s.dataDir, projectId, ALL_FOLDERS);
    const api = item(s.page, 'api/');
    assert.equal(await api.getAttribute('aria-expanded'), 'true');
    assert.equal(await api.getAttribute('aria-selected'), 'false');
    assert.equal(await api.getAttribute('aria-level'), '1');
    const root = item(s.page, 'GET / Root');
    assert.equal(await root.getAttribute('aria-expanded'), null, 'an endpoint is not expandable');
    assert.equal(await root.getAttribute('aria-selected'), 'false');
    // The row shows the method badge, the path below its folder and the name.
    assert.equal(await root.locator('.tree-method').textContent(), 'GET');
    assert.equal(await root.locator('.tree-path').textContent(), '/');
    assert.equal(await root.locator('.tree-name').textContent(), 'Root');
    assert.equal(await item(s.page, 'GET /{id} Get user').locator('.tree-path').textContent(), '/{id}');
    await assertAccessible(s.page, 'the endpoint tree (light)');
  });

  it('puts /api/users and /api/users/{id} in api/ → users/, rows relative to it, a chain of single folders as one row', async () => {
    assert.equal(await item(s.page, 'users/').getAttribute('aria-level'), '2');
    assert.equal(await item(s.page, 'GET /{id} Get user').getAttribute('aria-level'), '3');
    // {id}/ holds only orders/: one row, {id}/orders/, whose endpoint is one level below it.
    assert.equal(await item(s.page, '{id}/orders/').getAttribute('aria-level'), '3');
    assert.equal(await item(s.page, 'GET / User orders').getAttribute('aria-level'), '4');
    // The whole path is the row's tooltip, and its description while shown.
    const row = item(s.page, 'GET /{id} Get user');
    await row.hover();
    await eventually(async () => (await tipText(s.page)) === 'GET /api/users/{id} Get user', 'the tooltip');
    assert.equal(
      await row.getAttribute('aria-describedby'),
      await s.page.getByRole('tooltip').getAttribute('id'),
    );
    await s.page.mouse.move(0, 0);
    await s.page.getByRole('tooltip').waitFor({ state: 'detached' });
    // Collapsing is kept (a double click toggles a folder).
    await item(s.page, '{id}/orders/').dblclick();
    await item(s.page, 'orders/').dblclick();
    await item(s.page, 'health/').dblclick();
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
    await expectShown(
      s.page,
      ['api/', 'orders/', 'users/', '{id}/orders/', ...USERS_ROWS, 'health/', 'GET / Root'],
      'three folders collapsed',
    );
    // Expanding too.
    await item(s.page, '{id}/orders/').dblclick();
    // A compacted row stands for its chain: /api/users/{id} opens with it.
    await expectStored(s.dataDir, projectId, [
      '/api',
      '/api/users',
      '/api/users/{id}',
      '/api/users/{id}/orders',
    ]);
    await item(s.page, '{id}/orders/').dblclick();
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
  });

  it('moves with Up/Down, expands with Right, collapses with Left, toggles with Space, opens with Enter', async () => {
    const health = item(s.page, 'health/');
    await health.click();
    await eventually(async () => (await focusedName(s.page)) === 'health/', 'health/ to have focus');
    await rightLeftSpace(s.page, 'health/');
    await s.page.keyboard.press('Space');
    await expectAttr(health, 'aria-expanded', 'false', 'health/ after Space again');
    await s.page.keyboard.press('ArrowUp');
    await eventually(
      async () => (await focusedName(s.page)) === 'DELETE /{id} Remove user',
      'Up to move to the row above',
    );
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowDown');
    await eventually(async () => (await focusedName(s.page)) === 'GET / Root', 'Down twice to reach GET /');
    await s.page.keyboard.press('Enter');
    const root = (await list()).find((e) => e.path === '/')!;
    await s.page.waitForURL((u) => u.searchParams.get('edit') === root.id);
    await expectAttr(item(s.page, 'GET / Root'), 'aria-selected', 'true', 'the endpoint opened');
    // Enter on a folder toggles it.
    await s.page.keyboard.press('ArrowUp');
    await s.page.keyboard.press('Enter');
    await expectAttr(health, 'aria-expanded', 'true', 'health/ after Enter');
    await s.page.keyboard.press('Enter');
    await expectAttr(health, 'aria-expanded', 'false', 'health/ after Enter again');
  });

  it('searches by path, method or name (any case), showing the matches in their folders, expanded', async () => {
    const search = s.page.getByRole('searchbox', { name: 'Search endpoints' });
    await search.fill('ORDERS');
    await expectShown(
      s.page,
      ['api/', 'orders/', 'GET / List orders', 'users/', '{id}/orders/', 'GET / User orders'],
      'a search by path',
    );
    for (const name of ['api/', 'users/', '{id}/orders/'])
      assert.equal(await item(s.page, name).getAttribute('aria-expanded'), 'true');
    await assertAccessible(s.page, 'the endpoint tree while searching (light)');
    await search.fill('delete');
    await expectShown(s.page, ['api/', 'users/', 'DELETE /{id} Remove user'], 'a search by method');
    await search.fill('root');
    await expectShown(s.page, ['GET / Root'], 'a search by name');
    await search.fill('nothing-like-this');
    await s.page.getByRole('status').filter({ hasText: 'No endpoint matches' }).waitFor();
    await search.fill('');
    // The folders open before the search are open again, the others closed.
    await expectShown(
      s.page,
      ['api/', 'orders/', 'users/', '{id}/orders/', ...USERS_ROWS, 'health/', 'GET / Root'],
      'the tree after clearing the search',
    );
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
  });

  it('selects with click, adds with Ctrl+Click, Ctrl+A selects all, Ctrl+Shift+A none, Delete deletes the selection', async () => {
    await item(s.page, 'GET / List users').click();
    await eventually(
      async () => JSON.stringify(await selectedNames(s.page)) === '["GET / List users"]',
      'a click to select one row',
    );
    await item(s.page, 'GET / Root').click({ modifiers: ['Control'] });
    await item(s.page, 'POST / Create user').click({ modifiers: ['Control'] });
    await eventually(
      async () =>
        JSON.stringify(await selectedNames(s.page)) ===
        '["GET / List users","POST / Create user","GET / Root"]',
      'Ctrl+Click to add rows',
    );
    await s.page.keyboard.press('Control+a');
    const all = await shownNames(s.page);
    await eventually(
      async () => (await selectedNames(s.page)).length === all.length,
      'Ctrl+A to select every row',
    );
    assert.equal(
      await s.page.evaluate(() => String(window.getSelection())),
      '',
      'Ctrl+A selects no page text',
    );
    await s.page.keyboard.press('Control+Shift+A');
    await eventually(async () => (await selectedNames(s.page)).length === 0, 'Ctrl+Shift+A to select none');

    // Delete with a folder selected: its endpoints are listed; Cancel keeps them.
    await item(s.page, 'orders/').click(); // the folder of /api/orders
    await item(s.page, 'GET / Root').click({ modifiers: ['Control'] });
    await s.page.keyboard.press('Delete');
    await cancelConfirmation(s.page, 'Delete 2 endpoints?', ['GET /api/orders List orders', 'GET / Root']);
    assert.equal((await list()).length, 8, 'Cancel deletes nothing');
    const dialog = s.page.getByRole('dialog', { name: 'Delete 2 endpoints?' });

    await tree(s.page).focus();
    await s.page.keyboard.press('Delete');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => (await list()).length === 6, 'the two endpoints to be deleted');
    const paths = (await list()).map((e) => `${e.method} ${e.path}`);
    assert.ok(!paths.includes('GET /api/orders') && !paths.includes('GET /'), paths.join(', '));
    await expectShown(
      s.page,
      // api/ now holds only users/: one row.
      ['api/users/', '{id}/orders/', ...USERS_ROWS, 'health/'],
      'the tree after the delete',
    );
  });

  it('shows an endpoint added elsewhere without a reload, keeping expanded folders and the selection', async () => {
    await item(s.page, 'GET / List users').click();
    await expectAttr(item(s.page, 'GET / List users'), 'aria-selected', 'true', 'the clicked row');
    const added = await s.cli([
      'endpoint',
      'add',
      'Shop',
      '-m',
      'PUT',
      '-p',
      '/api/users/{id}',
      '-n',
      'Replace user',
    ]);
    assert.equal(added.code, 0, added.stderr);
    await item(s.page, 'PUT /{id} Replace user').waitFor();
    assert.equal(await item(s.page, 'GET / List users').getAttribute('aria-selected'), 'true');
    assert.equal(await item(s.page, 'api/users/').getAttribute('aria-expanded'), 'true');
  });

  it('saves a toggle made just before the page goes away (a reload at once)', async () => {
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
    await item(s.page, 'health/').dblclick();
    await s.page.reload();
    await expectStored(s.dataDir, projectId, ['/api', '/api/users', '/health']);
    await s.page.reload();
    await expectAttr(item(s.page, 'health/'), 'aria-expanded', 'true', 'health/ after the reload');
    await item(s.page, 'health/').dblclick();
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
  });

  it('keeps the expanded folders across a reload, another browser and a restart of mockdev ui', async () => {
    const expected = [
      'api/users/',
      '{id}/orders/',
      'GET / List users',
      'POST / Create user',
      'GET /{id} Get user',
      'PUT /{id} Replace user',
      'DELETE /{id} Remove user',
      'health/',
    ];
    await expectStored(s.dataDir, projectId, ['/api', '/api/users']);
    await s.page.reload();
    await expectShown(s.page, expected, 'after a reload');

    const other = await s.browser.newContext();
    try {
      const page = await other.newPage();
      await page.goto(`${s.url}${screen()}`);
      await expectShown(page, expected, 'in another browser context');
    } finally {
      await other.close();
    }

    await s.ui.stop();
    restarted = await startUi([], { dataDir: s.dataDir });
    await s.page.goto(`${restarted.url}${screen()}`);
    await expectShown(s.page, expected, 'after a restart of mockdev ui');
  });
});
