import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { http } from '../helpers/ui.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

interface Logged {
  id: string;
  method: string;
  path: string;
  status: number;
  starred: boolean;
}

/** How long a request may take to show in the log (the issue asks for 1 s; the machine is busy). */
const LIVE = 3000;

describe('web UI: request log', () => {
  let s: UiSession;
  let mock: string;
  let projectId: string;
  let rows: Locator;

  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http(`${mock}${path}`, { method, body, headers });
  const rowOf = (method: string, path: string) =>
    rows.filter({ has: s.page.getByRole('button', { name: path, exact: true }) }).filter({ hasText: method });
  const countIs = (n: number) => waitUntil(async () => (await rows.count()) === n, `${n} rows`, LIVE);
  const logged = (args: string[] = []) => s.cliJson<Logged[]>(['requests', 'list', 'Shop', ...args]);

  before(async () => {
    ({ s, shop: projectId } = await openShopSession({
      seed: async (cli) => {
        // bodies over 64 bytes are stored cut short (the truncated marker's test)
        await cli(['settings', 'update', '--request-body-limit', '64']);
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/users', '-b', '{"users":[{"id":1,"name":"Ada"}]}']);
        await cli([
          'endpoint',
          'add',
          'Shop',
          '-m',
          'POST',
          '-p',
          '/api/users',
          '-s',
          '201',
          '-b',
          '{"id":2}',
        ]);
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/missing', '-s', '404', '-b', '{"error":"nope"}']);
      },
    }));
    mock = await startMockServer(s, 'Shop');
    rows = s.page.getByRole('table', { name: 'Logged requests, newest first' }).locator('tbody tr');
  });
  after(() => s?.close());

  it('says how requests get there when the log is empty, and passes axe', async () => {
    await s.open(`/projects/${projectId}/requests`);
    await s.page.getByRole('heading', { name: 'Request log', level: 1 }).waitFor();
    await s.page.getByText('No requests yet.').waitFor();
    await assertAccessible(s.page, 'the empty request log');
  });

  it('shows each request to the mock server as it comes, newest first, without a reload', async () => {
    assert.equal((await send('GET', '/api/users?page=2', undefined, { 'X-Test': 'yes' })).status, 200);
    await rowOf('GET', '/api/users').waitFor({ timeout: LIVE });
    assert.equal((await send('POST', '/api/users', { name: 'Bob', tags: ['a'] })).status, 201);
    await rowOf('POST', '/api/users').waitFor({ timeout: LIVE });
    assert.equal((await send('GET', '/api/missing')).status, 404);
    await rowOf('GET', '/api/missing').waitFor({ timeout: LIVE });
    await countIs(3);
    assert.match(await rows.nth(0).innerText(), /\/api\/missing/, 'newest first');
    assert.match(await rows.nth(2).innerText(), /GET\s+\/api\/users/);
  });

  it('filters by method, status class and starred, and keeps a filter for new requests', async () => {
    await s.page.getByLabel('Method').selectOption('POST');
    await countIs(1);
    await rowOf('POST', '/api/users').waitFor();
    // live with a filter: a GET is left out, a POST comes in
    await send('GET', '/api/users');
    await send('POST', '/api/users', { name: 'Cy' });
    await countIs(2);
    assert.equal(await rows.filter({ hasText: 'GET' }).count(), 0);
    await s.page.getByLabel('Method').selectOption('');
    await countIs(5);
    await s.page.getByLabel('Status').selectOption('4xx');
    await countIs(1);
    await rowOf('GET', '/api/missing').waitFor();
    await s.page.getByLabel('Status').selectOption('2xx');
    await countIs(4);
    // the filters are in the URL: a reload keeps them
    await s.page.getByLabel('Method').selectOption('POST');
    await countIs(2);
    assert.equal(new URL(s.page.url()).search, '?method=POST&status=2xx');
    await s.page.reload();
    await rowOf('POST', '/api/users').first().waitFor({ timeout: LIVE });
    await countIs(2);
    assert.equal(await s.page.getByLabel('Method').inputValue(), 'POST');
    assert.equal(await s.page.getByLabel('Status').inputValue(), '2xx');
    await s.page.getByLabel('Method').selectOption('');
    await s.page.getByLabel('Status').selectOption('');
    await countIs(5);
    assert.equal(new URL(s.page.url()).search, '');
    // a text the path contains, as typing pauses
    await s.page.getByLabel('Path contains').fill('missing');
    await countIs(1);
    await rowOf('GET', '/api/missing').waitFor();
    assert.equal(new URL(s.page.url()).search, '?path=missing');
    await s.page.getByLabel('Path contains').fill('');
    await countIs(5);
    assert.equal(new URL(s.page.url()).search, '');
  });

  it('shows a request whole: headers both ways and pretty-printed JSON bodies', async () => {
    await rowOf('POST', '/api/users').last().getByRole('button', { name: '/api/users', exact: true }).click();
    const detail = s.page.getByRole('region', { name: /POST \/api\/users → 201/ });
    await detail.waitFor();
    const requestBody = await detail.getByLabel('Request body').innerText();
    assert.equal(requestBody, '{\n  "name": "Bob",\n  "tags": [\n    "a"\n  ]\n}');
    await rowOf('GET', '/api/users').last().getByRole('button', { name: '/api/users', exact: true }).click();
    const get = s.page.getByRole('region', { name: /GET \/api\/users → 200/ });
    await get.waitFor();
    const reqHeaders = get.getByRole('table', { name: 'Request headers' });
    await reqHeaders.getByRole('row', { name: /x-test\s+yes/i }).waitFor();
    const resHeaders = get.getByRole('table', { name: 'Response headers' });
    await resHeaders.getByRole('row', { name: /content-type\s+application\/json/i }).waitFor();
    assert.match(await get.innerText(), /\?page=2/, 'the query');
    const body = await get.getByLabel('Response body').innerText();
    assert.match(body, /^\{\n {2}"users": \[\n {4}\{\n {6}"id": 1,/, 'indented JSON with newlines');
    const endpointId = (
      await s.cliJson<{ id: string; method: string; path: string }[]>(['endpoint', 'list', 'Shop'])
    ).find((e) => e.method === 'GET' && e.path === '/api/users')!.id;
    assert.equal(
      await get.getByRole('link', { name: 'Open the endpoint' }).getAttribute('href'),
      `/projects/${projectId}/endpoints?edit=${endpointId}`,
    );
    await get.getByText('the endpoint itself (no variation)').waitFor();
    await assertAccessible(s.page, 'the request log with a request open');
  });

  it('stars a request (the CLI lists it as starred) and filters the starred ones', async () => {
    const detail = s.page.getByRole('region', { name: /GET \/api\/users → 200/ });
    await detail.getByRole('button', { name: '☆ Star' }).click();
    await detail.getByRole('button', { name: '★ Starred', pressed: true }).waitFor();
    const starred = await logged(['--starred']);
    assert.equal(starred.length, 1);
    assert.equal(starred[0]!.method, 'GET');
    assert.equal(starred[0]!.path, '/api/users');
    await s.page.getByLabel('Starred only').check();
    await countIs(1);
    await rows
      .first()
      .getByRole('button', { name: /^Star GET \/api\/users/, pressed: true })
      .waitFor();
    await s.page.getByLabel('Starred only').uncheck();
    await countIs(5);
  });

  it('deletes one request after the confirmation', async () => {
    await rowOf('GET', '/api/missing').getByRole('button', { name: '/api/missing', exact: true }).click();
    const detail = s.page.getByRole('region', { name: /GET \/api\/missing → 404/ });
    await detail.getByRole('button', { name: 'Delete' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete this request?' });
    await dialog.getByText(/GET \/api\/missing → 404/).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await countIs(4);
    const left = await logged();
    assert.equal(left.length, 4);
    assert.ok(!left.some((r) => r.path === '/api/missing'), 'gone from the CLI list');
  });

  it('clears the log after a confirmation saying how many go, starred too', async () => {
    await s.page.getByRole('button', { name: 'Clear log…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Clear the request log of Shop?' });
    await dialog.getByText('4 logged requests').waitFor();
    await dialog.getByText('1 starred request among them').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await logged()).length, 4, 'Cancel keeps them');
    await s.page.getByRole('button', { name: 'Clear log…' }).click();
    await dialog.getByRole('button', { name: 'Clear log' }).click();
    await s.page.getByText('No requests yet.').waitFor();
    assert.equal((await logged()).length, 0);
    // and it stays live after a clear
    await send('GET', '/api/users');
    await countIs(1);
  });

  it('marks a request whose body was cut short', async () => {
    await send('POST', '/api/users', { note: 'x'.repeat(200) });
    await countIs(2);
    await rows.first().getByRole('button', { name: '/api/users', exact: true }).click();
    const detail = s.page.getByRole('region', { name: /POST \/api\/users → 201/ });
    await detail.getByText('Truncated', { exact: true }).waitFor();
    // the badge is on the body that was cut, not on the short response
    assert.equal(await detail.getByText('truncated', { exact: true }).count(), 1);
    await detail.getByText('Request body').locator('..').getByText('truncated', { exact: true }).waitFor();
    const body = await detail.getByLabel('Request body').innerText();
    assert.equal(body.length, 64, 'the stored start of the body, as stored');
  });

  it('shows a burst of requests, all of them, newest first', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => send('GET', `/api/burst-${i}`)));
    await countIs(10);
    const times = await rows
      .locator('time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    assert.deepEqual(times, [...times].sort().reverse());
    assert.equal((await logged()).length, 10);
  });

  it('adds an endpoint for a request no endpoint matched, its method and path filled in', async () => {
    assert.equal((await send('PATCH', '/api/nowhere/7')).status, 404);
    await rowOf('PATCH', '/api/nowhere/7').waitFor({ timeout: LIVE });
    await rowOf('PATCH', '/api/nowhere/7')
      .getByRole('button', { name: '/api/nowhere/7', exact: true })
      .click();
    const detail = s.page.getByRole('region', { name: /PATCH \/api\/nowhere\/7 → 404/ });
    await detail.getByText('none matched').waitFor();
    await detail.getByText('mockdev (no endpoint matched)').waitFor();
    await detail.getByRole('link', { name: 'Add an endpoint for it' }).click();
    const ed = s.page.getByRole('region', { name: 'New endpoint', exact: true });
    await ed.waitFor();
    assert.equal(await ed.getByLabel('Method', { exact: true }).inputValue(), 'PATCH');
    assert.equal(await ed.getByLabel('Path', { exact: true }).inputValue(), '/api/nowhere/7');
    await ed.getByRole('button', { name: 'Create endpoint' }).click();
    await s.page.getByRole('region', { name: 'Edit PATCH /api/nowhere/7', exact: true }).waitFor();
    const made = (await s.cliJson<{ method: string; path: string }[]>(['endpoint', 'list', 'Shop'])).filter(
      (e) => e.path === '/api/nowhere/7',
    );
    assert.deepEqual(
      made.map((e) => e.method),
      ['PATCH'],
    );
    assert.equal((await send('PATCH', '/api/nowhere/7')).status, 200, 'the request is answered now');
  });

  it('passes axe in the dark theme', async () => {
    const set = await http(`${s.url}/api/v1/settings`, { method: 'PATCH', body: { theme: 'dark' } });
    assert.equal(set.status, 200, set.body);
    await s.open(`/projects/${projectId}/requests`);
    await rows.last().getByRole('button', { name: '/api/users', exact: true }).click();
    await s.page.getByRole('region', { name: /GET \/api\/users → 200/ }).waitFor();
    await waitUntil(
      async () => (await s.page.evaluate(() => document.documentElement.dataset.theme)) === 'dark',
      'the dark theme applied',
    );
    await assertAccessible(s.page, 'the request log (dark)');
  });
});
