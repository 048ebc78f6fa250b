import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, openUiSession, type UiSession } from '../helpers/browser.js';
import { tempDir } from '../helpers/cli.js';
import { startServe } from '../helpers/server.js';
import { http } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

interface ListedProject {
  id: string;
  name: string;
  port: number;
  description: string;
  endpointCount: number;
}
interface Status {
  projectId: string;
  projectName: string;
  url: string;
  port: number;
}

/** A port nothing listens on now (asked of the OS, then released). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const row = (page: Page, name: string) =>
  page
    .getByRole('table', { name: 'Projects' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });

describe('web UI: projects screen', () => {
  let s: UiSession;
  let busy: Server | undefined;
  const folder = tempDir('mockdev-folder-project-');
  before(async () => {
    s = await openUiSession({
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100', '-d', 'The shop API']);
        await cli(['endpoint', 'add', 'Shop', '-p', '/api/items', '-b', '[]']);
        const init = await cli(['init', folder.dir, '-n', 'InFolder', '-p', '4500']);
        assert.equal(init.code, 0, init.stderr);
      },
    });
  });
  after(async () => {
    await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
    await s?.close();
    folder.cleanup();
  });

  it('lists the projects with port, endpoint count, description and server status, and passes axe', async () => {
    await s.open('/projects');
    const shop = row(s.page, 'Shop');
    await shop.waitFor();
    await shop.getByRole('cell', { name: '4100' }).waitFor();
    await shop.getByRole('cell', { name: '1', exact: true }).waitFor();
    await shop.getByRole('cell', { name: 'The shop API' }).waitFor();
    await shop.getByText('Stopped').waitFor();
    await shop.getByRole('cell', { name: 'data directory' }).waitFor();
    await row(s.page, 'InFolder').getByRole('cell', { name: folder.dir }).waitFor();
    await assertAccessible(s.page, 'the projects screen');
  });

  it('creates a project through the form', async () => {
    await s.page.getByLabel('Name', { exact: true }).last().fill('Billing');
    await s.page.getByLabel('Port (optional)').fill('4200');
    await s.page.getByLabel('Description').last().fill('Invoices');
    await s.page.getByRole('button', { name: 'Create project' }).click();
    await row(s.page, 'Billing').getByRole('cell', { name: '4200' }).waitFor();
    const list = await s.cliJson<ListedProject[]>(['list']);
    const billing = list.find((p) => p.name === 'Billing');
    assert.ok(billing, 'mockdev list has the new project');
    assert.equal(billing.port, 4200);
    assert.equal(billing.description, 'Invoices');
    // the form is cleared for the next one
    assert.equal(await s.page.getByLabel('Port (optional)').inputValue(), '');
  });

  it('shows a create error with its detail (a name taken)', async () => {
    await s.page.getByLabel('Name', { exact: true }).last().fill('Shop');
    await s.page.getByRole('button', { name: 'Create project' }).click();
    const alert = s.page.getByRole('alert').filter({ hasText: 'Could not create the project' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Shop/);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await s.page.getByLabel('Name', { exact: true }).last().fill('');
  });

  it('edits a project’s name, port and description', async () => {
    await row(s.page, 'Billing').getByRole('button', { name: 'Edit Billing' }).click();
    await s.page.getByRole('heading', { name: 'Edit Billing' }).waitFor();
    await s.page.locator('#edit-' + (await idOf('Billing')) + '-name').fill('Invoicing');
    const port = await freePort();
    await s.page.getByLabel('Port', { exact: true }).fill(String(port));
    await s.page.getByLabel('Description').first().fill('Invoices and receipts');
    await s.page.getByRole('button', { name: 'Save' }).click();
    await row(s.page, 'Invoicing')
      .getByRole('cell', { name: String(port) })
      .waitFor();
    const p = (await s.cliJson<ListedProject[]>(['list'])).find((x) => x.name === 'Invoicing');
    assert.ok(p, 'renamed in mockdev list');
    assert.equal(p.port, port);
    assert.equal(p.description, 'Invoices and receipts');
  });

  it('shows a project created by the CLI without a reload', async () => {
    await s.cli(['project', 'create', 'FromCli', '-p', '4300']);
    await row(s.page, 'FromCli').getByRole('cell', { name: '4300' }).waitFor({ timeout: 5000 });
  });

  it('starts and stops the mock server from its row, live in the table and the CLI', async () => {
    const r = row(s.page, 'Invoicing');
    await r.getByRole('button', { name: 'Start Invoicing' }).click();
    const link = r.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:\d+/ });
    await link.waitFor();
    const url = (await link.getAttribute('href'))!;
    const status = await s.cliJson<Status[]>(['status']);
    const listed = status.find((x) => x.projectName === 'Invoicing');
    assert.ok(listed, 'mockdev status lists it');
    assert.equal(listed.url, url);
    const answer = await http(`${url}/nothing-here`);
    assert.equal(answer.status, 404, 'the mock server answers (no endpoint there)');
    await r.getByRole('button', { name: 'Stop Invoicing' }).click();
    await r.getByText('Stopped').waitFor();
    const after = await s.cliJson<Status[]>(['status']);
    assert.equal(
      after.find((x) => x.projectName === 'Invoicing'),
      undefined,
    );
  });

  it('shows a busy port’s error with its detail', async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    await s.cli(['project', 'update', 'FromCli', '-p', String(port)]);
    const r = row(s.page, 'FromCli');
    await r.getByRole('cell', { name: String(port) }).waitFor({ timeout: 5000 });
    await r.getByRole('button', { name: 'Start FromCli' }).click();
    const alert = s.page.getByRole('alert').filter({ hasText: 'Could not start FromCli' });
    await alert.waitFor();
    assert.match(await alert.innerText(), new RegExp(`Port ${port} is already in use`));
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await r.getByText('Stopped').waitFor();
  });

  it('shows a server started and stopped by the CLI within a second or so, in the row and the top bar', async () => {
    await s.open('/projects/Shop/endpoints');
    const top = s.page.getByRole('group', { name: 'Mock server of Shop' });
    await top.getByText('Stopped').waitFor();
    const served = await startServe(['Shop'], { dataDir: s.dataDir });
    try {
      await top.getByRole('link', { name: served.url }).waitFor({ timeout: 3000 });
      await s.open('/projects');
      await row(s.page, 'Shop').getByRole('link', { name: served.url }).waitFor();
      assert.equal((await http(`${served.url}/api/items`)).status, 200);
      const stop = await s.cli(['stop', 'Shop']);
      assert.equal(stop.code, 0, stop.stderr);
      await row(s.page, 'Shop').getByText('Stopped').waitFor({ timeout: 3000 });
    } finally {
      await served.stop();
    }
  });

  it('deletes a project after the confirmation lists what goes (Cancel keeps it)', async () => {
    const r = row(s.page, 'Shop');
    await r.getByRole('button', { name: 'Delete Shop' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete project Shop?' });
    await dialog.waitFor();
    await dialog.getByText('its 1 endpoint').waitFor();
    await dialog.getByText('its request log (1 logged request)').waitFor();
    await assertAccessible(s.page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.ok(
      (await s.cliJson<ListedProject[]>(['list'])).some((p) => p.name === 'Shop'),
      'Cancel keeps it',
    );
    await r.getByRole('button', { name: 'Delete Shop' }).click();
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await r.waitFor({ state: 'detached' });
    await waitUntil(
      async () => !(await s.cliJson<ListedProject[]>(['list'])).some((p) => p.name === 'Shop'),
      'Shop gone from mockdev list',
    );
  });

  it('says how to create a project when there is none', async () => {
    for (const p of await s.cliJson<ListedProject[]>(['list']))
      assert.equal((await s.cli(['project', 'delete', p.id, '--force'])).code, 0);
    await s.page.getByText('No projects yet.').waitFor({ timeout: 5000 });
    await s.page.getByText('mockdev project create').waitFor();
    await assertAccessible(s.page, 'the empty projects screen');
  });

  it('lists a project whose project.json cannot be read as unreadable, with the file and the problem', async () => {
    const file = join(s.dataDir, 'projects', 'broken', 'project.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{ "id": ');
    await s.open('/projects');
    const section = s.page.getByRole('region', { name: 'Unreadable projects' });
    await section.getByText(file, { exact: true }).waitFor();
    await section.getByText(/project\.json is not valid JSON/).waitFor();
    assert.equal(await s.page.getByText('No projects yet.').count(), 0, 'not "no projects"');
    await assertAccessible(s.page, 'the projects screen with an unreadable project');
  });

  async function idOf(name: string): Promise<string> {
    const p = (await s.cliJson<ListedProject[]>(['list'])).find((x) => x.name === name);
    assert.ok(p, `${name} exists`);
    return p.id;
  }
});

describe('web UI: projects screen in the dark theme', () => {
  let s: UiSession;
  before(async () => {
    s = await openUiSession({
      colorScheme: 'dark',
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100', '-d', 'The shop API']);
      },
    });
  });
  after(() => s?.close());

  it('passes axe in the dark theme', async () => {
    await s.open('/projects');
    await row(s.page, 'Shop').waitFor();
    assert.equal(await s.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
    await assertAccessible(s.page, 'the projects screen (dark)');
  });
});
