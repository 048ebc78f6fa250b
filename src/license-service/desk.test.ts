import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkLicenseKey } from '../core/license.js';
import { LicenseDatabase } from './database.js';
import { LicenseDesk, Refusal, type CheckAnswer } from './desk.js';
import { MailError, type Mailer, type Message } from './mail.js';

const HOUR_MS = 3_600_000;

/** A desk on an in-memory database, a mailer that keeps its messages, and a clock the test moves. */
function desk(options: { mailIntervalSeconds?: number } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const db = new LicenseDatabase(':memory:');
  const sent: Message[] = [];
  let failing = false;
  const mailer: Mailer = {
    send: (m) => (failing ? Promise.reject(new MailError('ECONNECTION')) : (sent.push(m), Promise.resolve())),
    verify: () => Promise.resolve(),
    close: () => undefined,
  };
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const d = new LicenseDesk({
    db,
    mailer,
    signingKey: privateKey,
    publicUrl: () => 'https://licenses.example.com',
    mailIntervalSeconds: options.mailIntervalSeconds ?? 0,
    now: () => clock.now,
  });
  const tokenOf = (m: Message) => /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!;
  return {
    d,
    db,
    sent,
    clock,
    publicKey,
    failMail: (on: boolean) => (failing = on),
    lastToken: () => tokenOf(sent.at(-1)!),
    keyOf: (a: CheckAnswer | undefined) => {
      assert.equal(a?.status, 'confirmed');
      return (a as { key: string }).key;
    },
  };
}

const refused = (status: number) => (e: unknown) => e instanceof Refusal && e.status === status;

describe('the license desk', () => {
  it('activates a granted license: link, confirmation, a key signed with the service key', async () => {
    const t = desk();
    const exp = Math.floor(t.clock.now / 1000) + 365 * 86_400;
    t.db.grant('ann@example.com', exp, 0);
    assert.equal(await t.d.requestActivation(' Ann@Example.com '), 'ann@example.com');
    assert.equal(t.sent[0]!.to, 'ann@example.com');
    assert.match(
      t.sent[0]!.text,
      /^https:\/\/licenses\.example\.com\/v1\/confirm\?token=[A-Za-z0-9_-]{43}$/m,
    );
    assert.deepEqual(t.d.check('ann@example.com'), { status: 'pending' });

    assert.deepEqual(t.d.confirm(t.lastToken()), {
      outcome: 'confirmed',
      email: 'ann@example.com',
      kind: 'license',
      exp,
    });
    const key = t.keyOf(t.d.check('ANN@example.com'));
    const checked = checkLicenseKey(key, t.publicKey, t.clock.now);
    assert.equal(checked.state, 'active');
    assert.deepEqual(checked.payload, { sub: 'ann@example.com', plan: 'pro', iat: t.clock.now / 1000, exp });
    assert.equal(t.keyOf(t.d.check('ann@example.com')), key, 'signed again, the same key');

    // Fetched for a day after confirmation, then gone.
    t.clock.now += 24 * HOUR_MS;
    assert.equal(t.d.check('ann@example.com'), undefined);
  });

  it('a link is valid for 24 hours; a made-up or malformed token is unknown', async () => {
    const t = desk();
    await t.d.requestTrial('bo@example.com');
    const token = t.lastToken();
    t.clock.now += 24 * HOUR_MS - 1000;
    assert.deepEqual(t.d.check('bo@example.com'), { status: 'pending' });
    t.clock.now += 1000;
    assert.equal(t.d.check('bo@example.com'), undefined);
    assert.deepEqual(t.d.confirm(token), { outcome: 'expired' });
    assert.deepEqual(t.d.confirm('A'.repeat(43)), { outcome: 'unknown' });
    assert.deepEqual(t.d.confirm('short'), { outcome: 'unknown' });
    assert.deepEqual(t.d.confirm(null), { outcome: 'unknown' });
    // A newer link replaces the older one.
    await t.d.requestTrial('bo@example.com');
    const first = t.lastToken();
    await t.d.requestTrial('bo@example.com');
    assert.deepEqual(t.d.confirm(first), { outcome: 'unknown' });
    assert.equal(t.d.confirm(t.lastToken()).outcome, 'confirmed');
  });

  it('one trial per address (any case), 14 days long', async () => {
    const t = desk();
    await t.d.requestTrial('cy@example.com');
    const c = t.d.confirm(t.lastToken());
    assert.equal(c.outcome, 'confirmed');
    const key = t.keyOf(t.d.check('cy@example.com'));
    const { payload } = checkLicenseKey(key, t.publicKey, t.clock.now);
    assert.equal(payload.exp! - payload.iat, 14 * 86_400);
    await assert.rejects(t.d.requestTrial('CY@example.com'), refused(409));
    assert.equal(t.sent.length, 1);
    assert.equal(
      checkLicenseKey(key, t.publicKey, t.clock.now + 14 * 86_400_000).state,
      'expired',
      'the key expires after 14 days',
    );
  });

  it('an address without a license (or whose license ended) is told so, with no link', async () => {
    const t = desk();
    await t.d.requestActivation('dee@example.com');
    assert.match(t.sent[0]!.text, /no license belongs to this address/);
    assert.doesNotMatch(t.sent[0]!.text, /token=/);
    assert.equal(t.d.check('dee@example.com'), undefined);
    t.db.grant('dee@example.com', Date.parse('2029-06-30T23:59:59Z') / 1000, 0);
    await t.d.requestActivation('dee@example.com');
    assert.match(t.sent[1]!.text, /expired on 2029-06-30/);
    // Revoked between the e-mail and the link.
    t.db.grant('dee@example.com', null, 0);
    await t.d.requestActivation('dee@example.com');
    t.db.revoke('dee@example.com');
    assert.deepEqual(t.d.confirm(t.lastToken()), { outcome: 'no-license', email: 'dee@example.com' });
  });

  it('pauses between two e-mails to one address; a failed e-mail leaves nothing behind', async () => {
    const t = desk({ mailIntervalSeconds: 60 });
    await t.d.requestTrial('eve@example.com');
    await assert.rejects(t.d.requestTrial('eve@example.com'), refused(429));
    await assert.rejects(t.d.requestActivation('eve@example.com'), refused(429));
    t.clock.now += 60_000;
    t.failMail(true);
    await assert.rejects(t.d.requestTrial('eve@example.com'), MailError);
    assert.equal(t.d.check('eve@example.com'), undefined, 'the activation of the failed e-mail is gone');
    t.failMail(false);
    await t.d.requestTrial('eve@example.com');
    assert.equal(t.sent.length, 2);
  });

  it('refuses what is not an e-mail address (400)', async () => {
    const t = desk();
    for (const email of [undefined, 42, '', 'nobody', 'a@b'])
      await assert.rejects(t.d.requestTrial(email), refused(400), String(email));
    assert.throws(() => t.d.check(null), refused(400));
  });
});
