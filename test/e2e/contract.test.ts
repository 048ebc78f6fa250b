import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { testSigner } from '../helpers/license.js';
import { http } from '../helpers/ui.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

const signer = testSigner();
const SHOP = readFileSync(join(ROOT, 'test', 'fixtures', 'contract', 'shop-ui.yaml'), 'utf8');

interface Report {
  checked: number;
  passed: number;
  failed: number;
  violations: { requestId: string; operation: string | null; in: string; location: string }[];
}
interface Logged {
  id: string;
  path: string;
  contract?: { ok: boolean };
}

/**
 * The Contract screen: without a license it says what Pro adds; with one, a document uploaded
 * or fetched by URL becomes the project's contract (as `contract status` sees it), live checking
 * switches on, Validate now shows what `contract validate` finds grouped by operation, each
 * violation opening its request with the failing field marked, and the request log marks the
 * failing requests and lists only them.
 */
describe('web UI: contract', () => {
  let s: UiSession;
  let shop: string;
  let docs: Server;
  let docsUrl: string;
  const screen = () => `/projects/${shop}/contract`;

  before(async () => {
    ({ s, shop } = await openShopSession({
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined },
      seed: async (cli) => {
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/users', '-b', '[{"id":1,"name":"Ada"}]']);
        // the contract says the id is an integer: this answers it as a string
        await cli([
          'endpoint',
          'add',
          'Shop',
          '-p',
          '/api/users/{id}',
          '-b',
          '{"id":"{{params.id}}","name":"Ada"}',
        ]);
      },
    }));
    docs = createServer((req, res) => {
      if (req.url === '/shop.yaml') res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(SHOP);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
    docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}/shop.yaml`;
  });
  after(async () => {
    docs?.close();
    await s?.close();
  });

  it('without a license says what Pro adds, links to the License screen and offers nothing', async () => {
    await s.open(screen());
    await s.page.getByRole('heading', { level: 1, name: 'Contract of Shop' }).waitFor();
    const note = s.page.getByRole('note', { name: 'Contract testing needs a Pro license.' });
    await note.waitFor();
    assert.match(await note.innerText(), /JUnit reports for CI/);
    assert.equal(await s.page.getByRole('button', { name: /Import|Upload|Validate/ }).count(), 0);
    await assertAccessibleInBothThemes(s.page, 'the Contract screen without a license');
    await note.getByRole('link', { name: 'Activate a license' }).click();
    await s.page.waitForURL('**/license');
  });

  it('uploads a document (a bad one refused with its error), then fetches one by URL', async () => {
    const r = await s.cli(['license', 'activate', signer.key({ sub: 'pro@example.com' })]);
    assert.equal(r.code, 0, r.stderr);
    await s.open(screen());
    await s.page.getByText('Shop has no contract yet').waitFor();
    const upload = s.page.getByRole('form', { name: 'Upload a document' });
    const file = upload.getByLabel('Document file');

    await file.setInputFiles({
      name: 'bad.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('openapi: 3.0.3\n'),
    });
    await upload.getByRole('button', { name: 'Upload document' }).click();
    await s.page.getByRole('alert').getByText('Invalid input').waitFor();
    await s.page.getByText('Shop has no contract yet').waitFor();

    await file.setInputFiles({ name: 'shop.yaml', mimeType: 'application/yaml', buffer: Buffer.from(SHOP) });
    await upload.getByRole('button', { name: 'Upload document' }).click();
    const facts = s.page.getByRole('definition').filter({ hasText: 'Shop API' });
    await facts.waitFor();
    const contract = s.page.getByRole('region', { name: 'Contract', exact: true });
    await contract.getByText('an uploaded document').waitFor();
    await contract.getByText('OpenAPI 3.0').waitFor();
    await contract.getByText('1.4.0').waitFor();
    // every operation in the coverage table, none exercised yet
    const coverage = s.page.getByRole('table', {
      name: 'Operations of the contract and their logged requests',
    });
    await coverage.getByRole('rowheader', { name: /DELETE \/api\/users\/\{id\}/ }).waitFor();
    assert.equal(await coverage.getByText('never exercised').count(), 6);
    const status = await s.cliJson<{ total: number; covered: number }>(['contract', 'status', 'Shop']);
    assert.deepEqual([status.total, status.covered], [6, 0]);
    await assertAccessibleInBothThemes(s.page, 'the Contract screen with a contract');

    const byUrl = s.page.getByRole('form', { name: 'Import from a URL' });
    await byUrl.getByLabel('Document URL').fill(docsUrl);
    await byUrl.getByRole('button', { name: 'Import from URL' }).click();
    await contract.getByRole('link', { name: docsUrl }).waitFor();
  });

  it('switches live checking on, validates now and opens a violation’s request with the field marked', async () => {
    await s.open(screen());
    const live = s.page.getByRole('switch', { name: 'Check requests live as they are logged' });
    await live.check();
    await s.page.getByRole('status').getByText('Live checking is on').waitFor();
    const info = await http(`${s.url}/api/v1/projects/${shop}/contract`);
    assert.equal((info.json as { live: boolean }).live, true);

    const mock = await startMockServer(s, 'Shop');
    for (const path of ['/api/users', '/api/users/7', '/nope']) await http(`${mock}${path}`);
    const logged = () => s.cliJson<Logged[]>(['requests', 'list', 'Shop']);
    await waitUntil(async () => (await logged()).length === 3, 'three logged requests');

    await s.page.getByRole('button', { name: 'Validate now' }).click();
    const cli = await s.cli(['contract', 'validate', 'Shop', '--json']);
    assert.equal(cli.code, 1, 'violations: exit 1');
    const report = JSON.parse(cli.stdout) as Report;
    const n = report.violations.length;
    const summary = `Checked ${report.checked} requests: ${report.passed} passed, ${report.failed} failed, ${n} violation${n === 1 ? '' : 's'}`;
    await s.page.getByRole('status').getByText(summary).waitFor();
    const group = s.page.getByRole('region', { name: 'GET /api/users/{id}' });
    await s.page.getByRole('region', { name: 'Requests that match no operation' }).waitFor();
    const bodyId = report.violations.find((v) => v.location === 'body.id');
    assert.ok(bodyId, JSON.stringify(report.violations));
    // unexercised operations stand out, the exercised ones count their requests
    const coverage = s.page.getByRole('table', {
      name: 'Operations of the contract and their logged requests',
    });
    await waitUntil(async () => (await coverage.getByText('never exercised').count()) === 4, 'two exercised');
    await assertAccessibleInBothThemes(s.page, 'the Contract screen with a validation');

    await group
      .getByRole('link', {
        name: new RegExp(`^Request ${bodyId.requestId}: GET /api/users/7, response body\\.id`),
      })
      .click();
    await s.page.waitForURL(/\/requests\?request=/);
    const detail = s.page.getByRole('region', { name: /GET \/api\/users\/7/ });
    await detail.getByText(/Marked below: the response’s body\.id/).waitFor();
    const marked = detail.locator('pre[aria-label="Response body"] mark');
    assert.equal(await marked.innerText(), '"id": "7"');
    await assertAccessibleInBothThemes(s.page, 'a request with a violation marked');
  });

  it('marks the requests a live check failed and lists only them', async () => {
    const failing = await waitUntil(async () => {
      const all = await s.cliJson<Logged[]>(['requests', 'list', 'Shop']);
      return all.every((r) => r.contract) && all.filter((r) => r.contract!.ok === false);
    }, 'the live verdicts');
    assert.deepEqual(failing.map((r) => r.path).sort(), ['/api/users/7', '/nope']);
    await s.open(`/projects/${shop}/requests`);
    const rows = s.page.getByRole('table', { name: 'Logged requests, newest first' }).locator('tbody tr');
    await waitUntil(async () => (await rows.count()) === 3, 'three rows');
    assert.equal(await rows.filter({ hasText: /violation/ }).count(), 2);
    await s.page.getByLabel('Contract violations only').check();
    await s.page.waitForURL(/violations=true/);
    await waitUntil(async () => (await rows.count()) === 2, 'only the failing rows');
    const listed = await s.cliJson<Logged[]>(['requests', 'list', 'Shop', '--violations']);
    assert.deepEqual(listed.map((r) => r.id).sort(), failing.map((r) => r.id).sort());
    await rows.first().getByRole('button').first().click();
    await s.page.getByRole('list', { name: 'Contract violations' }).waitFor();
    await assertAccessible(s.page, 'the request log filtered by violations');
  });
});
