#!/usr/bin/env node
// `npm run screenshots`: a picture of every screen of the web UI, light and dark, 1280 px wide
// and 900 px wide, into docs/screenshots/<screen>-<theme>.png and <screen>-<theme>-900.png (the
// README shows them). It seeds a data dir of its own
// (a project "Shop" with a tree of endpoints, variations, a recording proxy, logged requests,
// a Pro license, an environment, two flows (one with a run), a resource, a CA and a leaf, a tunnel through
// the tests' stand-in cloudflared, and a contract checked live that one answer breaks), runs the
// built `mockdev ui` on it and drives chromium through the same harness as the browser tests. Run
// `npm run build` first. Screen names as arguments take only those, in both themes (`npm run
// screenshots -- flows`), or in one (`npm run screenshots -- contract-light contract-dark`).
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openLocalStores } from '../src/store/local.ts';
import { openUiSession } from '../test/helpers/browser.ts';
import { testSigner } from '../test/helpers/license.ts';

const root = new URL('..', import.meta.url).pathname;
// `npm run screenshots -- flows flow-runs`: only those screens (both themes, both widths);
// `contract-dark`: one theme (both widths); `contract-dark-900`: one picture.
const only = process.argv.slice(2);
const wanted = (name, theme, suffix) =>
  !only.length ||
  only.includes(name) ||
  only.includes(`${name}-${theme}`) ||
  only.includes(`${name}-${theme}${suffix}`);
/** The widths pictured (the height stays 800 px), and the suffix of their files. */
const WIDTHS = [
  [1280, ''],
  [900, '-900'],
];
const out = join(root, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });

const upstream = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Upstream': 'inventory' });
  res.end(JSON.stringify({ path: req.url, items: [{ sku: 'A-100', stock: 12 }] }));
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

/** The stand-in copied to a temp folder (the picture shows where the program is), removed at the end. */
const binDir = mkdtempSync(join(tmpdir(), 'mockdev-screenshots-'));
function standInCloudflared() {
  const bin = join(binDir, 'cloudflared');
  copyFileSync(join(root, 'test', 'fixtures', 'tunnels', 'cloudflared'), bin);
  chmodSync(bin, 0o755);
  return bin;
}

/** A Postman collection (a folder, two examples, one request without) for the file import's picture. */
const postmanFile = join(root, 'test', 'fixtures', 'import', 'petstore.postman_collection.json');

const signer = testSigner();
const env = {
  MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem,
  MOCKDEV_LICENSE_URL: undefined,
  // The tests' stand-in cloudflared: a tunnel with a quick-tunnel URL, and no network.
  MOCKDEV_CLOUDFLARED_PATH: standInCloudflared(),
};
/**
 * Scrolls the screen's own scroll area (.content) so that this element is at its top; the page
 * itself does not move (scrollIntoView would scroll the window too, leaving a blank band).
 */
const scrollToTop = (el) => {
  const area = el.closest('.content');
  area.scrollTop += el.getBoundingClientRect().top - area.getBoundingClientRect().top - 8;
};
const must = async (r) => {
  if (r.code !== 0) throw new Error(r.stderr);
  return r;
};

const s = await openUiSession({
  env,
  seed: async (cli) => {
    const run = (...args) => cli(args).then(must);
    await run('project', 'create', 'Shop', '-p', '4100', '-d', 'The shop front API, mocked');
    await run('project', 'create', 'Payments', '-p', '4101', '-d', 'Card payments');
    const users = '[{"id":1,"name":"Ada"},{"id":2,"name":"Linus"}]';
    await run('endpoint', 'add', 'Shop', '-p', '/api/users', '-n', 'List users', '-b', users);
    await run('endpoint', 'add', 'Shop', '-m', 'POST', '-p', '/api/users', '-s', '201', '-b', '{"id":3}');
    await run(
      'endpoint',
      'add',
      'Shop',
      '-p',
      '/api/users/{id}',
      '-n',
      'One user',
      '-b',
      '{"id":"{{params.id}}","name":"Ada"}',
      '-H',
      'X-Request-Id: {{uuid}}',
    );
    await run('endpoint', 'add', 'Shop', '-m', 'DELETE', '-p', '/api/users/{id}', '-s', '204', '-b', '');
    await run('endpoint', 'add', 'Shop', '-p', '/api/orders', '-b', '[]');
    await run('endpoint', 'add', 'Shop', '-p', '/api/orders/{id}', '-b', '{"id":"{{params.id}}"}');
    await run('endpoint', 'add', 'Shop', '-p', '/health', '-b', '{"status":"ok"}');
    await run('endpoint', 'add', 'Shop', '-p', '/legacy/search', '-b', '[]');
    await run('endpoint', 'disable', 'Shop', 'GET /legacy/search');
    await run(
      'endpoint',
      'add',
      'Shop',
      '-n',
      'inventory',
      '-p',
      '/inventory/*',
      '--proxy',
      upstreamUrl,
      '--record',
    );
    await run(
      'endpoint',
      'variation',
      'add',
      'Shop',
      'One user',
      '-n',
      'missing',
      '-s',
      '404',
      '-b',
      '{"error":"no such user"}',
      '--when',
      'param.id=0',
    );
    await run('license', 'activate', signer.key({ sub: 'ada@example.com' }));
    await run(
      'environment',
      'create',
      '-n',
      'staging',
      '-p',
      'Shop',
      '--var',
      'API_URL=https://staging.example.com',
      '--secret',
      'API_KEY=sk_live_123',
    );
  },
});

const api = async (method, path, body) => {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
};

/** Writes a quarter of an hour of traffic into Shop's request log, through the log's own writer. */
async function logTraffic(projectId, endpoints) {
  const idOf = (method, path) => endpoints.find((e) => e.method === method && e.path === path)?.id ?? null;
  const stores = openLocalStores(s.dataDir, { cwd: s.dataDir });
  const writer = stores.requests.openWriter({ projectId, limit: 10_000 });
  const answer = (body, type = 'application/json') => ({
    headersJson: JSON.stringify({ 'Content-Type': type }),
    body: Buffer.from(body),
    truncated: false,
    shared: true,
  });
  const calls = [
    ['GET', '/api/users', '/api/users', 200, answer('[{"id":1,"name":"Ada"},{"id":2,"name":"Linus"}]'), 0.3],
    ['GET', '/api/orders', '/api/orders', 200, answer('[]'), 0.2],
    ['GET', '/health', '/health', 200, answer('{"status":"ok"}'), 0.1],
    ['POST', '/api/users', '/api/users', 201, answer('{"id":3}'), 0.6, '{"name":"Grace"}'],
    ['GET', '/api/users/0', '/api/users/{id}', 404, answer('{"error":"no such user"}'), 0.4],
    [
      'GET',
      '/inventory/items?sku=B-200',
      '/inventory/*',
      502,
      answer('upstream unreachable', 'text/plain'),
      180,
    ],
  ];
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const now = Date.now();
  for (let t = now - 14 * 60_000; t < now - 60_000; t += 2000) {
    // busier in the middle of the quarter, a burst of upstream failures near its end
    const wave = 1 + Math.sin(((t - now) / 60_000) * 0.9) * 0.8;
    const n = Math.floor(random() * 3 * wave);
    for (let i = 0; i < n; i++) {
      const failing = t > now - 5 * 60_000 && t < now - 3 * 60_000 && random() < 0.5;
      const [method, url, path, status, response, ms, body] = failing
        ? calls[5]
        : calls[Math.floor(random() * 5)];
      writer.push({
        endpointId: idOf(method, path),
        ts: Math.round(t + random() * 2000),
        method,
        url,
        rawHeaders: [
          'Host',
          'localhost:4100',
          'User-Agent',
          'shop-web/2.3',
          ...(body ? ['Content-Type', 'application/json'] : []),
        ],
        body: body ? Buffer.from(body) : null,
        truncated: false,
        status,
        durationMs: ms * (0.5 + random() * 2 + (random() < 0.05 ? 20 : 0)),
        response,
        remoteAddress: '127.0.0.1',
      });
    }
  }
  await writer.close();
  stores.close();
}

try {
  // A project whose file was broken by hand: the projects screen lists it as unreadable.
  const payments = (await api('GET', '/projects')).find((p) => p.name === 'Payments');
  writeFileSync(join(s.dataDir, 'projects', payments.id, 'project.json'), '{ "name": "Payments", ');
  const shop = (await api('GET', '/projects')).find((p) => p.name === 'Shop');
  const endpoints = await api('GET', `/projects/${shop.id}/endpoints`);
  const one = endpoints.find((e) => e.name === 'One user');
  const proxy = endpoints.find((e) => e.name === 'inventory');
  // Flows: one that answers POST /api/users and then calls a webhook with the new user's id
  // (the upstream stands in for the client's receiver), and one disabled.
  const flow = await api('POST', `/projects/${shop.id}/flows`, {
    name: 'New user webhook',
    description: 'Answer the sign-up, then tell the CRM',
    steps: [
      {
        label: 'created',
        trigger: { type: 'request', endpointId: 'POST /api/users' },
        action: { type: 'respond', endpointId: 'POST /api/users' },
      },
      {
        label: 'notify',
        trigger: { type: 'after', stepId: 'created', delayMs: 200 },
        action: {
          type: 'callback',
          url: `${upstreamUrl}/hooks/users`,
          headers: { 'Content-Type': 'application/json' },
          body: '{"user":"{{response.body.id}}","name":"{{body.name}}"}',
          retries: 2,
        },
      },
    ],
  });
  await api('POST', `/projects/${shop.id}/flows`, {
    name: 'Nightly stock push',
    enabled: false,
    steps: [
      {
        trigger: { type: 'delay', ms: 60000 },
        action: { type: 'callback', method: 'PUT', url: `${upstreamUrl}/stock` },
      },
    ],
  });
  // A resource: the orders the server keeps (CRUD with state), seeded with two.
  const orders = await api('POST', `/projects/${shop.id}/resources`, {
    path: '/api/orders',
    seed: [
      { id: 1, item: 'Desk lamp', quantity: 1, status: 'shipped' },
      { id: 2, item: 'Notebook', quantity: 3, status: 'pending' },
    ],
  });
  // The request log's charts picture the last quarter of an hour: traffic logged before the
  // server starts (so no live check sees it), every answer as the contract wants it, and some
  // failing upstream calls of the proxy.
  await logTraffic(shop.id, endpoints);
  // The Shop API's contract (its GET /api/users/{id} answers the id as a string, the contract
  // says integer), checked live by the server started next.
  const document = readFileSync(join(root, 'test', 'fixtures', 'contract', 'shop-ui.yaml'), 'utf8');
  await api('POST', `/projects/${shop.id}/contract`, { document });
  await api('PUT', `/projects/${shop.id}/contract/live`, { live: true });
  const server = await api('PUT', `/projects/${shop.id}/server`, { port: 0 });
  for (const [method, path, body] of [
    ['GET', '/api/users'],
    ['GET', '/api/users/7'],
    ['POST', '/api/users', '{"name":"Grace"}'],
    ['GET', '/inventory/items?sku=A-100'],
    ['GET', '/nope'],
    // Last, so that the request log's detail shows the variation that answered.
    ['GET', '/api/users/0'],
  ])
    await fetch(`${server.url}${path}`, {
      method,
      body,
      headers: body ? { 'Content-Type': 'application/json' } : {},
    }).then((r) => r.text());
  // The flow's run ended (its callback answered) before the pictures are taken.
  for (let i = 0; i < 100; i++) {
    const runs = await api('GET', `/projects/${shop.id}/flow-runs?flow=${flow.id}`);
    if (runs.length && runs.every((r) => r.status !== 'running')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await api('PUT', `/projects/${shop.id}/tree-state`, { expanded: ['/api', '/api/users', '/inventory'] });
  // TLS: the CA and a leaf with one more name; a tunnel to Shop's server.
  await api('POST', '/tls/generate', { hosts: ['shop.test'] });
  await api('POST', `/projects/${shop.id}/tunnel`, {});

  const screens = [
    ['projects', '/projects'],
    ['endpoints', `/projects/${shop.id}/endpoints?edit=${one.id}`],
    ['requests', `/projects/${shop.id}/requests`],
    ['recordings', `/projects/${shop.id}/recordings?endpoint=${proxy.id}`],
    ['import', `/projects/${shop.id}/import`],
    ['import-file', `/projects/${shop.id}/import`],
    ['export', `/projects/${shop.id}/export`],
    ['environments', `/projects/${shop.id}/environments`],
    ['flows', `/projects/${shop.id}/flows?edit=${flow.id}`],
    ['flow-runs', `/projects/${shop.id}/flows?edit=${flow.id}`],
    ['resources', `/projects/${shop.id}/resources?edit=${orders.id}`],
    ['contract', `/projects/${shop.id}/contract`],
    ['tunnels', `/projects/${shop.id}/tunnels`],
    ['settings', '/settings'],
    ['license', '/license'],
    ['tls', '/tls'],
  ];
  const page = s.page;
  for (const theme of ['light', 'dark']) {
    await api('PATCH', '/settings', { theme });
    for (const [width, suffix] of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const [name, path] of screens) {
        if (!wanted(name, theme, suffix)) continue;
        await s.open(path);
        await page.locator('main h1, main h2').first().waitFor();
        // The request log and the recordings with one item's detail open (its path is a button).
        if (name === 'requests' || name === 'recordings')
          await page.getByRole('row').nth(1).getByRole('button').first().click();
        // The request log's charts are drawn (uPlot loads with the screen).
        if (name === 'requests')
          await page.waitForFunction(() => document.querySelectorAll('.request-charts canvas').length >= 2);
        if (name === 'contract') {
          await page.getByRole('button', { name: 'Validate now' }).click();
          await page.locator('.contract-summary[role="status"]').waitFor();
        }
        if (name === 'flow-runs')
          await page
            .locator('.run')
            .last()
            .evaluate((run) => run.scrollIntoView({ block: 'end' }));
        if (name === 'import') {
          await page
            .getByLabel('cURL command')
            .fill(
              `curl -X POST 'https://api.example.com/v1/orders?draft=true' -H 'Content-Type: application/json' -H 'Authorization: Bearer tok_123' --data-raw '{"sku":"A-100","qty":2}' --frobnicate`,
            );
          await page.getByRole('heading', { name: 'cURL import' }).evaluate(scrollToTop);
        }
        // A Postman collection chosen: its dry run (what the import would make) before Import.
        if (name === 'import-file') {
          await page.getByLabel('File to import').setInputFiles(postmanFile);
          const preview = page.getByRole('region', { name: 'Import preview' });
          await preview.waitFor();
          await preview.evaluate(scrollToTop);
        }
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(400); // the live preview's debounce and the fonts settle
        await page.screenshot({ path: join(out, `${name}-${theme}${suffix}.png`) });
        console.log(`docs/screenshots/${name}-${theme}${suffix}.png`);
      }
    }
  }
  await api('PATCH', '/settings', { theme: 'system' });
} finally {
  // The tunnel's process ends with the pictures, whatever failed.
  await api('DELETE', '/projects/Shop/tunnel').catch(() => undefined);
  await s.close();
  upstream.close();
  rmSync(binDir, { recursive: true, force: true });
}
