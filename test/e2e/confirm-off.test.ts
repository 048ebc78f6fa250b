import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openUiSession, type UiSession } from '../helpers/browser.js';
import { eventually, item, seedShop, tree } from './endpoint-tree-helpers.js';

/** The setting confirmBeforeDelete off: a destructive action goes without the dialog. */
describe('web UI with confirmBeforeDelete off', () => {
  let s: UiSession;
  let projectId: string;
  before(async () => {
    s = await openUiSession({
      seed: async (cli) => {
        await seedShop(cli);
        const r = await cli(['settings', 'update', '--confirm-before-delete', 'false']);
        if (r.code !== 0) throw new Error(r.stderr);
      },
    });
    projectId = (await s.cliJson<{ id: string }>(['project', 'show', 'Shop'])).id;
  });
  after(() => s?.close());

  it('deletes the selected endpoint at once, without asking', async () => {
    const list = () => s.cliJson<{ path: string; method: string }[]>(['endpoint', 'list', 'Shop']);
    const before = (await list()).length;
    await s.open(`/projects/${projectId}/endpoints`);
    await item(s.page, 'GET / Root').click();
    await tree(s.page).focus();
    await s.page.keyboard.press('Delete');
    await eventually(async () => (await list()).length === before - 1, 'the endpoint to be deleted');
    assert.ok(!(await list()).some((e) => e.method === 'GET' && e.path === '/'));
    assert.equal(await s.page.getByRole('dialog').count(), 0, 'no confirmation was asked');
  });
});
