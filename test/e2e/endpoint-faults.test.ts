import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoint, Variation } from '../../src/core/model/endpoint.js';
import { assertAccessible, type UiSession } from '../helpers/browser.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The endpoint editor's delay (fixed, uniform, lognormal) and fault (with its rate) in the
 * browser (issue 26): set, checked before saving, removed; and a variation's own; each checked
 * through the CLI.
 */
describe('endpoint editor: delays and faults (web UI)', () => {
  let s: UiSession;
  let shopId: string;
  const show = () => s.cliJson<Endpoint>(['endpoint', 'show', 'Shop', 'GET /api/slow']);
  const editor = () => s.page.getByRole('region', { name: 'Edit GET /api/slow', exact: true });

  before(async () => {
    let shop: string;
    ({ s, shop } = await openShopSession({
      seed: async (cli) => {
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/slow', '-b', '{}', '--delay', '40']);
      },
    }));
    shopId = shop;
    await s.open(`/projects/${shop}/endpoints?edit=${(await show()).id}`);
  });
  after(() => s?.close());

  it('sets a uniform delay and a drip fault at a rate; refuses a range the wrong way round', async () => {
    const ed = editor();
    assert.equal(await ed.getByLabel('Delay', { exact: true }).inputValue(), 'fixed');
    assert.equal(await ed.getByLabel('Delay (ms)', { exact: true }).inputValue(), '40');
    await ed.getByLabel('Delay', { exact: true }).selectOption('uniform');
    await ed.getByLabel('Delay from (ms)', { exact: true }).fill('400');
    await ed.getByLabel('Delay to (ms)', { exact: true }).fill('100');
    await ed.getByLabel('Fault', { exact: true }).selectOption('drip');
    await ed.getByLabel('Drip (bytes per second)', { exact: true }).fill('512');
    await ed.getByLabel('Fault rate', { exact: true }).fill('0.5');
    await assertAccessible(s.page, 'the editor with a delay range and a fault');
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await ed.getByText('From must not be above to').waitFor();
    assert.equal((await show()).delay, 40, 'nothing was saved');

    await ed.getByLabel('Delay from (ms)', { exact: true }).fill('100');
    await ed.getByLabel('Delay to (ms)', { exact: true }).fill('400');
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await waitUntil(async () => (await show()).fault === 'drip:512', 'the fault saved');
    const e = await show();
    assert.deepEqual([e.delay, e.fault, e.faultRate], [{ uniform: [100, 400] }, 'drip:512', 0.5]);
  });

  it('switches to a lognormal delay and removes the fault', async () => {
    const ed = editor();
    await ed.getByLabel('Delay', { exact: true }).selectOption('lognormal');
    await ed.getByLabel('Delay median (ms)', { exact: true }).fill('200');
    await ed.getByLabel('Delay spread (sigma)', { exact: true }).fill('0.3');
    await ed.getByLabel('Fault', { exact: true }).selectOption('');
    assert.equal(await ed.getByLabel('Fault rate', { exact: true }).count(), 0, 'no rate without a fault');
    await ed.getByRole('button', { name: 'Save', exact: true }).click();
    await waitUntil(async () => (await show()).fault === undefined, 'the fault removed');
    const e = await show();
    assert.deepEqual([e.delay, 'faultRate' in e], [{ lognormal: { median: 200, sigma: 0.3 } }, false]);
  });

  it('gives a variation a fault of its own', async () => {
    const v = editor().getByRole('region', { name: 'Variations', exact: true });
    await v.getByRole('button', { name: 'Add variation' }).click();
    const form = v.getByRole('form', { name: 'New variation' });
    await form.getByLabel('Variation name').fill('broken');
    await form.getByLabel('Variation fault', { exact: true }).selectOption('reset');
    await form.getByLabel('Variation fault rate', { exact: true }).fill('0.2');
    await form.getByRole('button', { name: 'Add variation' }).click();
    const list = () => s.cliJson<Variation[]>(['endpoint', 'variation', 'list', 'Shop', 'GET /api/slow']);
    await waitUntil(async () => (await list()).length === 1, 'the variation added');
    const [added] = await list();
    assert.deepEqual([added!.fault, added!.faultRate, added!.delay], ['reset', 0.2, 0]);
  });

  it("the request log's detail says the delay applied and the fault sent", async () => {
    const add = await s.cli(['endpoint', 'add', 'Shop', '-p', '/api/drip', '-b', '{"ok":true}']);
    assert.equal(add.code, 0, add.stderr);
    const set = await s.cli([
      'endpoint',
      'update',
      'Shop',
      'GET /api/drip',
      '--delay',
      '25',
      '--fault',
      'drip:100000',
    ]);
    assert.equal(set.code, 0, set.stderr);
    const url = await startMockServer(s, 'Shop');
    const answer = await fetch(`${url}/api/drip`);
    assert.equal(await answer.text(), '{"ok":true}');
    await s.open(`/projects/${shopId}/requests`);
    await s.page.getByRole('button', { name: '/api/drip', exact: true }).first().click();
    const detail = s.page.getByRole('region', { name: /GET \/api\/drip → 200/ });
    await detail.getByText('held back 25 ms before answering').waitFor();
    await detail.getByText('the answer was sent slowly, 100000 bytes per second').waitFor();
    await assertAccessible(s.page, 'a request detail with a delay and a fault');
  });
});
