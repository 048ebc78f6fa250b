import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { assertAccessibleInBothThemes, projectId } from '../helpers/io.js';

const PETSTORE = join(ROOT, 'test', 'fixtures', 'openapi', 'petstore-3.0.yaml');
type Doc = { openapi: string; paths: Record<string, unknown> };

describe('web UI: OpenAPI export', () => {
  let s: UiSession;
  let shop: string;
  const preview = () => s.page.getByLabel('Document preview');

  before(async () => {
    s = await openUiSession({
      seed: async (cli) => {
        await cli(['project', 'create', 'Pet Shop', '-p', '4100']);
        await cli(['import', PETSTORE, '-p', 'Pet Shop']);
      },
    });
    shop = await projectId(s, 'Pet Shop');
  });
  after(() => s?.close());

  it('previews the document in each format and version', async () => {
    await s.open(`/projects/${shop}/export`);
    await s.page.getByRole('heading', { level: 1, name: 'Export Pet Shop' }).waitFor();
    await preview()
      .getByText(/^openapi: 3\.0\.\d/m)
      .waitFor();
    const yaml30 = parse(await preview().innerText()) as Doc;
    assert.match(yaml30.openapi, /^3\.0\.\d$/);
    assert.deepEqual(Object.keys(yaml30.paths).sort(), ['/health', '/pets', '/pets/{petId}']);
    await assertAccessibleInBothThemes(s.page, 'the export screen');

    await s.page.getByLabel('OpenAPI 3.1').check();
    await preview()
      .getByText(/^openapi: 3\.1\.0$/m)
      .waitFor();

    await s.page.getByLabel('JSON').check();
    await preview()
      .getByText(/"openapi": "3\.1\.0"/)
      .waitFor();
    const json31 = JSON.parse(await preview().innerText()) as Doc;
    assert.equal(json31.openapi, '3.1.0');
    assert.ok(json31.paths['/pets/{petId}']);

    await s.page.getByLabel('OpenAPI 3.0').check();
    await preview()
      .getByText(/"openapi": "3\.0\.\d"/)
      .waitFor();
    await assertAccessibleInBothThemes(s.page, 'the export screen (JSON)');
  });

  it('follows the project: an endpoint added from the CLI appears in the preview', async () => {
    const r = await s.cli(['endpoint', 'add', 'Pet Shop', '-n', 'List owners', '-p', '/owners', '-m', 'GET']);
    assert.equal(r.code, 0, r.stderr);
    await preview().getByText('"/owners": {').waitFor();
  });

  it('downloads the document as <project>.openapi.json and .yaml, as the preview shows it', async () => {
    for (const format of ['json', 'yaml'] as const) {
      await s.page.getByLabel(format.toUpperCase(), { exact: true }).check();
      const button = s.page.getByRole('button', { name: `Download Pet Shop.openapi.${format}` });
      await button.waitFor();
      await preview()
        .getByText(format === 'json' ? /"openapi": "3\.0\.\d"/ : /^openapi: 3\.0\.\d/m)
        .waitFor();
      const [download] = await Promise.all([s.page.waitForEvent('download'), button.click()]);
      assert.equal(download.suggestedFilename(), `Pet Shop.openapi.${format}`);
      const saved = join(s.dataDir, `download.${format}`);
      await download.saveAs(saved);
      const text = readFileSync(saved, 'utf8');
      const doc = (format === 'json' ? JSON.parse(text) : parse(text)) as Doc;
      assert.match(doc.openapi, /^3\.0\.\d$/);
      assert.deepEqual(Object.keys(doc.paths).sort(), ['/health', '/owners', '/pets', '/pets/{petId}']);
      assert.ok((doc.paths['/pets'] as Record<string, unknown>).post, 'the POST /pets operation is there');
    }
  });
});
