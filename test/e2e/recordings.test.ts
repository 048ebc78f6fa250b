import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { http } from '../helpers/ui.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

interface ListedEndpoint {
  id: string;
  name: string;
  method: string;
  path: string;
  kind: string;
  body: string;
  variations: { name: string; body: string }[];
}

/** A real API the proxy endpoint forwards to: JSON answers naming the path it got. */
async function startUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' });
    res.end(JSON.stringify(path === '/items' ? { items: [{ id: 1 }, { id: 2 }] } : { path }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const LIVE = 5000;

describe('web UI: recordings', () => {
  let s: UiSession;
  let upstream: { server: Server; url: string };
  let mock: string;
  let projectId: string;
  let rows: Locator;

  const send = (path: string) => http(`${mock}${path}`);
  const countIs = (n: number) => waitUntil(async () => (await rows.count()) === n, `${n} recordings`, LIVE);
  const recorded = () => s.cliJson<{ id: string }[]>(['recording', 'list', 'Shop/upstream']);
  const endpoints = () => s.cliJson<ListedEndpoint[]>(['endpoint', 'list', 'Shop']);
  const pathButton = (path: string) => rows.getByRole('button', { name: path, exact: true });

  before(async () => {
    upstream = await startUpstream();
    ({ s, shop: projectId } = await openShopSession({
      seed: async (cli) => {
        await cli(['project', 'create', 'Plain', '-p', '4101']);
        const add = await cli([
          'endpoint',
          'add',
          'Shop',
          '-n',
          'upstream',
          '-p',
          '/up/*',
          '--proxy',
          upstream.url,
          '--record',
        ]);
        assert.equal(add.code, 0, add.stderr);
      },
    }));
    mock = await startMockServer(s, 'Shop');
    rows = s.page.getByRole('table', { name: 'Recordings, newest first' }).locator('tbody tr');
  });
  after(async () => {
    await s?.close();
    await new Promise((resolve) => upstream?.server.close(resolve));
  });

  it('explains where recordings come from when a project has no proxy endpoint, and passes axe', async () => {
    await s.open('/projects/Plain/recordings');
    await s.page.getByText('No proxy endpoints in Plain.').waitFor();
    await s.page.getByText(/mockdev endpoint add "Plain" .*--proxy .*--record/).waitFor();
    await assertAccessible(s.page, 'the recordings screen without proxy endpoints');
  });

  it('lists the proxy endpoint and its recordings as requests go through the mock server', async () => {
    await s.open(`/projects/${projectId}/recordings`);
    const nav = s.page.getByRole('navigation', { name: 'Proxy endpoints' });
    await nav.getByRole('link', { name: /GET \/up\/\* upstream 0/ }).waitFor();
    await s.page.getByText(/None yet/).waitFor();
    assert.equal((await send('/up/items?x=1')).status, 200);
    assert.equal((await send('/up/items/7')).status, 200);
    await countIs(2);
    await nav.getByRole('link', { name: /GET \/up\/\* upstream 2/ }).waitFor({ timeout: LIVE });
    assert.match(await rows.nth(0).innerText(), /\/up\/items\/7/, 'newest first');
    assert.equal((await recorded()).length, 2);
  });

  it('shows a recording whole: target, headers, pretty-printed JSON', async () => {
    await pathButton('/up/items').click();
    const detail = s.page.getByRole('region', { name: /GET \/up\/items → 200/ });
    await detail.waitFor();
    await detail.getByText(`${upstream.url}/items?x=1`).waitFor();
    await detail
      .getByRole('table', { name: 'Response headers' })
      .getByRole('row', { name: /x-upstream\s+yes/i })
      .waitFor();
    const body = await detail.getByLabel('Response body').innerText();
    assert.equal(body, JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }, null, 2));
    await assertAccessible(s.page, 'a recording');
  });

  it('turns a recording into a new mock endpoint and links to it', async () => {
    const detail = s.page.getByRole('region', { name: /GET \/up\/items → 200/ });
    await detail.getByRole('button', { name: 'As a new endpoint' }).click();
    const made = detail.getByRole('status').filter({ hasText: 'Created the mock endpoint' });
    await made.waitFor();
    assert.match(await made.innerText(), /GET \/up\/items/);
    const mockEndpoint = (await endpoints()).find((e) => e.kind === 'mock' && e.path === '/up/items');
    assert.ok(mockEndpoint, 'endpoint list has the new mock endpoint');
    assert.equal(mockEndpoint.method, 'GET');
    assert.deepEqual(JSON.parse(mockEndpoint.body), { items: [{ id: 1 }, { id: 2 }] });
    assert.equal(
      await made.getByRole('link', { name: 'Open it in the endpoints' }).getAttribute('href'),
      `/projects/${projectId}/endpoints?edit=${mockEndpoint.id}`,
    );
  });

  it('adds a recording as a variation of that mock endpoint, named', async () => {
    const detail = s.page.getByRole('region', { name: /GET \/up\/items → 200/ });
    await detail.getByLabel('Name (optional)').fill('from recording');
    await detail.getByRole('button', { name: 'As a variation' }).click();
    await detail
      .getByRole('status')
      .filter({ hasText: 'Added the variation “from recording” to GET /up/items' })
      .waitFor();
    const host = (await endpoints()).find((e) => e.kind === 'mock' && e.path === '/up/items');
    assert.deepEqual(
      host?.variations.map((v) => v.name),
      ['from recording'],
    );
    // one that has no mock endpoint to join says why
    await pathButton('/up/items/7').click();
    const other = s.page.getByRole('region', { name: /GET \/up\/items\/7 → 200/ });
    await other.getByRole('button', { name: 'As a variation' }).click();
    const alert = s.page.getByRole('alert').filter({ hasText: 'Could not add a variation' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /No mock endpoint GET \/up\/items\/7/);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('deletes one recording after the confirmation', async () => {
    const detail = s.page.getByRole('region', { name: /GET \/up\/items\/7 → 200/ });
    await detail.getByRole('button', { name: 'Delete' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete this recording?' });
    await dialog.getByText(/GET \/up\/items\/7 → 200/).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await countIs(1);
    const left = await recorded();
    assert.equal(left.length, 1);
  });

  it('clears the endpoint’s recordings after a confirmation saying how many', async () => {
    await send('/up/other');
    await countIs(2);
    const nav = s.page.getByRole('navigation', { name: 'Proxy endpoints' });
    await nav.getByRole('link', { name: /GET \/up\/\* upstream 2/ }).waitFor({ timeout: LIVE });
    await s.page.getByRole('button', { name: 'Clear recordings…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Clear the recordings of GET /up/*?' });
    await dialog.getByText('2 recordings of GET /up/*').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await recorded()).length, 2, 'Cancel keeps them');
    await s.page.getByRole('button', { name: 'Clear recordings…' }).click();
    await dialog.getByRole('button', { name: 'Clear recordings' }).click();
    await s.page.getByText(/None yet/).waitFor();
    assert.equal((await recorded()).length, 0);
  });

  it('preselects the endpoint given in the URL and passes axe in the dark theme', async () => {
    // (GET /up/items is a mock endpoint now: another path goes through the proxy)
    await send('/up/again');
    const set = await http(`${s.url}/api/v1/settings`, { method: 'PATCH', body: { theme: 'dark' } });
    assert.equal(set.status, 200, set.body);
    const id = (await endpoints()).find((e) => e.name === 'upstream')!.id;
    await s.open(`/projects/${projectId}/recordings?endpoint=${id}`);
    await s.page
      .getByRole('navigation', { name: 'Proxy endpoints' })
      .locator('a[aria-current="page"]', { hasText: 'upstream' })
      .waitFor();
    await countIs(1);
    await pathButton('/up/again').click();
    await s.page.getByRole('region', { name: /GET \/up\/again → 200/ }).waitFor();
    await waitUntil(
      async () => (await s.page.evaluate(() => document.documentElement.dataset.theme)) === 'dark',
      'the dark theme applied',
    );
    await assertAccessible(s.page, 'the recordings screen (dark)');
  });
});
