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

  it('shows the navigation with every screen, the unbuilt ones saying so, and passes axe in both themes', async () => {
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
      'Settings',
      'License',
    ])
      await nav.getByRole('link', { name, exact: true }).waitFor();
    for (const name of ['Flows', 'Contract', 'Tunnels', 'TLS']) {
      await nav.getByRole('link', { name: new RegExp(`^${name}`) }).click();
      await s.page.getByRole('note').getByText('Not built yet.').waitFor();
      await assertAccessibleInBothThemes(s.page, `the ${name} screen`);
    }
  });
});
