import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { assertAccessible, openUiSession, type UiSession } from '../helpers/browser.js';
import type { CliResult } from '../helpers/cli.js';
import {
  cancelConfirmation,
  eventually,
  expand,
  focusedName,
  item,
  tipText,
  type StoredEndpoint,
} from './endpoint-tree-helpers.js';

/**
 * The endpoint tree's row menus (right click, the row's Actions button, Shift+F10) and what each
 * item does, checked through the CLI; the empty project; a disabled endpoint's look; axe in the
 * dark theme (the browser prefers dark, the theme setting is "system").
 */
async function seed(cli: (args: string[]) => Promise<CliResult>): Promise<void> {
  const run = async (args: string[]) => {
    const r = await cli(args);
    if (r.code !== 0) throw new Error(`mockdev ${args.join(' ')}: ${r.stderr}`);
  };
  await run(['project', 'create', 'Shop', '-p', '4100']);
  await run(['project', 'create', 'Empty', '-p', '4101']);
  await run(['endpoint', 'add', 'Shop', '-p', '/api/users', '-n', 'List users']);
  await run(['endpoint', 'add', 'Shop', '-p', '/api/users/{id}', '-n', 'Get user']);
  await run(['endpoint', 'add', 'Shop', '-m', 'POST', '-p', '/api/orders', '-n', 'Create order']);
  await run(['endpoint', 'add', 'Shop', '-p', '/health', '-n', 'Health']);
  await run(['endpoint', 'add', 'Shop', '-p', '/stripe/*', '-n', 'stripe', '--proxy', 'https://example.com']);
}

describe('endpoint tree menus and actions', () => {
  let s: UiSession;
  let shop = '';
  let empty = '';
  const list = () => s.cliJson<StoredEndpoint[]>(['endpoint', 'list', 'Shop']);
  const byPath = async (method: string, path: string) =>
    (await list()).find((e) => e.method === method && e.path === path);
  const menu = (name: string) => s.page.getByRole('menu', { name });
  const itemsOf = (m: Locator) => m.getByRole('menuitem').allTextContents();
  const openShop = async () => {
    await s.open(`/projects/${shop}/endpoints`);
    await item(s.page, 'health/').waitFor();
  };

  before(async () => {
    s = await openUiSession({ seed, colorScheme: 'dark' });
    const projects = await s.cliJson<{ id: string; name: string }[]>(['list']);
    shop = projects.find((p) => p.name === 'Shop')!.id;
    empty = projects.find((p) => p.name === 'Empty')!.id;
  });
  after(() => s?.close());

  it('says "No endpoints yet" in an empty project, with an Add Endpoint button (dark theme passes axe)', async () => {
    await s.open(`/projects/${empty}/endpoints`);
    const pane = s.page.locator('.endpoint-tree');
    await pane.getByText('No endpoints yet').waitFor();
    assert.equal(await s.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
    await assertAccessible(s.page, 'the empty endpoint tree (dark)');
    await pane.getByRole('button', { name: 'Add Endpoint' }).click();
    await s.page.waitForURL((u) => u.pathname.endsWith('/endpoints') && u.searchParams.get('new') === '/');
  });

  it('opens a folder menu from the Actions button, right click or Shift+F10; arrows move, Escape closes and returns focus', async () => {
    await openShop();
    await item(s.page, 'api/').getByRole('button', { name: 'Actions' }).click();
    const m = menu('Actions for /api');
    await m.waitFor();
    assert.deepEqual(await itemsOf(m), ['Add Endpoint', 'Delete Path']);
    await eventually(
      async () => (await s.page.evaluate(() => document.activeElement?.getAttribute('role'))) === 'menuitem',
      'focus on the first menu item',
    );
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'Add Endpoint');
    await s.page.keyboard.press('ArrowDown');
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'Delete Path');
    await s.page.keyboard.press('ArrowDown');
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'Add Endpoint');
    await s.page.keyboard.press('ArrowUp');
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'Delete Path');
    await assertAccessible(s.page, 'the tree with a folder menu open (dark)');
    await s.page.keyboard.press('Escape');
    await m.waitFor({ state: 'hidden' });
    await eventually(async () => (await focusedName(s.page)) === 'api/', 'focus back on api/');

    await s.page.keyboard.press('Shift+F10');
    await m.waitFor();
    await s.page.keyboard.press('Escape');
    await m.waitFor({ state: 'hidden' });

    await item(s.page, 'api/').click({ button: 'right' });
    await m.getByRole('menuitem', { name: 'Add Endpoint' }).click();
    await s.page.waitForURL((u) => u.searchParams.get('new') === '/api');
    assert.equal(new URL(s.page.url()).search, '?new=%2Fapi');
  });

  it('deletes a path after a confirmation listing its endpoints (Cancel keeps them)', async () => {
    await openShop();
    await expand(s.page, 'api/');
    await item(s.page, 'users/').click({ button: 'right' });
    const m = menu('Actions for /api/users');
    await m.getByRole('menuitem', { name: 'Delete Path' }).click();
    await cancelConfirmation(s.page, 'Delete everything under /api/users?', [
      'GET /api/users List users',
      'GET /api/users/{id} Get user',
    ]);
    assert.equal((await list()).length, 5, 'Cancel deletes nothing');
    const dialog = s.page.getByRole('dialog', { name: 'Delete everything under /api/users?' });

    await item(s.page, 'users/').getByRole('button', { name: 'Actions' }).click();
    await m.getByRole('menuitem', { name: 'Delete Path' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => (await list()).length === 3, 'the two endpoints under /api/users to go');
    assert.deepEqual((await list()).map((e) => `${e.method} ${e.path}`).sort(), [
      'GET /health',
      'GET /stripe/*',
      'POST /api/orders',
    ]);
    // api/ holds only orders/ now: one row.
    await item(s.page, 'api/orders/').waitFor();
    await item(s.page, 'users/').waitFor({ state: 'detached' });
  });

  it('lists Edit, Toggle Enabled, Copy as Code and Delete for an endpoint, and View Recordings only for a proxy', async () => {
    await expand(s.page, 'health/');
    await item(s.page, 'GET / Health').click({ button: 'right' });
    const m = menu('Actions for GET /health Health');
    await m.waitFor();
    assert.deepEqual(await itemsOf(m), ['Edit', 'Toggle Enabled', 'Copy as Code ▸', 'Delete']);
    await m.getByRole('menuitem', { name: 'Edit' }).click();
    const health = (await byPath('GET', '/health'))!;
    await s.page.waitForURL((u) => u.searchParams.get('edit') === health.id);

    await expand(s.page, 'stripe/');
    await item(s.page, 'GET /* stripe').getByRole('button', { name: 'Actions' }).click();
    const proxy = menu('Actions for GET /stripe/* stripe');
    await proxy.waitFor();
    assert.deepEqual(await itemsOf(proxy), [
      'Edit',
      'Toggle Enabled',
      'Copy as Code ▸',
      'View Recordings',
      'Delete',
    ]);
    await proxy.getByRole('menuitem', { name: 'View Recordings' }).click();
    const stripe = (await byPath('GET', '/stripe/*'))!;
    await s.page.waitForURL(
      (u) => u.pathname === `/projects/${shop}/recordings` && u.searchParams.get('endpoint') === stripe.id,
    );
  });

  it('toggles an endpoint enabled; a disabled one looks disabled and keeps its name', async () => {
    await openShop();
    const row = item(s.page, 'GET / Health');
    await row.click({ button: 'right' });
    await menu('Actions for GET /health Health').getByRole('menuitem', { name: 'Toggle Enabled' }).click();
    await eventually(
      async () => (await byPath('GET', '/health'))?.enabled === false,
      'GET /health to be disabled',
    );
    // Its tooltip says so, with its whole path.
    await row.hover();
    await eventually(
      async () => (await tipText(s.page)) === 'GET /health Health (disabled: does not answer requests)',
      "the disabled row's tooltip",
    );
    assert.match(String(await row.getAttribute('class')), /\bis-disabled\b/);
    const look = await row
      .locator('.tree-path')
      .evaluate((e) => ({ line: getComputedStyle(e).textDecorationLine, color: getComputedStyle(e).color }));
    assert.equal(look.line, 'line-through');
    const enabledLook = await item(s.page, 'GET /* stripe')
      .locator('.tree-path')
      .evaluate((e) => getComputedStyle(e).color);
    assert.notEqual(look.color, enabledLook, 'a disabled path is muted');
    await assertAccessible(s.page, 'the tree with a disabled endpoint (dark)');

    await row.getByRole('button', { name: 'Actions' }).click();
    await menu('Actions for GET /health Health').getByRole('menuitem', { name: 'Toggle Enabled' }).click();
    await eventually(
      async () => (await byPath('GET', '/health'))?.enabled === true,
      'GET /health enabled again',
    );
    await s.page.mouse.move(0, 0);
    await row.hover();
    await eventually(
      async () => (await tipText(s.page)) === 'GET /health Health',
      "the enabled row's tooltip",
    );
  });

  it('copies an endpoint as code (cURL, fetch, axios, Python) to the clipboard, through a submenu', async () => {
    const health = (await byPath('GET', '/health'))!;
    const code = async (lang: string) => {
      const r = await s.cli(['endpoint', 'code', 'Shop', health.id, '--lang', lang]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };
    const clipboard = () => s.page.evaluate(() => navigator.clipboard.readText());
    const row = item(s.page, 'GET / Health');
    const m = menu('Actions for GET /health Health');
    const sub = menu('Copy as Code');

    // By keyboard: Right opens the submenu, Left goes back, Enter copies.
    await row.click();
    await s.page.keyboard.press('Shift+F10');
    await m.waitFor();
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowRight');
    await sub.waitFor();
    assert.deepEqual(await itemsOf(sub), ['cURL', 'fetch', 'axios', 'Python']);
    await assertAccessible(s.page, 'the tree with the Copy as Code submenu open (dark)');
    assert.equal(
      await m.getByRole('menuitem', { name: 'Copy as Code' }).getAttribute('aria-expanded'),
      'true',
    );
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'cURL');
    await s.page.keyboard.press('ArrowLeft');
    await sub.waitFor({ state: 'hidden' });
    assert.equal(await s.page.evaluate(() => document.activeElement?.textContent), 'Copy as Code ▸');
    await s.page.keyboard.press('ArrowRight');
    await sub.waitFor();
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('status').filter({ hasText: 'Copied GET /health as cURL' }).waitFor();
    assert.equal((await clipboard()).trim(), await code('curl'));
    assert.match(await clipboard(), /^curl /);

    // By mouse: every other language.
    for (const [label, lang] of [
      ['fetch', 'fetch'],
      ['axios', 'axios'],
      ['Python', 'python'],
    ] as const) {
      await row.getByRole('button', { name: 'Actions' }).click();
      await m.getByRole('menuitem', { name: 'Copy as Code' }).click();
      await sub.getByRole('menuitem', { name: label, exact: true }).click();
      await s.page
        .getByRole('status')
        .filter({ hasText: `Copied GET /health as ${label}` })
        .waitFor();
      const want = await code(lang);
      await eventually(
        async () => (await clipboard()).trim() === want,
        `the ${label} snippet in the clipboard`,
      );
    }
  });

  it('deletes an endpoint from its menu after a confirmation', async () => {
    await expand(s.page, 'api/orders/');
    const row = item(s.page, 'POST / Create order');
    await row.click({ button: 'right' });
    await menu('Actions for POST /api/orders Create order').getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.getByRole('listitem').allTextContents(), ['POST /api/orders Create order']);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(
      async () => (await byPath('POST', '/api/orders')) === undefined,
      'POST /api/orders to go',
    );
    await row.waitFor({ state: 'detached' });
    assert.equal((await list()).length, 2);
  });
});
