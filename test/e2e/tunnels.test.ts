import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { UiSession } from '../helpers/browser.js';
import { assertAccessibleInBothThemes } from '../helpers/io.js';
import { testSigner } from '../helpers/license.js';
import { openShopSession, startMockServer } from '../helpers/ui-seed.js';
import { http } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

/** The tests' stand-in `cloudflared` (test/fixtures). */
const STAND_IN_CLOUDFLARED = fileURLToPath(new URL('../fixtures/tunnels/cloudflared', import.meta.url));
const signer = testSigner();
const LICENSE_ENV = { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined };
interface Tunnel {
  url: string;
  provider: string;
  port: number;
  pid: number;
}

/**
 * The Tunnels screen, with the tests' stand-in `cloudflared` (it prints the quick-tunnel banner
 * with its URL and stays running; no network): without a license it says what Pro adds and
 * offers nothing; with one, Start shows the public URL (a link, copied by its button, shown in
 * the endpoint editor too), Stop ends it; a missing provider says how to install it.
 */
describe('web UI: tunnels', () => {
  let s: UiSession;
  let shop: string;
  const tunnelOf = async (): Promise<Tunnel | null> => {
    const r = await http(`${s.url}/api/v1/projects/Shop/tunnel`);
    assert.equal(r.status, 200, r.body);
    return r.json as Tunnel | null;
  };

  before(async () => {
    ({ s, shop } = await openShopSession({
      env: { ...LICENSE_ENV, MOCKDEV_CLOUDFLARED_PATH: STAND_IN_CLOUDFLARED },
      seed: async (cli) => {
        const r = await cli(['endpoint', 'add', 'Shop', '-p', '/api/orders', '-b', '[]']);
        assert.equal(r.code, 0, r.stderr);
      },
    }));
  });
  after(async () => {
    // No tunnel process is left behind, whatever failed.
    await http(`${s?.url}/api/v1/projects/Shop/tunnel`, { method: 'DELETE' }).catch(() => undefined);
    await s?.close();
  });

  it('without a license says what Pro adds, links to the License screen and offers no Start', async () => {
    await s.open(`/projects/${shop}/tunnels`);
    await s.page.getByRole('heading', { level: 1, name: 'Tunnels of Shop' }).waitFor();
    const note = s.page.getByRole('note', { name: 'Tunnels need a Pro license.' });
    await note.waitFor();
    assert.match(await note.innerText(), /public URL/);
    assert.equal(await s.page.getByRole('button', { name: /Start tunnel|Stop tunnel/ }).count(), 0);
    await assertAccessibleInBothThemes(s.page, 'the Tunnels screen without a license');
    await note.getByRole('link', { name: 'Activate a license' }).click();
    await s.page.waitForURL('**/license');
  });

  it('starts a tunnel to the mock server, shows its public URL with a copy button, then stops it', async () => {
    const r = await s.cli(['license', 'activate', signer.key({ sub: 'pro@example.com' })]);
    assert.equal(r.code, 0, r.stderr);
    const mock = await startMockServer(s, 'Shop');
    await s.open(`/projects/${shop}/tunnels`);
    const providers = s.page.getByRole('region', { name: 'Providers' });
    const cloudflared = providers
      .getByRole('row')
      .filter({ has: s.page.getByRole('rowheader', { name: 'cloudflared' }) });
    await cloudflared.getByText(/^Available/).waitFor();
    const form = s.page.getByRole('form', { name: 'Start a tunnel' });
    await form.getByLabel('Provider').selectOption('cloudflared');
    assert.equal(
      await form.getByLabel('Local port (optional)').getAttribute('placeholder'),
      `${new URL(mock).port}, the mock server’s`,
    );
    await assertAccessibleInBothThemes(s.page, 'the Tunnels screen, no tunnel running');
    await form.getByRole('button', { name: 'Start tunnel' }).click();

    const link = s.page.getByRole('link', { name: /^https:\/\/[a-z0-9-]+\.trycloudflare\.com$/ });
    await link.waitFor({ timeout: 40_000 });
    const tunnel = await tunnelOf();
    assert.ok(tunnel, 'the API has the tunnel');
    assert.equal(await link.getAttribute('href'), tunnel.url);
    assert.equal(tunnel.provider, 'cloudflared');
    assert.equal(String(tunnel.port), new URL(mock).port);
    const shown = await s.cliJson<Tunnel>(['tunnel', 'status', 'Shop']);
    assert.equal(shown.url, tunnel.url, '`tunnel status` sees the same tunnel');

    await s.page.getByRole('button', { name: 'Copy the public URL' }).click();
    await s.page.getByRole('status').getByText('Copied the public URL').waitFor();
    assert.equal(await s.page.evaluate(() => navigator.clipboard.readText()), tunnel.url);
    await assertAccessibleInBothThemes(s.page, 'the Tunnels screen with a tunnel running');

    // The endpoint editor says where the endpoint answers: locally and through the tunnel.
    const endpoints = (await http(`${s.url}/api/v1/projects/Shop/endpoints`)).json as {
      id: string;
      path: string;
    }[];
    const orders = endpoints.find((e) => e.path === '/api/orders')!;
    await s.open(`/projects/${shop}/endpoints?edit=${orders.id}`);
    await s.page.getByRole('link', { name: `${mock}/api/orders` }).waitFor();
    await s.page.getByRole('link', { name: `${tunnel.url}/api/orders` }).waitFor();

    await s.open(`/projects/${shop}/tunnels`);
    await s.page.getByRole('button', { name: 'Stop tunnel' }).click();
    await s.page.getByText('No tunnel is running for Shop.').waitFor();
    assert.equal(await tunnelOf(), null);
    await waitUntil(() => {
      try {
        process.kill(tunnel.pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the tunnel process gone');
  });

  it('shows a tunnel started in a terminal at once (live), and its stop', async () => {
    await s.open(`/projects/${shop}/tunnels`);
    await s.page.getByText('No tunnel is running for Shop.').waitFor();
    const started = await s.cliJson<{ url: string }>(['tunnel', 'start', 'Shop']);
    await s.page.getByRole('link', { name: started.url }).waitFor();
    const r = await s.cli(['tunnel', 'stop', 'Shop']);
    assert.equal(r.code, 0, r.stderr);
    await s.page.getByText('No tunnel is running for Shop.').waitFor();
  });
});

describe('web UI: tunnels, a provider missing', () => {
  let s: UiSession;
  let shop: string;
  before(async () => {
    ({ s, shop } = await openShopSession({
      env: { ...LICENSE_ENV, MOCKDEV_CLOUDFLARED_PATH: '/nonexistent/cloudflared' },
    }));
    const r = await s.cli(['license', 'activate', signer.key()]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => s?.close());

  it('says cloudflared is not installed and how to install it, and offers no Start with it', async () => {
    await startMockServer(s, 'Shop');
    await s.open(`/projects/${shop}/tunnels`);
    const row = s.page
      .getByRole('region', { name: 'Providers' })
      .getByRole('row')
      .filter({ has: s.page.getByRole('rowheader', { name: 'cloudflared' }) });
    await row.getByText('Not installed').waitFor();
    await row.getByRole('link', { name: 'cloudflared’s download page' }).waitFor();
    await row.getByRole('button', { name: /^Copy the command( 1)? installing cloudflared$/ }).waitFor();
    const form = s.page.getByRole('form', { name: 'Start a tunnel' });
    await form.getByText('cloudflared is not installed here').waitFor();
    assert.equal(await form.getByRole('button', { name: 'Start tunnel' }).isDisabled(), true);
    await assertAccessibleInBothThemes(s.page, 'the Tunnels screen with cloudflared missing');
  });
});
