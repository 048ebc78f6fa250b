import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoint, Variation } from '../../src/core/model/endpoint.js';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { openShopSession } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The endpoint editor's variations in the browser: add one with a rule, make it active and go
 * back to selection by mode, switch the mode, edit it, delete it after a confirmation; each
 * checked through the CLI.
 */
describe('endpoint editor: variations (web UI)', () => {
  let s: UiSession;
  let endpoint: Endpoint;
  const show = () => s.cliJson<Endpoint>(['endpoint', 'show', 'Shop', 'GET /api/users']);
  const variations = () =>
    s.cliJson<Variation[]>(['endpoint', 'variation', 'list', 'Shop', 'GET /api/users']);
  const editor = () => s.page.getByRole('region', { name: 'Edit GET /api/users', exact: true });
  const section = () => editor().getByRole('region', { name: 'Variations', exact: true });

  before(async () => {
    let shop: string;
    ({ s, shop } = await openShopSession({
      seed: async (cli) => {
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/users', '-b', '[]', '-s', '200']);
      },
    }));
    endpoint = await show();
    await s.open(`/projects/${shop}/endpoints?edit=${endpoint.id}`);
  });
  after(() => s?.close());

  it('adds a variation with a rule, status text, header and body', async () => {
    const v = section();
    await v.getByText('No variations: the endpoint always answers with its own response.').waitFor();
    await v.getByRole('button', { name: 'Add variation' }).click();
    const form = v.getByRole('form', { name: 'New variation' });
    assert.equal(
      await form.getByLabel('Variation status', { exact: true }).inputValue(),
      '200',
      'the endpoint status',
    );
    await form.getByLabel('Variation name').fill('page-two');
    await form.getByLabel('Variation status', { exact: true }).fill('206');
    await form.getByLabel('Variation status text').fill('Partial');
    await form.getByRole('button', { name: 'Add rule' }).click();
    assert.equal(await form.getByLabel('Rule 1 source').inputValue(), 'query');
    await form.getByLabel('Rule 1 key').fill('page');
    assert.equal(await form.getByLabel('Rule 1 condition').inputValue(), 'equals');
    await form.getByLabel('Rule 1 value').fill('2');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Variation header 1 name').fill('X-Page');
    await form.getByLabel('Variation header 1 value').fill('2');
    // The body and content type are the endpoint's until unticked.
    assert.equal(await form.getByLabel('Variation body').count(), 0);
    await form.getByRole('checkbox', { name: /^Body: the endpoint’s/ }).uncheck();
    await form.getByLabel('Variation body').fill('{"page": 2}');
    await assertAccessible(s.page, 'the variation form');
    await form.getByRole('button', { name: 'Add variation' }).click();

    const row = v.getByRole('row', { name: /page-two/ });
    await row.getByRole('cell', { name: 'query.page=2' }).waitFor();
    await form.waitFor({ state: 'detached' });
    const [added, ...others] = await variations();
    assert.equal(others.length, 0);
    assert.deepEqual(
      { ...added, id: undefined },
      {
        id: undefined,
        name: 'page-two',
        status: 206,
        statusText: 'Partial',
        headers: { 'X-Page': '2' },
        body: '{"page": 2}',
        delay: 0,
        rules: [{ source: 'query', key: 'page', op: 'equals', value: '2' }],
        inherits: ['contentType'],
      },
    );
    await assertAccessible(s.page, 'the editor of an endpoint with variations');
  });

  it('makes it active, and goes back to selection by mode', async () => {
    const v = section();
    const [variation] = await variations();
    await v.getByRole('button', { name: 'Make active: page-two' }).click();
    await v
      .getByRole('row', { name: /page-two/ })
      .getByText('Active', { exact: true })
      .waitFor();
    await waitUntil(async () => (await show()).activeVariationId === variation!.id, 'page-two active');
    await assertAccessible(s.page, 'the editor with an active variation');

    await v.getByRole('button', { name: 'Use selection by mode' }).click();
    await v.getByText('No variation is active: the selection mode decides.').waitFor();
    await waitUntil(async () => (await show()).activeVariationId === undefined, 'no variation active');
  });

  it('switches the selection mode', async () => {
    const mode = section().getByLabel('Selection mode');
    assert.equal(await mode.inputValue(), 'rules');
    await mode.selectOption('sequential');
    await waitUntil(async () => (await show()).mode === 'sequential', 'mode sequential');
    await mode.selectOption('random');
    await waitUntil(async () => (await show()).mode === 'random', 'mode random');
    assert.equal(await mode.inputValue(), 'random');
  });

  it('edits a variation: only what changed, its rules cleared', async () => {
    const v = section();
    await v.getByRole('button', { name: 'Edit variation page-two' }).click();
    const form = v.getByRole('form', { name: 'Edit variation page-two' });
    assert.equal(await form.getByLabel('Rule 1 value').inputValue(), '2');
    await form.getByLabel('Variation status', { exact: true }).fill('207');
    await form.getByRole('button', { name: 'Remove rule 1' }).click();
    await form.getByRole('button', { name: 'Save variation' }).click();
    await form.waitFor({ state: 'detached' });
    const [changed] = await variations();
    assert.equal(changed!.status, 207);
    assert.equal(changed!.rules, undefined);
    assert.equal(changed!.statusText, 'Partial');
    assert.deepEqual(changed!.headers, { 'X-Page': '2' });
    await v
      .getByRole('row', { name: /page-two/ })
      .getByRole('cell', { name: '207 Partial' })
      .waitFor();
  });

  it('shows the API refusing a taken name or a template, and asks before discarding', async () => {
    await s.cli(['endpoint', 'variation', 'add', 'Shop', 'GET /api/users', '-n', 'empty', '-s', '204']);
    const v = section();
    await v.getByRole('row', { name: /empty/ }).waitFor(); // the endpoints event brought it
    await v.getByRole('button', { name: 'Add variation' }).click();
    const form = v.getByRole('form', { name: 'New variation' });
    await form.getByLabel('Variation name').fill('EMPTY');
    await form.getByRole('button', { name: 'Add variation' }).click();
    await form.getByRole('alert').filter({ hasText: 'already has a variation named "empty"' }).waitFor();
    assert.equal(await form.getByLabel('Variation name').inputValue(), 'EMPTY');

    await form.getByLabel('Variation name').fill('listing');
    await form.getByRole('checkbox', { name: /^Content type: the endpoint’s/ }).uncheck();
    await form.getByRole('checkbox', { name: /^Body: the endpoint’s/ }).uncheck();
    await form.getByLabel('Variation content type').fill('text/plain');
    await form.getByLabel('Variation body').fill('{{#each items}}{{name}}');
    await form.getByRole('button', { name: 'Add variation' }).click();
    await form
      .locator('.body-field')
      .getByText(/^Invalid template in variation "listing" body at line 1, column \d+/)
      .waitFor();
    assert.equal(await form.getByLabel('Variation body').getAttribute('aria-invalid'), 'true');
    assert.equal((await variations()).length, 2);

    await form.getByRole('button', { name: 'Cancel' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await dialog.getByRole('listitem').filter({ hasText: 'New variation listing' }).waitFor();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await form.waitFor({ state: 'detached' });
    assert.deepEqual(
      (await variations()).map((x) => x.name),
      ['page-two', 'empty'],
    );
  });

  it('says so when the variation edited is removed elsewhere', async () => {
    const v = section();
    await v.getByRole('button', { name: 'Edit variation empty' }).click();
    await v.getByRole('form', { name: 'Edit variation empty' }).waitFor();
    await s.cli(['endpoint', 'variation', 'remove', 'Shop', 'GET /api/users', 'empty', '--force']);
    await v.getByText('That variation no longer exists (it was deleted elsewhere).').waitFor();
    await v.getByRole('button', { name: 'OK' }).click();
    await v.getByRole('button', { name: 'Add variation' }).waitFor();
  });

  it('deletes a variation after a confirmation that lists it', async () => {
    const v = section();
    await v.getByRole('button', { name: 'Delete variation page-two' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete this variation?' });
    await dialog.getByRole('listitem').filter({ hasText: 'Variation page-two (207)' }).waitFor();
    await dialog.getByRole('button', { name: 'Delete variation' }).click();
    await v.getByRole('row', { name: /page-two/ }).waitFor({ state: 'detached' });
    assert.deepEqual(await variations(), []);
    await v.getByText('No variations: the endpoint always answers with its own response.').waitFor();
  });
});
