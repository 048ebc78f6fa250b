import { it } from 'node:test';
import { openUiSession } from '../helpers/browser.js';
it('x', async () => {
  const s = await openUiSession({ seed: async (cli) => { await cli(['project','create','Alpha','-p','4100']); await cli(['project','create','Beta','-p','4101']); } });
  try {
    const ps = await s.cliJson<{id:string;name:string}[]>(['project','list']);
    const beta = ps.find(p=>p.name==='Beta')!;
    const alpha = ps.find(p=>p.name==='Alpha')!;
    await s.open(`/projects/${alpha.id}/endpoints`);
    await s.page.waitForTimeout(500);
    for (const path of [`/projects/${beta.id}/requests`, `/projects/Beta/settings`, `/projects/nope/endpoints`, `/projects/${beta.id}`]) {
      await s.open(path);
      await s.page.waitForTimeout(800);
      const sel = s.page.getByRole('combobox', { name: 'Project' });
      console.log(path, await sel.count() ? await sel.evaluate((e: HTMLSelectElement) => e.selectedOptions[0]?.text) : 'no select', await s.page.locator('.sidebar .nav-heading').first().innerText(), await s.page.locator('h1').first().innerText());
    }
    await s.page.setViewportSize({width: 1280, height: 800});
    await s.open(`/settings`);
    const port = s.page.getByRole('spinbutton', { name: 'Default port of new projects' });
    await port.fill('80'); await port.press('Enter');
    await s.page.waitForTimeout(800);
    await s.page.screenshot({ path: '/tmp/settings.png' });
    await s.open(`/projects/${beta.id}/tunnels`);
    await s.page.waitForTimeout(1500);
    await s.page.screenshot({ path: '/tmp/tunnels.png', fullPage: true });
    await s.open(`/tls`);
    await s.page.waitForTimeout(1500);
    await s.page.screenshot({ path: '/tmp/tls.png', fullPage: true });
    await s.open(`/projects/${beta.id}/contract`);
    await s.page.waitForTimeout(1500);
    await s.page.screenshot({ path: '/tmp/contract.png', fullPage: true });
  } finally { await s.close(); }
});
