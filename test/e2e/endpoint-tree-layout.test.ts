import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, openUiSession, type UiSession } from '../helpers/browser.js';
import type { CliResult } from '../helpers/cli.js';
import {
  cancelConfirmation,
  eventually,
  expectAttr,
  focusedName,
  item,
  rightLeftSpace,
  seedShop,
  selectedNames,
  tipText,
  tree,
  type StoredEndpoint,
} from './endpoint-tree-helpers.js';

/**
 * The endpoint tree as a pane: a click anywhere on a row (its chevron too) selects and focuses
 * it, so the keys then act on it (SPEC part 2's tree rules with mouse and keyboard mixed); long
 * rows end in an ellipsis with the ⋯ button in view and their full text in a tooltip on hover and
 * keyboard focus, at 1280 and 900 px; the bar between the tree and the editor resizes the tree,
 * kept after a reload; axe in both themes.
 */
const LONG_NAME = 'A very long endpoint name that keeps going well past the edge of the pane';
const LONG_PATH = '/admin/settings/theme/colors/palette/{id}';
const LONG_ROW = `GET /{id} ${LONG_NAME}`;
const CHAIN = 'admin/settings/theme/colors/palette/';

async function seed(cli: (args: string[]) => Promise<CliResult>): Promise<void> {
  await seedShop(cli);
  const r = await cli(['endpoint', 'add', 'Shop', '-p', LONG_PATH, '-n', LONG_NAME]);
  if (r.code !== 0) throw new Error(r.stderr);
}

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  assert.ok(b, 'the element is shown');
  return b;
};

/** Clicks a folder row's chevron (the ▸/▾ at its start). */
const clickChevron = (page: Page, name: string) => item(page, name).locator('.tree-chevron').click();

describe('endpoint tree pane (web UI)', () => {
  let s: UiSession;
  let projectId = '';
  const screen = () => `/projects/${projectId}/endpoints`;
  const separator = () => s.page.getByRole('separator', { name: 'Endpoint tree width' });
  const width = async () => Number(await separator().getAttribute('aria-valuenow'));

  before(async () => {
    s = await openUiSession({ seed });
    projectId = (await s.cliJson<{ id: string }[]>(['list']))[0]!.id;
  });
  after(() => s?.close());

  it('selects and focuses a folder whose chevron is clicked, so Left, Right and Space act on it; Ctrl+Click, Delete and Enter mixed in', async () => {
    await s.open(screen());
    await item(s.page, 'users/').waitFor();
    await clickChevron(s.page, 'users/');
    const users = item(s.page, 'users/');
    await expectAttr(users, 'aria-expanded', 'false', 'users/ after a click on its chevron');
    await expectAttr(users, 'aria-selected', 'true', 'users/ selected by the chevron click');
    await eventually(async () => (await focusedName(s.page)) === 'users/', 'users/ focused');
    await rightLeftSpace(s.page, 'users/');

    // Another chevron: that folder alone is selected now, and the keys follow it.
    await clickChevron(s.page, 'health/');
    const health = item(s.page, 'health/');
    await expectAttr(health, 'aria-expanded', 'false', 'health/ after a click on its chevron');
    await eventually(
      async () => JSON.stringify(await selectedNames(s.page)) === '["health/"]',
      'health/ alone selected',
    );
    await s.page.keyboard.press('ArrowRight');
    await expectAttr(health, 'aria-expanded', 'true', 'health/ after Right');
    assert.equal(await users.getAttribute('aria-expanded'), 'true', 'users/ left as it was');

    // Ctrl+Click adds; Delete asks about what the selection means (the folder: its endpoint).
    await item(s.page, 'GET / Root').click({ modifiers: ['Control'] });
    await s.page.keyboard.press('Delete');
    await cancelConfirmation(s.page, 'Delete 2 endpoints?', ['GET /health Health', 'GET / Root']);

    // The ⋯ button selects its row; Escape leaves the focus there and Enter opens it.
    await item(s.page, 'GET / List orders').getByRole('button', { name: 'Actions' }).click();
    await s.page.getByRole('menu', { name: 'Actions for GET /api/orders List orders' }).waitFor();
    await s.page.keyboard.press('Escape');
    await eventually(
      async () => (await focusedName(s.page)) === 'GET / List orders',
      'focus back on the row',
    );
    assert.deepEqual(await selectedNames(s.page), ['GET / List orders']);
    await s.page.keyboard.press('Enter');
    const orders = (await s.cliJson<StoredEndpoint[]>(['endpoint', 'list', 'Shop'])).find(
      (e) => e.path === '/api/orders',
    )!;
    await s.page.waitForURL((u) => u.searchParams.get('edit') === orders.id);

    // Ctrl+A and Ctrl+Shift+A after a chevron click.
    await clickChevron(s.page, 'orders/');
    await s.page.keyboard.press('Control+a');
    const shown = await tree(s.page).getByRole('treeitem').count();
    await eventually(
      async () => (await selectedNames(s.page)).length === shown,
      'Ctrl+A to select every row',
    );
    await s.page.keyboard.press('Control+Shift+A');
    await eventually(async () => (await selectedNames(s.page)).length === 0, 'Ctrl+Shift+A to select none');
    await clickChevron(s.page, 'orders/');
    await expectAttr(item(s.page, 'orders/'), 'aria-expanded', 'true', 'orders/ open again');
  });

  for (const viewport of [1280, 900]) {
    it(`at ${viewport} px: a long row ends in an ellipsis, its ⋯ in view, its full text on hover and keyboard focus (axe in both themes)`, async () => {
      await s.page.setViewportSize({ width: viewport, height: 800 });
      await s.page.emulateMedia({ colorScheme: 'light' });
      await s.open(screen());
      const pane = await box(tree(s.page));
      for (const name of [LONG_ROW, CHAIN]) {
        const row = item(s.page, name);
        await row.waitFor();
        const button = await box(row.getByRole('button', { name: 'Actions' }));
        assert.ok(
          button.x >= pane.x && button.x + button.width <= pane.x + pane.width + 0.5,
          `${name}: the ⋯ button inside the pane (${JSON.stringify({ button, pane })})`,
        );
        const label = await row.locator('.tree-label').evaluate((e) => ({
          cut: e.scrollWidth > e.clientWidth,
          overflow: getComputedStyle(e).textOverflow,
        }));
        assert.deepEqual(label, { cut: true, overflow: 'ellipsis' }, `${name}: cut with an ellipsis`);
      }

      // Hover: after a short wait, the whole path and name; it stays while the pointer is on it.
      await item(s.page, LONG_ROW).hover();
      const full = `GET ${LONG_PATH} ${LONG_NAME}`;
      await eventually(async () => (await tipText(s.page)) === full, 'the tooltip on hover');
      const tip = await box(s.page.getByRole('tooltip'));
      assert.ok(tip.x >= 0 && tip.x + tip.width <= viewport, 'the tooltip inside the window');
      await s.page.getByRole('tooltip').hover();
      await s.page.waitForTimeout(400);
      assert.equal(await tipText(s.page), full, 'the tooltip stays while the pointer is on it');
      await s.page.mouse.move(viewport - 5, 790);
      await s.page.getByRole('tooltip').waitFor({ state: 'detached' });

      // Keyboard: focus moved by a key shows the focused row's full text at once.
      await item(s.page, 'GET / Root').click();
      await s.page.keyboard.press('Home');
      await eventually(async () => (await focusedName(s.page)) === CHAIN, 'Home to reach the first row');
      await eventually(
        async () => (await tipText(s.page)) === '/admin/settings/theme/colors/palette/',
        'the folder tooltip',
      );
      await s.page.keyboard.press('ArrowDown');
      await eventually(async () => (await tipText(s.page)) === full, 'the tooltip on keyboard focus');
      const focused = item(s.page, LONG_ROW);
      assert.equal(
        await focused.getAttribute('aria-describedby'),
        await s.page.getByRole('tooltip').getAttribute('id'),
        'the focused row described by its tooltip',
      );
      await assertAccessible(s.page, `the tree with a row tooltip at ${viewport} px (light)`);
      await s.page.emulateMedia({ colorScheme: 'dark' });
      await assertAccessible(s.page, `the tree with a row tooltip at ${viewport} px (dark)`);
      await s.page.keyboard.press('Escape');
      await s.page.getByRole('tooltip').waitFor({ state: 'detached' });
      assert.equal(await focusedName(s.page), LONG_ROW, 'Escape hides the tooltip, the focus stays');
      await s.page.emulateMedia({ colorScheme: 'light' });
    });
  }

  it('resizes the tree with the bar beside it (drag or keys), kept after a reload; at 900 px the editor keeps its room', async () => {
    await s.page.setViewportSize({ width: 1280, height: 800 });
    await s.open(screen());
    await item(s.page, 'GET / Root').waitFor();
    const paneWidth = async () => (await box(s.page.locator('.endpoint-tree'))).width;
    assert.equal(await width(), 320, 'the default width');
    assert.ok(Math.abs((await paneWidth()) - 320) <= 1, `the pane 320 px wide (${await paneWidth()})`);

    const bar = await box(separator());
    await s.page.mouse.move(bar.x + bar.width / 2, bar.y + 200);
    await s.page.mouse.down();
    await s.page.mouse.move(bar.x + bar.width / 2 + 60, bar.y + 200, { steps: 4 });
    await s.page.mouse.move(bar.x + bar.width / 2 + 120, bar.y + 200, { steps: 4 });
    await s.page.mouse.up();
    await eventually(
      async () => Math.abs((await width()) - 440) <= 1,
      'the drag to widen the tree to 440 px',
    );
    assert.ok(Math.abs((await paneWidth()) - (await width())) <= 1, 'the pane as wide as the bar says');

    await separator().focus();
    const dragged = await width();
    await s.page.keyboard.press('ArrowLeft');
    await eventually(async () => (await width()) === dragged - 16, 'Left to narrow it a step');
    await s.page.keyboard.press('Shift+ArrowLeft');
    await eventually(async () => (await width()) === dragged - 80, 'Shift+Left to narrow it four steps');
    await s.page.keyboard.press('Home');
    await eventually(async () => (await width()) === 200, 'Home: the narrowest');
    await s.page.keyboard.press('ArrowRight');
    await s.page.keyboard.press('ArrowRight');
    await eventually(async () => (await width()) === 232, 'Right twice');
    await assertAccessible(s.page, 'the endpoints screen with the resize bar focused (light)');

    await s.page.reload();
    await separator().waitFor();
    await eventually(async () => (await width()) === 232, 'the width kept after a reload');
    assert.ok(Math.abs((await paneWidth()) - 232) <= 1);

    // End: as wide as the screen lets it be, the editor keeping 400 px.
    await separator().focus();
    await s.page.keyboard.press('End');
    const layout = await box(s.page.locator('.endpoints-layout'));
    await eventually(async () => (await width()) === Math.floor(layout.width) - 400, 'End: the widest');

    // At 900 px the tree gives way: the editor still has its 400 px.
    await s.page.setViewportSize({ width: 900, height: 800 });
    const small = await box(s.page.locator('.endpoints-layout'));
    await eventually(
      async () => (await width()) <= small.width - 400,
      'the tree narrowed to leave the editor its room',
    );
    const editor = await box(s.page.locator('.editor-pane'));
    assert.ok(editor.width >= 380, `the editor pane ${editor.width} px wide`);
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await assertAccessible(s.page, 'the endpoints screen at 900 px (dark)');
    await s.page.emulateMedia({ colorScheme: 'light' });
  });
});
