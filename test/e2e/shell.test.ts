import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { http } from '../helpers/ui.js';

describe('web UI shell (served by mockdev ui)', () => {
  let s: UiSession;
  before(async () => {
    s = await openUiSession({
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100']);
      },
    });
  });
  after(() => s?.close());

  it('serves the built UI at / with a CSP, gzipped, and index.html for its own paths', async () => {
    const root = await http(`${s.url}/`, { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(root.status, 200);
    assert.match(String(root.headers['content-type']), /text\/html/);
    assert.match(String(root.headers['content-security-policy']), /default-src 'self'/);
    assert.match(root.body, /<div id="root">/);
    const deep = await http(`${s.url}/projects/abc/endpoints`);
    assert.equal(deep.body, root.body);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(root.body)?.[1];
    assert.ok(asset, 'index.html names its script');
    const js = await http(`${s.url}${asset}`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.match(String(js.headers['cache-control']), /immutable/);
    assert.equal((await http(`${s.url}/assets/nope.js`)).status, 404);
    assert.equal((await http(`${s.url}/`, { method: 'POST', body: {} })).status, 405);
  });

  it('shows the navigation with every screen, and passes axe in both themes', async () => {
    await s.open('/projects');
    const nav = s.page.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Projects',
      'Endpoints',
      'Request log',
      'Recordings',
      'Import',
      'Export',
      'Environments',
      'Flows',
      'Contract',
      'Tunnels',
      'Settings',
      'License',
      'TLS',
    ])
      await nav.getByRole('link', { name, exact: true }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the projects screen');
  });

  it('moves focus to the new screen’s heading after a move by the keyboard, not on the first screen', async () => {
    await s.open('/projects');
    const focused = () =>
      s.page.evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName} ${el.textContent?.trim() ?? ''}` : '';
      });
    assert.doesNotMatch(await focused(), /^H1/, 'a first screen leaves focus where the browser puts it');
    const nav = s.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Request log', exact: true }).focus();
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('heading', { name: 'Request log', level: 1 }).waitFor();
    assert.equal(await focused(), 'H1 Request log');
    // Tab goes on into the screen: its first control
    await s.page.keyboard.press('Tab');
    assert.equal(await s.page.evaluate(() => document.activeElement?.id), 'filter-method');
    // only the query changing keeps focus where it is
    await s.page.getByLabel('Method').selectOption('GET');
    await s.page.waitForURL(/\?method=GET$/);
    assert.equal(await s.page.evaluate(() => document.activeElement?.id), 'filter-method');
    await nav.getByRole('link', { name: 'Settings', exact: true }).click();
    await s.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    assert.equal(await focused(), 'H1 Settings');
  });
});
