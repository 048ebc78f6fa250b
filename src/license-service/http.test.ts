import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { publicKeyPem } from './config.js';
import { LicenseDatabase } from './database.js';
import { LicenseDesk } from './desk.js';
import { licenseServer } from './http.js';
import { MailError, type Mailer, type Message } from './mail.js';

describe('the license service over HTTP', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const sent: Message[] = [];
  let mailFails = false;
  const mailer: Mailer = {
    send: (m) =>
      mailFails ? Promise.reject(new MailError('EAUTH, SMTP 535')) : (sent.push(m), Promise.resolve()),
    verify: () => Promise.resolve(),
    close: () => undefined,
  };
  const log: string[] = [];
  const db = new LicenseDatabase(':memory:');
  const desk = new LicenseDesk({
    db,
    mailer,
    signingKey: privateKey,
    publicUrl: () => 'http://licenses.test',
    mailIntervalSeconds: 0,
  });
  const server = licenseServer({ desk, publicKeyPem: publicKeyPem(privateKey), log: (l) => log.push(l) });
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    db.close();
  });
  const post = (path: string, body: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('answers the protocol: 202 for a request, pending, the page of the link, then the key', async () => {
    const asked = await post('/v1/trials', JSON.stringify({ email: 'ann@example.com' }));
    assert.equal(asked.status, 202);
    const pending = await fetch(`${base}/v1/activations?email=ann%40example.com`);
    assert.deepEqual([pending.status, await pending.json()], [200, { status: 'pending' }]);
    const link = /^(http:\/\/licenses\.test\/v1\/confirm\?token=\S+)$/m.exec(sent.at(-1)!.text)![1]!;
    const page = await fetch(`${base}${link.slice('http://licenses.test'.length)}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    const confirmed = (await (await fetch(`${base}/v1/activations?email=ann%40example.com`)).json()) as {
      status: string;
      key: string;
    };
    assert.equal(confirmed.status, 'confirmed');
    const second = await post('/v1/trials', JSON.stringify({ email: 'ann@example.com' }));
    assert.equal(second.status, 409);
    assert.match(((await second.json()) as { error: string }).error, /had its trial/);

    // The log: the path without its query (no token, no address), never the key.
    const token = new URL(link).searchParams.get('token')!;
    assert.ok(log.some((l) => / GET \/v1\/confirm 200 \d+ ms$/.test(l)));
    for (const secret of [token, confirmed.key, 'ann%40example.com'])
      assert.ok(!log.join('\n').includes(secret), secret);
  });

  it('refuses what is not the protocol: 400, 404, 405, 413; a failed e-mail 502 logged by its code', async () => {
    assert.equal((await post('/v1/activations', 'not json')).status, 400);
    assert.equal((await post('/v1/activations', '{"email":"nobody"}')).status, 400);
    assert.equal((await fetch(`${base}/v1/activations?email=who%40example.com`)).status, 404);
    assert.equal((await fetch(`${base}/elsewhere`)).status, 404);
    const wrong = await fetch(`${base}/v1/trials`);
    assert.deepEqual([wrong.status, wrong.headers.get('allow')], [405, 'POST']);
    const big = await post('/v1/activations', JSON.stringify({ email: 'x'.repeat(20_000) }));
    assert.equal(big.status, 413);

    mailFails = true;
    const failed = await post('/v1/trials', JSON.stringify({ email: 'bo@example.com' }));
    mailFails = false;
    assert.equal(failed.status, 502);
    assert.match(((await failed.json()) as { error: string }).error, /could not be sent/);
    assert.ok(log.some((l) => l.endsWith('the e-mail could not be sent (EAUTH, SMTP 535)')));
    assert.equal((await fetch(`${base}/v1/activations?email=bo%40example.com`)).status, 404);

    const pem = await fetch(`${base}/v1/public-key`);
    assert.equal(await pem.text(), publicKeyPem(privateKey));
    assert.deepEqual(await (await fetch(`${base}/health`)).json(), { status: 'ok' });
  });
});
