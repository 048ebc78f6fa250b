import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { http } from '../helpers/ui.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';
import { codeText } from './code-editor-helpers.js';

/**
 * The endpoint editor in the browser: every field of a new endpoint lands (checked through the
 * CLI), an existing one is patched, the body's JSON check and Format, the API's template error
 * in place, proxy settings, unsaved changes, and delete. Variations: endpoint-editor-variations.
 */
describe('endpoint editor (web UI)', () => {
  let s: UiSession;
  let projectId: string;
  const show = (endpoint: string) => s.cliJson<Endpoint>(['endpoint', 'show', 'Shop', endpoint]);
  const editor = (name: string) => s.page.getByRole('region', { name, exact: true });
  const endpointsPath = (q: string) => `/projects/${projectId}/endpoints?${q}`;

  before(async () => {
    ({ s, shop: projectId } = await openShopSession({
      seed: async (cli) => {
        await cli([
          'endpoint',
          'add',
          'Shop',
          '-p',
          '/api/orders',
          '-H',
          'X-Keep: 1',
          '-H',
          'X-Drop: 2',
          '-b',
          '[]',
        ]);
      },
    }));
  });
  after(() => s?.close());

  it('creates an endpoint from ?new=<path> with every field it was given', async () => {
    await s.open(endpointsPath(`new=${encodeURIComponent('/api/users')}`));
    const ed = editor('New endpoint');
    assert.equal(await ed.getByLabel('Path', { exact: true }).inputValue(), '/api/users');
    await assertAccessible(s.page, 'the editor of a new endpoint');

    await ed.getByLabel('Name', { exact: true }).fill('Create user');
    await ed.getByLabel('Method', { exact: true }).selectOption('POST');
    await ed.getByLabel('Status', { exact: true }).fill('201');
    await ed.getByLabel('Status text', { exact: true }).fill('Made');
    await ed.getByLabel('Content type', { exact: true }).fill('application/json; charset=utf-8');
    await ed.getByLabel('Delay (ms)', { exact: true }).fill('250');
    await ed.getByRole('button', { name: 'Add header' }).click();
    await ed.getByLabel('Response header 1 name').fill('Location');
    await ed.getByLabel('Response header 1 value').fill('/api/users/7');
    await ed.getByLabel('Body', { exact: true }).fill('{"id":7,"name":"Ann"}');
    await ed.getByRole('button', { name: 'Create endpoint' }).click();

    // Saved: the editor now edits it (the screen opens ?edit=<id>).
    await editor('Edit POST /api/users').waitFor();
    const e = await show('POST /api/users');
    assert.deepEqual(
      {
        name: e.name,
        method: e.method,
        path: e.path,
        status: e.status,
        statusText: e.statusText,
        headers: e.headers,
        body: e.body,
        contentType: e.contentType,
        delay: e.delay,
        enabled: e.enabled,
        kind: e.kind,
      },
      {
        name: 'Create user',
        method: 'POST',
        path: '/api/users',
        status: 201,
        statusText: 'Made',
        headers: { Location: '/api/users/7' },
        body: '{"id":7,"name":"Ann"}',
        contentType: 'application/json; charset=utf-8',
        delay: 250,
        enabled: true,
        kind: 'mock',
      },
    );
    assert.match(s.page.url(), new RegExp(`\\?edit=${e.id}$`));
  });

  it('checks a JSON body as it is typed, refuses to save it invalid, and formats it', async () => {
    const ed = editor('Edit POST /api/users');
    const body = ed.getByLabel('Body', { exact: true });
    await body.fill('{\n  "id": 7\n  "name": "Ann"\n}');
    const problem = ed.getByText('Invalid JSON: Line 3, column 3: expected "," or "}"');
    await problem.waitFor();
    assert.equal(await body.getAttribute('aria-invalid'), 'true');
    const describedBy = (await body.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy.split(' ').includes((await problem.getAttribute('id')) ?? '-'), describedBy);
    await assertAccessible(s.page, 'the editor showing a JSON error');

    assert.equal(await ed.getByRole('button', { name: 'Format' }).isDisabled(), true);
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await ed.getByRole('alert').filter({ hasText: 'The body is not valid JSON' }).waitFor();
    await waitUntil(() => body.evaluate((el) => el === document.activeElement), 'the body focused');
    assert.equal((await show('POST /api/users')).body, '{"id":7,"name":"Ann"}', 'nothing was saved');

    await body.fill('{"id":7,"tags":["a","b"]}');
    await problem.waitFor({ state: 'detached' });
    assert.equal(await body.getAttribute('aria-invalid'), null);
    await ed.getByRole('button', { name: 'Format' }).click();
    const pretty = JSON.stringify({ id: 7, tags: ['a', 'b'] }, null, 2);
    assert.equal(await codeText(body), pretty);
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await waitUntil(async () => (await show('POST /api/users')).body === pretty, 'the formatted body saved');
  });

  it('shows a template the API refuses, with its line and column, and keeps the form as typed', async () => {
    const ed = editor('Edit POST /api/users');
    const body = ed.getByLabel('Body', { exact: true });
    const typed = '{"admin": {{#if query.admin}}true}';
    await body.fill(typed);
    // A template: not JSON as written, a warning only.
    await ed.getByText(/^Not JSON as written \(a template may make it JSON when rendered\)/).waitFor();
    assert.equal(await body.getAttribute('aria-invalid'), null);
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = ed.getByRole('alert').filter({ hasText: 'Invalid template in body at line 1, column' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /Invalid argument/);
    await ed
      .locator('.body-field')
      .getByText(/^Invalid template in body at line 1, column \d+: the template ends inside/)
      .waitFor();
    assert.equal(await body.getAttribute('aria-invalid'), 'true');
    assert.equal(await codeText(body), typed);
    assert.equal(await ed.getByLabel('Status', { exact: true }).inputValue(), '201');
    assert.notEqual((await show('POST /api/users')).body, typed);
    await assertAccessible(s.page, 'the editor showing an API error');

    // Leaving with unsaved changes asks first and names them.
    await ed.getByRole('button', { name: 'Cancel' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await dialog.getByRole('listitem').filter({ hasText: 'Body' }).waitFor();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await s.page.getByText('Select an endpoint to edit it, or add one.').waitFor();
  });

  it('saves only what changed on an existing endpoint: a new status, a removed header', async () => {
    const orders = await show('GET /api/orders');
    await s.open(endpointsPath(`edit=${orders.id}`));
    const ed = editor('Edit GET /api/orders');
    await ed.getByLabel('Status', { exact: true }).fill('404');
    await ed.getByRole('button', { name: 'Remove response header X-Drop' }).click();
    await ed.getByText('Unsaved changes').waitFor();
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await ed.getByText('Unsaved changes').waitFor({ state: 'detached' });
    const e = await show('GET /api/orders');
    assert.equal(e.status, 404);
    assert.deepEqual(e.headers, { 'X-Keep': '1' });
    assert.equal(e.body, '[]');
    assert.equal(e.name, orders.name);
    assert.equal(await ed.getByLabel('Status', { exact: true }).inputValue(), '404');
  });

  it('says where the endpoint answers while the server runs: a link for a GET, the URL for the rest', async () => {
    const orders = await show('GET /api/orders');
    await s.open(endpointsPath(`edit=${orders.id}`));
    const ed = editor('Edit GET /api/orders');
    await ed.waitFor();
    assert.equal(await ed.getByText('Served at').count(), 0, 'nothing while the server is stopped');
    const mock = await startMockServer(s, 'Shop');
    const link = ed.getByRole('link', { name: `${mock}/api/orders` });
    await link.waitFor();
    const answer = await http((await link.getAttribute('href'))!);
    assert.equal(answer.status, orders.status, 'the endpoint answers there');
    assert.equal(answer.body, orders.body);
    const created = await show('POST /api/users');
    await s.open(endpointsPath(`edit=${created.id}`));
    const post = editor('Edit POST /api/users');
    await post.locator('code', { hasText: `${mock}/api/users` }).waitFor();
    assert.equal(await post.getByRole('link', { name: /api\/users/ }).count(), 0, 'a browser cannot POST');
    assert.equal((await http(`${s.url}/api/v1/projects/Shop/server`, { method: 'DELETE' })).status, 200);
    await waitUntil(
      async () => (await post.getByText('Served at').count()) === 0,
      'the line gone once stopped',
    );
  });

  it('makes a proxy endpoint with its target, recording and timeout', async () => {
    await s.open(endpointsPath(`new=${encodeURIComponent('/github/*')}`));
    const ed = editor('New endpoint');
    await ed.getByLabel('Kind', { exact: true }).selectOption('proxy');
    await ed.getByLabel('Target URL').fill('https://api.github.com');
    await ed.getByLabel('Record forwarded exchanges').check();
    await ed.getByLabel('Timeout (ms)').fill('5000');
    await assertAccessible(s.page, 'the editor of a proxy endpoint');
    await ed.getByRole('button', { name: 'Create endpoint' }).click();
    const saved = editor('Edit GET /github/*');
    await saved.waitFor();
    const e = await show('GET /github/*');
    assert.equal(e.kind, 'proxy');
    assert.deepEqual(e.proxy, { target: 'https://api.github.com', record: true, timeoutMs: 5000 });

    // A proxy needs a target: said at the field, nothing sent.
    await saved.getByLabel('Target URL').fill('');
    await saved.getByRole('button', { name: 'Save', exact: true }).click();
    await saved.getByText('Give the URL requests are forwarded to').waitFor();
    assert.equal(await saved.getByLabel('Target URL').getAttribute('aria-invalid'), 'true');
    await waitUntil(
      () => saved.getByLabel('Target URL').evaluate((el) => el === document.activeElement),
      'the target focused',
    );
    assert.equal((await show('GET /github/*')).proxy?.target, 'https://api.github.com');
  });

  it('deletes an endpoint after a confirmation that lists it', async () => {
    const users = await show('POST /api/users');
    await s.open(endpointsPath(`edit=${users.id}`));
    const ed = editor('Edit POST /api/users');
    await ed.getByRole('button', { name: 'Delete endpoint' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await dialog.getByRole('listitem').filter({ hasText: 'POST /api/users (Create user)' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.ok((await s.cliJson<Endpoint[]>(['endpoint', 'list', 'Shop'])).some((e) => e.id === users.id));

    await ed.getByRole('button', { name: 'Delete endpoint' }).click();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await s.page.getByText('Select an endpoint to edit it, or add one.').waitFor();
    const left = await s.cliJson<Endpoint[]>(['endpoint', 'list', 'Shop']);
    assert.deepEqual(left.map((e) => `${e.method} ${e.path}`).sort(), ['GET /api/orders', 'GET /github/*']);
  });
});
