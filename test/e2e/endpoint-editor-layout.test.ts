import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { openShopSession } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';
import { codeText } from './code-editor-helpers.js';

/**
 * The endpoint editor as a desktop screen: at 1280 and 900 px no control overflows its fieldset
 * (an endpoint with headers, a proxy, the variation form with its rules), the Save/Cancel bar
 * stays in view while the form scrolls, and the body is a code editor (CodeMirror, loaded only
 * when a body is shown) with line numbers, JSON and Handlebars highlighting and bracket
 * matching; axe in both themes.
 */
const LONG_BODY = JSON.stringify(
  { users: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `user ${i}`, admin: i % 2 === 0 })) },
  null,
  2,
);

describe('endpoint editor layout and code editor (web UI)', () => {
  let s: UiSession;
  let projectId: string;
  const show = (e: string) => s.cliJson<Endpoint>(['endpoint', 'show', 'Shop', e]);
  const open = async (e: string) => {
    const endpoint = await show(e);
    await s.open(`/projects/${projectId}/endpoints?edit=${endpoint.id}`);
    return s.page.getByRole('region', { name: `Edit ${endpoint.method} ${endpoint.path}`, exact: true });
  };
  const body = () => s.page.getByLabel('Body', { exact: true });

  before(async () => {
    ({ s, shop: projectId } = await openShopSession({
      seed: async (cli) => {
        const add = (...args: string[]) => cli(['endpoint', 'add', 'Shop', ...args]);
        await add('-p', '/api/users', '-b', LONG_BODY, '-H', 'X-Total-Count-Of-Everything: 30');
        await add('-p', '/api/users/{id}', '-b', '{"id": "{{params.id}}", "tags": [1, 2]}');
        await add('-p', '/github/*', '--proxy', 'https://api.github.com', '--record');
        await cli([
          'endpoint',
          'variation',
          'add',
          'Shop',
          'GET /api/users',
          '-n',
          'admins',
          '--when',
          'header.x-role~^adm',
        ]);
      },
    }));
  });
  after(() => s?.close());

  /** Every element of each fieldset in the editor that reaches past the fieldset's sides. */
  const overflowing = () =>
    s.page.locator('.endpoint-editor').evaluate((editor) => {
      const out: string[] = [];
      for (const fs of editor.querySelectorAll('fieldset')) {
        const f = fs.getBoundingClientRect();
        for (const el of fs.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if (r.left < f.left - 0.5 || r.right > f.right + 0.5)
            out.push(
              `${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(f.left)}–${Math.round(f.right)}`,
            );
        }
      }
      const main = document.getElementById('main')!;
      if (main.scrollWidth > main.clientWidth)
        out.push(`the screen scrolls sideways (${main.scrollWidth} > ${main.clientWidth})`);
      return out;
    });

  for (const viewport of [1280, 900]) {
    it(`at ${viewport} px: nothing overflows its fieldset (headers, a proxy, the variation form with rules); axe in both themes`, async () => {
      await s.page.setViewportSize({ width: viewport, height: 800 });
      await s.page.emulateMedia({ colorScheme: 'light' });
      const ed = await open('GET /api/users');
      await ed.locator('.cm-editor').waitFor();
      assert.deepEqual(await overflowing(), [], 'an endpoint with a header and a long body');
      const v = ed.getByRole('region', { name: 'Variations', exact: true });
      await v.getByRole('button', { name: 'Edit variation admins' }).click();
      const form = v.getByRole('form', { name: 'Edit variation admins' });
      await form.getByRole('button', { name: 'Add rule' }).click();
      await form.getByRole('checkbox', { name: /^Body: the endpoint’s/ }).uncheck();
      await form.getByLabel('Variation body').waitFor();
      assert.deepEqual(await overflowing(), [], 'the variation form with two rules');
      await assertAccessible(s.page, `the endpoint editor with the variation form at ${viewport} px (light)`);
      await s.page.emulateMedia({ colorScheme: 'dark' });
      await assertAccessible(s.page, `the endpoint editor with the variation form at ${viewport} px (dark)`);
      await s.page.emulateMedia({ colorScheme: 'light' });
      await form.getByRole('button', { name: 'Cancel' }).click();
      await s.page
        .getByRole('dialog', { name: 'Discard unsaved changes?' })
        .getByRole('button', { name: 'Discard' })
        .click();

      await open('GET /github/*');
      assert.deepEqual(await overflowing(), [], 'a proxy endpoint');
    });
  }

  it('keeps Save and Cancel in view while the form scrolls, and saves from there', async () => {
    await s.page.setViewportSize({ width: 900, height: 700 });
    const ed = await open('GET /api/users');
    await ed.locator('.cm-editor').waitFor();
    const save = ed.getByRole('button', { name: 'Save', exact: true });
    const inView = async () => {
      const b = await save.boundingBox();
      return b !== null && b.y >= 0 && b.y + b.height <= 700;
    };
    const main = s.page.locator('#main');
    for (const to of [0, 300]) {
      await main.evaluate((m, y) => m.scrollTo(0, y), to);
      await waitUntil(inView, `Save in view with the screen scrolled to ${to}`);
      assert.ok(await ed.getByRole('button', { name: 'Close' }).isVisible());
    }
    await ed.getByLabel('Status', { exact: true }).fill('203');
    await main.evaluate((m) => m.scrollTo(0, 0));
    await save.click();
    await waitUntil(async () => (await show('GET /api/users')).status === 203, 'the status saved');
  });

  it('edits the body in a code editor: line numbers, JSON and {{…}} highlighting, bracket matching', async () => {
    await s.page.setViewportSize({ width: 1280, height: 800 });
    const ed = await open('GET /api/users/{id}');
    const cm = ed.locator('.body-field .cm-editor');
    await cm.waitFor();
    assert.equal(await body().getAttribute('role'), 'textbox');
    assert.equal(await body().getAttribute('aria-multiline'), 'true');
    assert.equal(await codeText(body()), '{"id": "{{params.id}}", "tags": [1, 2]}');
    await body().fill('{\n  "id": "{{params.id}}",\n  "tags": [1, 2],\n  "ok": true,\n  "name": "Ann"\n}');
    await waitUntil(
      async () => (await cm.locator('.cm-lineNumbers .cm-gutterElement').allTextContents()).includes('5'),
      'line numbers up to 5',
    );
    // JSON tokens in their colours: a property name, a string, a number, a keyword differ.
    const colour = (text: string) =>
      cm
        .locator('.cm-content span', { hasText: text })
        .first()
        .evaluate((e) => getComputedStyle(e).color);
    const colours = new Set([
      await colour('"tags"'),
      await colour('"Ann"'),
      await colour('1'),
      await colour('true'),
    ]);
    assert.equal(colours.size, 4, `four token colours: ${[...colours].join(', ')}`);
    // The template marked as such.
    assert.deepEqual(await cm.locator('.cm-template').allTextContents(), ['{{params.id}}']);
    // A bracket next to the cursor and its match are marked.
    await cm.locator('.cm-line').nth(2).click();
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('ArrowLeft');
    await waitUntil(
      async () => (await cm.locator('.cm-matchingBracket').count()) === 2,
      'the brackets matched',
    );
    assert.deepEqual(await cm.locator('.cm-matchingBracket').allTextContents(), ['[', ']']);
    // Tab leaves the editor (no keyboard trap).
    await s.page.keyboard.press('Tab');
    assert.equal(await body().evaluate((e) => e === document.activeElement), false);
    await assertAccessible(s.page, 'the body code editor (light)');
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await assertAccessible(s.page, 'the body code editor (dark)');
    await s.page.emulateMedia({ colorScheme: 'light' });
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await waitUntil(
      async () => (await show('GET /api/users/{id}')).body.includes('"ok": true'),
      'the body saved',
    );
  });

  it('loads the code editor only when a body is shown (not with the first screen)', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await page.goto(`${s.url}/projects/${projectId}/endpoints`);
      await page.getByRole('treeitem').first().waitFor();
      await page.getByText('Select an endpoint to edit it, or add one.').waitFor();
      assert.equal(scripts.filter((p) => p.includes('code-editor')).length, 0, scripts.join(', '));
      await page.getByRole('button', { name: 'Add Endpoint' }).last().click();
      await page.locator('.body-field .cm-editor').waitFor();
      assert.equal(scripts.filter((p) => p.includes('code-editor')).length, 1, scripts.join(', '));
    } finally {
      await context.close();
    }
  });
});
