/**
 * The license service end to end, no stand-in: the built service (dist/license-service/main.js)
 * spawned with a signing key the test makes, SQLite in a temp folder, e-mail through SMTP into a
 * local sink (smtp-server) that requires a login; mockdev's CLI (in-process) pointed at it by
 * MOCKDEV_LICENSE_URL and trusting its key by MOCKDEV_LICENSE_PUBLIC_KEY. The test reads the
 * e-mail, opens its link, and activates.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliSandbox, type CliSandbox } from '../helpers/cli-inprocess.js';
import {
  linkIn,
  runServiceCommand,
  startLicenseService,
  startMailSink,
  type MailSink,
  type RunningService,
} from '../helpers/license-service.js';

type Status = Record<string, unknown>;
const DAY_MS = 86_400_000;

describe('the license service, end to end', () => {
  let sink: MailSink;
  let service: RunningService;
  const box: CliSandbox = cliSandbox({ after });
  let env: Record<string, string>;
  const seen: string[] = []; // keys and tokens, which no log line may hold
  const cli = (args: string[]) => box.cli(args, { env });
  const status = async () => JSON.parse((await cli(['license', 'status', '--json'])).stdout) as Status;

  before(async () => {
    sink = await startMailSink();
    box.defer(() => sink.close());
    service = await startLicenseService(box.dir, sink.url);
    box.defer(() => service.stop());
    env = { MOCKDEV_LICENSE_URL: service.url, MOCKDEV_LICENSE_PUBLIC_KEY: service.publicKeyPem };
  });

  it('activates a granted license by e-mail: the mail, its link, then license check', async () => {
    const granted = await service.command(['grant', 'Ann@Example.com', '--until', '2099-12-31']);
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /Granted Pro to ann@example.com, until 2099-12-31T23:59:59/);

    const asked = await cli(['license', 'activate-email', 'ann@example.com']);
    assert.equal(asked.code, 0, asked.stderr);
    const mail = await sink.next('ann@example.com');
    assert.equal(mail.subject, 'Confirm your mockdev Pro activation');
    assert.match(mail.text, /Then run: mockdev license check ann@example.com/);
    const link = linkIn(mail);
    assert.ok(link.startsWith(`${service.url}/v1/confirm?token=`), link);
    seen.push(new URL(link).searchParams.get('token')!);

    // The link not opened yet: pending, nothing stored.
    const pending = await cli(['license', 'check', 'ann@example.com']);
    assert.equal(pending.code, 0, pending.stderr);
    assert.match(pending.stdout, /not confirmed yet/);
    assert.equal((await status()).state, 'none');

    const page = await fetch(link);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Your mockdev Pro activation is confirmed/);
    assert.match(html, /mockdev license check ann@example.com/);

    const checked = await cli(['license', 'check', 'ann@example.com']);
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /License activated: Pro for ann@example.com, until 2099-12-31T23:59:59/);
    const s = await status();
    assert.deepEqual(
      [s.plan, s.state, s.activation, s.signedBy],
      ['pro', 'active', 'email', 'MOCKDEV_LICENSE_PUBLIC_KEY'],
    );
    seen.push((JSON.parse(readFileSync(join(box.dataDir, 'license.json'), 'utf8')) as { key: string }).key);
    const text = await cli(['license', 'status']);
    assert.match(text.stdout, /License:\s+active, signed by the key in MOCKDEV_LICENSE_PUBLIC_KEY/);

    // The link again: already confirmed, nothing changes.
    const again = await fetch(link);
    assert.equal(again.status, 200);
    assert.match(await again.text(), /Already confirmed/);
  });

  it('a trial: one per address, the second refused', async () => {
    const asked = await cli(['license', 'trial', 'bob@example.com']);
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /sending bob@example.com a link that starts a 14-day trial/);
    const mail = await sink.next('bob@example.com');
    assert.equal(mail.subject, 'Start your 14-day mockdev Pro trial');
    const link = linkIn(mail);
    seen.push(new URL(link).searchParams.get('token')!);
    const page = await fetch(link);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Your trial of mockdev Pro is confirmed/);

    const checked = await cli(['license', 'check', 'bob@example.com']);
    assert.equal(checked.code, 0, checked.stderr);
    const s = await status();
    assert.deepEqual([s.plan, s.licensee], ['pro', 'bob@example.com']);
    const days = (Date.parse(String(s.expiresAt)) - Date.now()) / DAY_MS;
    assert.ok(days > 13.9 && days <= 14, `a 14-day trial, not ${days} days`);

    const second = await cli(['license', 'trial', 'BOB@example.com']);
    assert.equal(second.code, 1);
    assert.match(
      second.stderr,
      /^mockdev: BOB@example.com already had its trial: the license service at .* gives one per e-mail address\. Buy a license, then activate a license/,
    );
    assert.equal(second.stderr.split('\n').length, 2, 'one line');
    assert.equal(sink.mails.filter((m) => m.to.includes('bob@example.com')).length, 1, 'no second e-mail');
  });

  it('a link never opened, a made-up link, and an address nothing was asked for', async () => {
    const asked = await cli(['license', 'trial', 'cy@example.com']);
    assert.equal(asked.code, 0, asked.stderr);
    const link = linkIn(await sink.next('cy@example.com'));
    seen.push(new URL(link).searchParams.get('token')!);
    const pending = await cli(['license', 'check', 'cy@example.com']);
    assert.match(pending.stdout, /The activation for cy@example.com is not confirmed yet/);

    const forged = new URL(link);
    forged.searchParams.set('token', 'A'.repeat(43));
    const page = await fetch(forged);
    assert.equal(page.status, 404);
    assert.match(await page.text(), /This link is not valid/);
    const still = await cli(['license', 'check', 'cy@example.com']);
    assert.match(still.stdout, /not confirmed yet/);

    const nothing = await cli(['license', 'check', 'dee@example.com']);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /has no activation or trial asked for dee@example.com/);

    // An address without a license is told so by e-mail, and there is nothing to check.
    const unlicensed = await cli(['license', 'activate-email', 'eve@example.com']);
    assert.equal(unlicensed.code, 0, unlicensed.stderr);
    const mail = await sink.next('eve@example.com');
    assert.equal(mail.subject, 'No mockdev Pro license for this address');
    assert.match(mail.text, /To try Pro for 14 days: mockdev license trial eve@example.com/);
    assert.equal((await cli(['license', 'check', 'eve@example.com'])).code, 1);
  });

  it('an expired key: the trial two weeks on, and a license that ended', async (t) => {
    // bob's trial key is stored (the trial test); fifteen days later:
    const later = await (async () => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 15 * DAY_MS });
      try {
        return {
          status: await cli(['license', 'status', '--json']),
          gate: await cli(['environment', 'create', '-n', 'staging']),
        };
      } finally {
        t.mock.timers.reset();
      }
    })();
    const s = JSON.parse(later.status.stdout) as Status;
    assert.deepEqual([s.plan, s.state], ['free', 'expired']);
    assert.match(String(s.problem), /^it expired on /);
    assert.equal(later.gate.code, 1);
    assert.match(later.gate.stderr, /"environment" needs a Pro license, and the license expired on/);

    await service.command(['grant', 'fay@example.com', '--until', '2001-01-01']);
    const asked = await cli(['license', 'activate-email', 'fay@example.com']);
    assert.equal(asked.code, 0, asked.stderr);
    const mail = await sink.next('fay@example.com');
    assert.match(mail.text, /the license of this address expired on 2001-01-01/);
    assert.doesNotMatch(mail.text, /v1\/confirm/);
  });

  it('keeps its secrets: no key, token or SMTP password in its output; the database private', async () => {
    const log = service.output();
    assert.match(log, /POST \/v1\/activations 202/);
    assert.match(log, /GET \/v1\/confirm 200/);
    assert.match(log, /e-mail goes through smtp:\/\/127\.0\.0\.1:\d+ from/);
    assert.ok(seen.length >= 4);
    for (const secret of [...seen, sink.password]) assert.ok(!log.includes(secret), 'a secret in the log');
    assert.equal(statSync(service.env.LICENSE_DB!).mode & 0o777, 0o600);
    const db = ['', '-wal']
      .map((end) => `${service.env.LICENSE_DB!}${end}`)
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'latin1'))
      .join('');
    for (const secret of seen) assert.ok(!db.includes(secret), 'a key or token stored in the database');

    const pem = await fetch(`${service.url}/v1/public-key`);
    assert.equal(await pem.text(), service.publicKeyPem);
  });

  it('its commands: public-key, revoke; a missing variable, a bad argument or a taken port in one line', async () => {
    const pem = await service.command(['public-key']);
    assert.deepEqual([pem.code, pem.stdout], [0, service.publicKeyPem]);
    const revoked = await service.command(['revoke', 'ann@example.com']);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await service.command(['revoke', 'ann@example.com'])).code, 1);

    const bare = await runServiceCommand([], {});
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^license-service: The license service needs LICENSE_DB, SMTP_URL, SMTP_FROM/);
    assert.equal(bare.stderr.split('\n').length, 2, 'one line');
    const badGrant = await service.command(['grant', 'nobody']);
    assert.equal(badGrant.code, 2);
    assert.match(badGrant.stderr, /"nobody" is not an e-mail address/);
    const badUntil = await service.command(['grant', 'a@example.com', '--until', 'soon']);
    assert.equal(badUntil.code, 2);

    const port = new URL(service.url).port;
    const taken = await runServiceCommand([], { ...service.env, PORT: port });
    assert.equal(taken.code, 4);
    assert.match(taken.stderr, new RegExp(`Port ${port} on 127.0.0.1 is in use\\. Set PORT to a free port`));
    assert.ok(!taken.stderr.includes(sink.password));
  });
});
