import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { http } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

interface Flow {
  id: string;
  name: string;
  enabled: boolean;
  steps: { id: string; label?: string; trigger: Record<string, unknown>; action: Record<string, unknown> }[];
}

/**
 * The Flows screen: a flow built from the menus, a problem shown at its field, Enabled toggled
 * in the list, a run of the flow showing live with its steps' outcomes (a request to the
 * project's mock server starts it, its callback reaching a receiver here), and delete.
 */
describe('web UI: flows', () => {
  let s: UiSession;
  let shop: string;
  let receiver: Server;
  let hookUrl: string;
  const received: { path: string; body: string }[] = [];

  const flows = async () => {
    const r = await http(`${s.url}/api/v1/projects/Shop/flows`);
    assert.equal(r.status, 200, r.body);
    return r.json as Flow[];
  };
  const row = (name: string) =>
    s.page.getByRole('row').filter({ has: s.page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  const step = (n: number) => s.page.getByRole('group', { name: new RegExp(`^Step ${n}\\b`) });

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        received.push({ path: req.url!, body });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/orders`;
    ({ s, shop } = await openShopSession({
      seed: async (cli) => {
        const r = await cli([
          'endpoint',
          'add',
          'Shop',
          '-m',
          'POST',
          '-p',
          '/orders',
          '-s',
          '202',
          '-b',
          '{"accepted":true}',
        ]);
        assert.equal(r.code, 0, r.stderr);
      },
    }));
  });
  after(async () => {
    await s?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('creates a flow whose steps are chosen from the menus; the API’s problem shows at its field', async () => {
    await s.open(`/projects/${shop}/flows`);
    await s.page.getByText('No flows yet: create one above.').waitFor();
    await s.page.getByLabel('New flow name').fill('Order webhook');
    await s.page.getByRole('button', { name: 'Create flow' }).click();
    await s.page.getByRole('heading', { name: 'Edit Order webhook' }).waitFor();

    await s.page.getByRole('button', { name: 'Add step' }).click();
    await step(1).getByLabel('Label').fill('accept');
    await step(1).getByLabel('Trigger').selectOption({ label: 'When request hits' });
    await step(1).getByLabel('Endpoint that fires it').selectOption({ label: 'POST /orders' });
    await step(1).getByLabel('Action', { exact: true }).selectOption({ label: 'Return mock response' });
    await step(1).getByLabel('Mock endpoint that answers').selectOption({ label: 'POST /orders' });

    await s.page.getByRole('button', { name: 'Add step' }).click();
    await step(2).getByLabel('Label').fill('notify');
    await step(2).getByLabel('Trigger').selectOption({ label: 'After step' });
    await step(2).getByLabel('Step it follows').selectOption({ label: 'accept' });
    await step(2).getByLabel('Delay after that step (ms)').fill('100');
    await step(2).getByLabel('Action', { exact: true }).selectOption({ label: 'Send callback (HTTP)' });
    const url = step(2).getByLabel('URL');
    await url.fill('ftp://example.com/hook');
    await step(2).getByLabel('Callback body (a template)').fill('{"order":"{{body.id}}"}');
    await s.page.getByRole('button', { name: 'Save flow' }).click();

    // The core refuses the URL; the problem shows under it, and the focus moves there.
    await waitUntil(
      async () => (await url.getAttribute('aria-invalid')) === 'true',
      'the URL marked invalid',
    );
    const describedBy = (await url.getAttribute('aria-describedby'))!;
    const message = s.page.locator(`[id="${describedBy.split(' ')[0]}"]`);
    assert.match(await message.innerText(), /http/);
    assert.ok(
      await url.evaluate((el) => el === document.activeElement),
      'the focus is on the field at fault',
    );
    assert.deepEqual((await flows())[0]!.steps, [], 'nothing was saved');
    await assertAccessibleInBothThemes(s.page, 'the flow editor with a problem at a field');

    await url.fill(hookUrl);
    await s.page.getByRole('button', { name: 'Save flow' }).click();
    await waitUntil(async () => (await flows())[0]!.steps.length === 2, 'the steps saved');
    const [flow] = await flows();
    const endpoint = (
      await http(`${s.url}/api/v1/projects/Shop/endpoints/${encodeURIComponent('POST /orders')}`)
    ).json as { id: string };
    assert.deepEqual(
      flow!.steps.map((x) => [x.label, x.trigger, x.action.type]),
      [
        ['accept', { type: 'request', endpointId: endpoint.id }, 'respond'],
        ['notify', { type: 'after', stepId: flow!.steps[0]!.id, delayMs: 100 }, 'callback'],
      ],
    );
    assert.deepEqual(
      [flow!.steps[1]!.action.url, flow!.steps[1]!.action.body],
      [hookUrl, '{"order":"{{body.id}}"}'],
    );
    assert.equal(await url.getAttribute('aria-invalid'), null, 'the problem is gone once saved');
  });

  it('toggles Enabled in the flow list', async () => {
    const enabled = row('Order webhook').getByRole('checkbox', { name: /^Enabled/ });
    assert.equal(await enabled.isChecked(), true);
    // A click, not uncheck()/check(): the box shows the saved state, which on a busy machine
    // arrives after the click returns (check() asserts the state changed at once).
    await enabled.click();
    await waitUntil(async () => (await flows())[0]!.enabled === false, 'the flow disabled');
    await waitUntil(async () => !(await enabled.isChecked()), 'the toggle off');
    await enabled.click();
    await waitUntil(async () => (await flows())[0]!.enabled === true, 'the flow enabled again');
    await assertAccessibleInBothThemes(s.page, 'the flow list');
  });

  it('shows a run live as a request starts it, each step’s outcome and the callback’s status', async () => {
    const server = await startMockServer(s, 'Shop');
    await s.page.getByText('No runs yet. They show here as they start.').waitFor();
    const res = await fetch(`${server}/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"id":"A-1"}',
    });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { accepted: true });

    const run = s.page.locator('.run').first();
    await run.getByText('completed', { exact: true }).first().waitFor({ timeout: 15_000 });
    const stepRow = (label: string) =>
      run.getByRole('row').filter({ has: s.page.getByRole('rowheader', { name: label, exact: true }) });
    await stepRow('notify')
      .getByText(new RegExp(`^POST ${hookUrl.replace(/[/.]/g, '\\$&')} → 200, 1 attempt`))
      .waitFor();
    assert.equal(await stepRow('accept').getByText('completed', { exact: true }).count(), 1);
    assert.equal(await stepRow('notify').getByText('completed', { exact: true }).count(), 1);
    assert.match(await run.locator('caption').innerText(), /^completed Run started .* by a request/);
    assert.deepEqual(
      received.map((r) => [r.path, JSON.parse(r.body)]),
      [['/hooks/orders', { order: 'A-1' }]],
    );
    await assertAccessibleInBothThemes(s.page, 'the runs of a flow');
  });

  it('deletes a flow after confirming', async () => {
    await row('Order webhook').getByRole('button', { name: 'Delete Order webhook' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete the flow Order webhook?' });
    await dialog.getByText('Order webhook: 2 step(s)').waitFor();
    await assertAccessibleInBothThemes(s.page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Delete flow' }).click();
    await s.page.getByText('No flows yet: create one above.').waitFor();
    assert.deepEqual(await flows(), []);
    await s.page.getByRole('heading', { name: 'Edit Order webhook' }).waitFor({ state: 'detached' });
  });
});
