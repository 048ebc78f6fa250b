import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UiSession } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { assertAccessibleInBothThemes, projectId } from '../helpers/io.js';
import { openShopSession } from '../helpers/ui-seed.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'openapi');
type Listed = { id: string; method: string; path: string; name: string; templating?: boolean };

describe('web UI: OpenAPI import', () => {
  let s: UiSession;
  let shop: string;
  const endpoints = (project: string) => s.cliJson<Listed[]>(['endpoint', 'list', project]);

  before(async () => {
    ({ s, shop } = await openShopSession());
  });
  after(() => s?.close());

  it('imports a pasted document into this project and shows the report', async () => {
    await s.open(`/projects/${shop}/import`);
    await s.page.getByRole('heading', { level: 1, name: 'Import into Shop' }).waitFor();
    await assertAccessibleInBothThemes(s.page, 'the import screen');
    await s.page
      .getByLabel('OpenAPI document (JSON or YAML)')
      .fill(readFileSync(join(FIXTURES, 'petstore-3.0.yaml'), 'utf8'));
    await s.page.getByRole('button', { name: 'Import document' }).click();
    const report = s.page.getByRole('region', { name: 'Import report' });
    await report.getByText('Imported into Shop: 5 created, 0 updated, 0 replaced, 0 skipped').waitFor();
    await report.getByRole('cell', { name: '/pets/{petId}' }).first().waitFor();
    const list = await endpoints('Shop');
    assert.deepEqual(list.map((e) => `${e.method} ${e.path}`).sort(), [
      'DELETE /pets/{petId}',
      'GET /health',
      'GET /pets',
      'GET /pets/{petId}',
      'POST /pets',
    ]);
    await assertAccessibleInBothThemes(s.page, 'the import report');

    // Again: every route exists, so each is skipped (and nothing changes), saying why.
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await report.getByText('Imported into Shop: 0 created, 0 updated, 0 replaced, 5 skipped').waitFor();
    await report.getByRole('table').filter({ hasText: 'Skipped' }).getByRole('row').nth(5).waitFor();
    assert.equal((await endpoints('Shop')).length, 5);

    // Updated from the document (overwrite), then replaced whole, keeping their ids.
    // The OpenAPI form's choices (the file import above has the same ones).
    const openapi = s.page.getByRole('region', { name: 'OpenAPI import' });
    await openapi.getByLabel(/^Update them from the document/).check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await report.getByText('Imported into Shop: 0 created, 5 updated, 0 replaced, 0 skipped').waitFor();
    assert.deepEqual((await endpoints('Shop')).map((e) => e.id).sort(), list.map((e) => e.id).sort());
    await openapi.getByLabel(/^Replace them whole/).check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await report.getByText('Imported into Shop: 0 created, 0 updated, 5 replaced, 0 skipped').waitFor();
    assert.deepEqual((await endpoints('Shop')).map((e) => e.id).sort(), list.map((e) => e.id).sort());
  });

  it('imports a file into a new project named after info.title, with a link to its endpoints', async () => {
    await s.page.getByLabel('OpenAPI file').setInputFiles(join(FIXTURES, 'api-3.1.yaml'));
    await s.page.getByText('Read api-3.1.yaml').waitFor();
    assert.match(
      await s.page.getByLabel('OpenAPI document (JSON or YAML)').inputValue(),
      /title: Templates 3\.1/,
    );
    await s.page.getByLabel('A new project, named after the document’s info.title').check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    const report = s.page.getByRole('region', { name: 'Import report' });
    await report
      .getByText(/^Imported into Templates 3\.1: 3 created, 0 updated, 0 replaced, 0 skipped, 1 warning\./)
      .waitFor();
    // A warning names its place in the document.
    await report
      .getByRole('listitem')
      .filter({ hasText: /webhook \(callCompleted\) not imported/ })
      .waitFor();
    assert.match(await report.getByRole('listitem').first().innerText(), /#\/webhooks.*line 55/);
    const created = await endpoints('Templates 3.1');
    assert.deepEqual(created.map((e) => e.method).sort(), ['DELETE', 'GET', 'GET']);
    assert.ok(created.some((e) => e.path === '/repos/{owner}/{repo}/compare/{base}...{head}'));
    const id = await projectId(s, 'Templates 3.1');
    await report.getByRole('link', { name: 'See the endpoints of Templates 3.1' }).click();
    await s.page.waitForURL(`**/projects/${id}/endpoints`);
  });

  it('shows why a broken document is refused, and imports nothing', async () => {
    await s.open(`/projects/${shop}/import`);
    const doc = s.page.getByLabel('OpenAPI document (JSON or YAML)');
    await doc.fill(readFileSync(join(FIXTURES, 'bad', 'not-openapi.json'), 'utf8'));
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await s.page
      .getByRole('alert')
      .filter({ hasText: 'Invalid input' })
      .filter({ hasText: 'it has no "openapi" or "swagger" field at the top level' })
      .waitFor();

    await doc.fill(readFileSync(join(FIXTURES, 'bad', 'syntax.yaml'), 'utf8'));
    await s.page.getByRole('button', { name: 'Import document' }).click();
    const yamlError = s.page.getByRole('alert').filter({ hasText: /not valid YAML.*line 3, column 10/ });
    await yamlError.waitFor();
    await assertAccessibleInBothThemes(s.page, 'the import screen with an error');

    // Strict: a $ref that cannot be resolved refuses the whole document, naming where it is.
    await doc.fill(readFileSync(join(FIXTURES, 'bad', 'missing-ref.yaml'), 'utf8'));
    await s.page.getByLabel('Strict: refuse the document at its first problem').check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await s.page
      .getByRole('alert')
      .filter({
        hasText: /has a \$ref that cannot be resolved: "\.\/does-not-exist\.yaml" at #\/paths\/~1users/,
      })
      .waitFor();
    assert.equal((await endpoints('Shop')).length, 5);
    assert.equal((await s.cliJson<unknown[]>(['project', 'list'])).length, 2);
  });
  it('sends a document’s {{…}} as written and lists it, unless templates are kept', async () => {
    await s.open(`/projects/${shop}/import`);
    const doc = [
      'openapi: 3.0.3',
      'info: { title: Echo, version: "1" }',
      'paths:',
      '  /echo:',
      '    get:',
      '      responses:',
      "        '200': { description: ok, content: { text/plain: { example: '{{json env}}' } } }",
    ].join('\n');
    await s.page.getByLabel('OpenAPI document (JSON or YAML)').fill(doc);
    await s.page.getByLabel('A new project, named after the document’s info.title').check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    const report = s.page.getByRole('region', { name: 'Import report' });
    const literal = report.getByRole('table').filter({ hasText: 'Sent as written' });
    await literal.getByRole('row').filter({ hasText: '/echo' }).filter({ hasText: 'body' }).waitFor();
    assert.equal((await endpoints('Echo')).find((e) => e.path === '/echo')?.templating, false);

    await s.page.getByLabel(/^Keep \{\{…\}\} in the document as templates/).check();
    await s.page.getByRole('button', { name: 'Import document' }).click();
    await report.getByText(/^Imported into Echo-2: 1 created/).waitFor();
    assert.equal(await literal.count(), 0);
    assert.equal((await endpoints('Echo-2')).find((e) => e.path === '/echo')?.templating, undefined);
  });
});
