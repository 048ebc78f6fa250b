import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { UiSession } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { assertAccessibleInBothThemes, projectId } from '../helpers/io.js';
import { testSigner } from '../helpers/license.js';
import { openShopSession } from '../helpers/ui-seed.js';

const PETSTORE = readFileSync(join(ROOT, 'test', 'fixtures', 'openapi', 'petstore-3.0.yaml'), 'utf8');
type Listed = { id: string; method: string; path: string; name: string; variations?: { name: string }[] };

/** A Postman v2.1 collection as Postman exports it: a folder, a request with two examples, one without. */
const POSTMAN = readFileSync(
  join(ROOT, 'test', 'fixtures', 'import', 'petstore.postman_collection.json'),
  'utf8',
);

/** One entry of a HAR as Chromium saves it: a GET of this URL answered 200 with this body. */
function harEntry(url: string, mimeType: string, text: string, resourceType: string) {
  const u = new URL(url);
  return {
    _resourceType: resourceType,
    cache: {},
    pageref: 'page_1',
    request: {
      method: 'GET',
      url,
      httpVersion: 'http/2.0',
      headers: [{ name: ':authority', value: u.host }],
      queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: [
        { name: 'content-type', value: mimeType },
        { name: 'content-length', value: String(text.length) },
      ],
      cookies: [],
      content: { size: text.length, mimeType, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _transferSize: text.length + 100,
    },
    serverIPAddress: '93.184.216.34',
    startedDateTime: '2026-11-20T10:00:00.000Z',
    time: 12.5,
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 10, receive: 1.4 },
  };
}

/** A capture of two hosts: the API (two answers of one path, an image) and a CDN (a script, a JSON file). */
const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    pages: [{ startedDateTime: '2026-11-20T10:00:00.000Z', id: 'page_1', title: 'Shop', pageTimings: {} }],
    entries: [
      harEntry('https://api.example.com/api/users', 'application/json', '[{"id":1}]', 'fetch'),
      harEntry('https://api.example.com/api/users?page=2', 'application/json', '[{"id":2}]', 'fetch'),
      harEntry('https://api.example.com/logo.png', 'image/png', '', 'image'),
      harEntry('https://cdn.example.com/app.js', 'text/javascript', 'console.log(1)', 'script'),
      harEntry('https://cdn.example.com/config.json', 'application/json', '{"theme":"dark"}', 'fetch'),
    ],
  },
});

/** Drops a file of this name and text on the import's drop area, as a file dragged from the desktop. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t!], n!, { type: 'application/json' }));
      return dt;
    },
    [name, text],
  );
  await page.getByTestId('import-drop-zone').dispatchEvent('drop', { dataTransfer });
}

describe('web UI: importing a file of any format', () => {
  let s: UiSession;
  let shop: string;
  const endpoints = (project: string) => s.cliJson<Listed[]>(['endpoint', 'list', project]);
  const projectNames = async () =>
    (await s.cliJson<{ name: string }[]>(['project', 'list'])).map((p) => p.name);

  // A license can be activated (the collection's variables as an environment are a Pro feature).
  const signer = testSigner();

  before(async () => {
    ({ s, shop } = await openShopSession({
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined },
    }));
  });
  after(() => s?.close());

  it('previews a chosen file (nothing written) and imports it on confirmation', async () => {
    await s.open(`/projects/${shop}/import`);
    await s.page.getByRole('heading', { level: 2, name: 'Import a file' }).waitFor();
    await s.page
      .getByLabel('File to import')
      .setInputFiles({ name: 'petstore.yaml', mimeType: 'application/yaml', buffer: Buffer.from(PETSTORE) });
    await s.page.getByText('Read petstore.yaml').waitFor();
    const preview = s.page.getByRole('region', { name: 'Import preview' });
    await preview
      .getByText(
        /^OpenAPI \(or Swagger\) into Shop: 5 to create, 0 to update, 0 to replace, 0 skipped, 0 approximate, /,
      )
      .waitFor();
    await preview.getByText('Nothing is written until you import.').waitFor();
    await preview.getByRole('cell', { name: '/pets/{petId}' }).first().waitFor();
    // The dry run wrote nothing.
    assert.deepEqual(await endpoints('Shop'), []);
    await assertAccessibleInBothThemes(s.page, 'the import screen with a file’s preview');

    await s.page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = s.page.getByRole('region', { name: 'Import report' });
    await report.getByText(/^Imported into Shop: 5 created, 0 updated, 0 replaced, 0 skipped/).waitFor();
    assert.equal((await endpoints('Shop')).length, 5);
    // The file is taken: no preview left, and Import cannot run it twice.
    assert.equal(await preview.count(), 0);
    assert.equal(await s.page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), true);
    await assertAccessibleInBothThemes(s.page, 'the import screen with a file’s report');
  });

  it('takes a dropped file into a new project, the existing routes of this one untouched', async () => {
    await s.open(`/projects/${shop}/import`);
    await s.page.getByLabel('A new project, named after the file’s title (or the file)').check();
    await dropFile(s.page, 'petstore.yaml', PETSTORE);
    await s.page.getByText('Read petstore.yaml').waitFor();
    const preview = s.page.getByRole('region', { name: 'Import preview' });
    await preview.getByText(/5 to create, 0 to update, 0 to replace, 0 skipped/).waitFor();
    const before = await projectNames();
    assert.deepEqual(before.sort(), ['Shop']);

    await s.page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = s.page.getByRole('region', { name: 'Import report' });
    await report.getByText(/^Imported into Petstore: 5 created/).waitFor();
    const id = await projectId(s, 'Petstore');
    assert.equal((await endpoints('Petstore')).length, 5);
    await report.getByRole('link', { name: 'See the endpoints of Petstore' }).click();
    await s.page.waitForURL(`**/projects/${id}/endpoints`);
  });

  it('shows why a file is refused, and imports nothing', async () => {
    await s.open(`/projects/${shop}/import`);
    const count = (await endpoints('Shop')).length;
    await dropFile(s.page, 'notes.json', JSON.stringify({ notes: ['a', 'b'] }));
    await s.page
      .getByRole('alert')
      .filter({ hasText: /not a HAR, Postman, Mockoon, WireMock or OpenAPI file/ })
      .waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), true);
    await assertAccessibleInBothThemes(s.page, 'the import screen with a refused file');

    // A format forced that the file is not: refused with the route's detail.
    await s.page.getByLabel('Format').selectOption('har');
    await s.page
      .getByLabel('File to import')
      .setInputFiles({ name: 'petstore.yaml', mimeType: 'application/yaml', buffer: Buffer.from(PETSTORE) });
    await s.page.getByRole('alert').filter({ hasText: 'Invalid input' }).waitFor();
    assert.equal(await s.page.getByRole('region', { name: 'Import preview' }).count(), 0);
    assert.equal((await endpoints('Shop')).length, count);
  });

  it('previews a Postman collection: folder names, examples as variations, what is approximate', async () => {
    await s.open(`/projects/${shop}/import`);
    await s.page.getByLabel('A new project, named after the file’s title (or the file)').check();
    await s.page.getByLabel('File to import').setInputFiles({
      name: 'petstore.postman_collection.json',
      mimeType: 'application/json',
      buffer: Buffer.from(POSTMAN),
    });
    const preview = s.page.getByRole('region', { name: 'Import preview' });
    await preview
      .getByText(/^Postman collection into Petstore collection: 2 to create, .* 1 approximate/)
      .waitFor();
    const made = preview.getByRole('table').filter({ hasText: 'Endpoints the import would make' });
    await made
      .getByRole('row')
      .filter({ hasText: /Pets \S Get pet/ })
      .filter({ hasText: '/pets/{id}' })
      .filter({ hasText: 'Not found' })
      .waitFor();
    // The request without a saved example answers 200 {}: approximate, said so.
    const approximate = preview.getByRole('table').filter({ hasText: 'Translated approximately' });
    await approximate.getByRole('row').filter({ hasText: 'DELETE' }).waitFor();
    await preview.getByText(/variables .*baseUrl\.$/).waitFor();
    assert.ok(!(await projectNames()).includes('Petstore collection'));

    // The variables as an environment: Pro; without a license the preview says so, Import waits.
    const asEnvironment = s.page.getByLabel('Make an environment of the collection’s variables (Pro)');
    await asEnvironment.check();
    await s.page.getByRole('alert').filter({ hasText: 'needs a Pro license' }).waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), true);
    const activated = await s.cli(['license', 'activate', signer.key({ sub: 'pro@example.com' })]);
    assert.equal(activated.code, 0, activated.stderr);
    await asEnvironment.uncheck();
    await preview.getByText(/variables .*baseUrl\.$/).waitFor();
    await asEnvironment.check();
    await preview.getByText(/variables .*baseUrl; to become the environment Petstore collection\./).waitFor();

    await s.page.getByRole('button', { name: 'Import', exact: true }).click();
    await s.page
      .getByRole('region', { name: 'Import report' })
      .getByText(/^Imported into Petstore collection: 2 created/)
      .waitFor();
    const environments = await s.cliJson<{ name: string; variables: Record<string, string> }[]>([
      'environment',
      'list',
      'Petstore collection',
    ]);
    assert.deepEqual(
      environments.map((e) => [e.name, e.variables]),
      [['Petstore collection', { baseUrl: 'https://petstore.example.com' }]],
    );
    const list = await endpoints('Petstore collection');
    const get = list.find((e) => e.method === 'GET');
    assert.equal(get?.path, '/pets/{id}');
    // The folder's name first (the separator is the Postman import's: docs/import-postman.md).
    assert.match(get?.name ?? '', /^Pets \S Get pet$/);
  });

  it('previews a HAR capture by host, with static assets on demand, and imports it into this project', async () => {
    await s.open(`/projects/${shop}/import`);
    await dropFile(s.page, 'session.har', HAR);
    const preview = s.page.getByRole('region', { name: 'Import preview' });
    const made = preview.getByRole('table').filter({ hasText: 'Endpoints the import would make' });
    const skipped = preview.getByRole('table').filter({ hasText: 'Skipped' });
    // The host with most entries; the other host and the image are skipped, saying so.
    await preview.getByText(/^HAR \(a browser’s network capture\) into Shop: 1 to create/).waitFor();
    await made.getByRole('row').filter({ hasText: '/api/users' }).filter({ hasText: 'page=2' }).waitFor();
    await skipped.getByRole('row').filter({ hasText: 'cdn.example.com' }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the import screen with a HAR’s preview');

    // The HAR options show for a HAR: the other host, then its static assets too.
    await s.page.getByLabel('Only the host').fill('cdn.example.com');
    await made.getByRole('row').filter({ hasText: '/config.json' }).waitFor();
    await preview.getByText(/: 1 to create/).waitFor();
    await s.page.getByLabel('Static assets too (images, scripts, styles, fonts)').check();
    await preview.getByText(/: 2 to create/).waitFor();
    await made.getByRole('row').filter({ hasText: '/app.js' }).waitFor();
    const before = (await endpoints('Shop')).length;

    await s.page.getByRole('button', { name: 'Import', exact: true }).click();
    await s.page
      .getByRole('region', { name: 'Import report' })
      .getByText(/^Imported into Shop: 2 created/)
      .waitFor();
    const paths = (await endpoints('Shop')).map((e) => `${e.method} ${e.path}`);
    assert.equal(paths.length, before + 2);
    assert.ok(paths.includes('GET /config.json') && paths.includes('GET /app.js'), paths.join(', '));
  });
});
