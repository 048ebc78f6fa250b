/**
 * `license status | activate | activate-email | check`: keys signed by a key pair the test
 * makes (its public key injected through MOCKDEV_LICENSE_PUBLIC_KEY), e-mail activation against
 * a stand-in license service on 127.0.0.1. The key never shows in full in any output.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { daysFromNow, startStandInService, tamper, testSigner } from '../helpers/license.js';

const signer = testSigner();
// MOCKDEV_LICENSE_URL left out unless a test sets it, whatever the machine's environment says.
const env = { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined };

describe('license', () => {
  it('status works without a license, as text and JSON', async (t) => {
    const { cli } = cliSandbox(t);
    const text = await cli(['license', 'status'], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Plan:\s+Free/);
    assert.match(text.stdout, /no license activated/);
    assert.match(text.stdout, /mockdev license activate <KEY>/);
    const json = await cli(['license', 'status', '--json'], { env });
    assert.deepEqual(JSON.parse(json.stdout), {
      plan: 'free',
      state: 'none',
      licensee: null,
      issuedAt: null,
      expiresAt: null,
      activation: null,
      activatedAt: null,
      key: null,
    });
  });

  it('activates a key, stores it for the user only, and shows it masked', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    const exp = daysFromNow(365);
    const key = signer.key({ sub: 'ann@example.com', exp });
    const activated = await cli(['license', 'activate', key], { env });
    assert.equal(activated.code, 0, activated.stderr);
    assert.match(activated.stdout, /License activated: Pro for ann@example.com, until /);

    const text = await cli(['license', 'status'], { env });
    assert.match(text.stdout, /Plan:\s+Pro/);
    assert.match(text.stdout, /License:\s+active, signed by the key in MOCKDEV_LICENSE_PUBLIC_KEY\n/);
    assert.match(text.stdout, /Licensee:\s+ann@example.com/);
    assert.match(text.stdout, new RegExp(`Expires:\\s+${new Date(exp * 1000).toISOString()}`));
    assert.match(text.stdout, /Activated:\s+with a key, /);
    assert.match(text.stdout, new RegExp(`Key:\\s+…${key.slice(-6)}`));
    const json = JSON.parse((await cli(['license', 'status', '--json'], { env })).stdout) as Record<
      string,
      unknown
    >;
    assert.equal(json.plan, 'pro');
    assert.equal(json.state, 'active');
    assert.equal(json.activation, 'key');
    assert.equal(json.signedBy, 'MOCKDEV_LICENSE_PUBLIC_KEY');
    for (const out of [activated, text]) assert.ok(!`${out.stdout}${out.stderr}`.includes(key));
    assert.ok(!JSON.stringify(json).includes(key.slice(0, 20)));

    const file = join(dataDir, 'license.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { key: string }).key, key);
  });

  it('activate - reads the key from stdin (out of the process list and the shell history)', async (t) => {
    const { cli } = cliSandbox(t);
    const key = signer.key({ sub: 'stdin@example.com' });
    const activated = await cli(['license', 'activate', '-'], { env, input: `${key}\n` });
    assert.equal(activated.code, 0, activated.stderr);
    assert.match(activated.stdout, /License activated: Pro for stdin@example.com/);
    assert.ok(!`${activated.stdout}${activated.stderr}`.includes(key));
    const status = JSON.parse((await cli(['license', 'status', '--json'], { env })).stdout) as {
      key: string;
    };
    assert.equal(status.key, `…${key.slice(-6)}`);
    // Nothing piped (a terminal): refused, saying how.
    const none = await cli(['license', 'activate', '-'], { env, tty: { stdin: true } });
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /KEY is "-" but nothing is piped to stdin\. Pipe it in \(mockdev license activate - < license\.key\)/,
    );
    const help = await cli(['license', 'activate', '--help'], { env });
    assert.match(help.stdout, /"-" reads the key from stdin, so it stays out of the process list/);
    assert.match(help.stdout, /mockdev license activate - < license\.key/);
  });

  it('refuses tampered, expired and malformed keys in one line, never echoing them', async (t) => {
    const { cli } = cliSandbox(t);
    const cases: [string, number, RegExp][] = [
      [tamper(signer.key()), 1, /^mockdev: This license key is refused: its signature does not match.*\n$/],
      [testSigner().key(), 1, /signature does not match/],
      [
        signer.key({ exp: daysFromNow(-1) }),
        1,
        /^mockdev: This license key is refused: it expired on .*Renew the license/,
      ],
      ['not-a-key', 2, /^mockdev: This is not a mockdev license key: it must be two parts joined by one dot/],
      [`${signer.key().split('.')[0]}.c2hvcnQ`, 2, /signature has the wrong length/],
    ];
    for (const [key, code, message] of cases) {
      const r = await cli(['license', 'activate', key], { env });
      assert.equal(r.code, code, `${key}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.split('\n').length, 2, 'one line');
      assert.ok(!r.stderr.includes(key) && !r.stdout.includes(key));
    }
    assert.match((await cli(['license', 'status'], { env })).stdout, /no license activated/);

    // Not at trace level either, stack traces included.
    const expired = signer.key({ exp: daysFromNow(-1) });
    const traced = await cli(['license', 'activate', expired], {
      env: { ...env, MOCKDEV_LOG_LEVEL: 'trace' },
    });
    assert.equal(traced.code, 1);
    assert.ok(!traced.stderr.includes(expired) && !traced.stderr.includes(expired.split('.')[1]!));
  });

  it('status says when the stored license expired or does not verify any more', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['license', 'activate', signer.key()], { env })).code, 0);
    const other = await cli(['license', 'status', '--json'], {
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: testSigner().publicKeyPem },
    });
    assert.equal(other.code, 0, other.stderr);
    const json = JSON.parse(other.stdout) as Record<string, unknown>;
    assert.equal(json.plan, 'free');
    assert.equal(json.state, 'invalid');
    assert.match(String(json.problem), /signature does not match/);
    const bad = await cli(['license', 'status'], { env: { MOCKDEV_LICENSE_PUBLIC_KEY: 'nonsense' } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /MOCKDEV_LICENSE_PUBLIC_KEY is not an Ed25519 public key/);
  });

  it('activates by e-mail through the license service: request, pending, confirmed', async (t) => {
    const { cli, defer } = cliSandbox(t);
    const service = await startStandInService();
    defer(() => service.close());
    const withService = { ...env, MOCKDEV_LICENSE_URL: `${service.url}/` };

    const asked = await cli(['license', 'activate-email', 'ann@example.com'], { env: withService });
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /sending an activation e-mail to ann@example.com/);
    assert.match(asked.stdout, /then run: mockdev license check ann@example.com/);
    assert.deepEqual(service.calls[0], {
      method: 'POST',
      url: '/v1/activations',
      body: { email: 'ann@example.com' },
    });

    service.answer = { status: 200, body: JSON.stringify({ status: 'pending' }) };
    const pending = await cli(['license', 'check', 'ann@example.com'], { env: withService });
    assert.equal(pending.code, 0, pending.stderr);
    assert.match(pending.stdout, /not confirmed yet/);
    assert.equal(service.calls[1]?.url, '/v1/activations?email=ann%40example.com');
    assert.match((await cli(['license', 'status'], { env })).stdout, /no license activated/);

    const key = signer.key({ sub: 'ann@example.com' });
    service.answer = { status: 200, body: JSON.stringify({ status: 'confirmed', key }) };
    const confirmed = await cli(['license', 'check', 'ann@example.com'], { env: withService });
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.match(confirmed.stdout, /License activated: Pro for ann@example.com, never expires/);
    assert.ok(!confirmed.stdout.includes(key));
    const status = JSON.parse((await cli(['license', 'status', '--json'], { env })).stdout) as Record<
      string,
      unknown
    >;
    assert.equal(status.activation, 'email');
    assert.equal(status.plan, 'pro');
  });

  it('e-mail activation errors: not an http(s) service, bad address, service failing, a bad key', async (t) => {
    const { cli, defer } = cliSandbox(t);
    const service = await startStandInService();
    defer(() => service.close());
    const withService = { ...env, MOCKDEV_LICENSE_URL: service.url };

    const notUrl = await cli(['license', 'check', 'ann@example.com'], {
      env: { ...env, MOCKDEV_LICENSE_URL: 'ftp://x' },
    });
    assert.equal(notUrl.code, 2);
    assert.match(notUrl.stderr, /is not an http\(s\) URL/);
    const badEmail = await cli(['license', 'activate-email', 'nobody'], { env: withService });
    assert.equal(badEmail.code, 2);
    assert.match(badEmail.stderr, /"nobody" is not an e-mail address/);

    service.postStatus = 500;
    const down = await cli(['license', 'activate-email', 'ann@example.com'], { env: withService });
    assert.equal(down.code, 1);
    assert.equal(
      down.stderr,
      `mockdev: The license service at ${service.url}/v1/activations answered HTTP 500. Try again later\n`,
    );

    const tampered = tamper(signer.key());
    service.answer = { status: 200, body: JSON.stringify({ status: 'confirmed', key: tampered }) };
    const refused = await cli(['license', 'check', 'ann@example.com'], { env: withService });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /sent a key that is refused: its signature does not match/);
    assert.ok(!refused.stderr.includes(tampered));
    assert.match((await cli(['license', 'status'], { env })).stdout, /no license activated/);
  });

  it('trial asks the service, and words its refusals: a second trial, too many e-mails', async (t) => {
    const { cli, defer } = cliSandbox(t);
    const service = await startStandInService();
    defer(() => service.close());
    const withService = { ...env, MOCKDEV_LICENSE_URL: service.url };
    const asked = await cli(['license', 'trial', 'ann@example.com'], { env: withService });
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /sending ann@example.com a link that starts a 14-day trial/);
    assert.match(asked.stdout, /then run: mockdev license check ann@example.com/);
    assert.deepEqual(service.calls[0], {
      method: 'POST',
      url: '/v1/trials',
      body: { email: 'ann@example.com' },
    });

    service.postStatus = 409;
    const second = await cli(['license', 'trial', 'ann@example.com'], { env: withService });
    assert.equal(second.code, 1);
    assert.match(second.stderr, /^mockdev: ann@example.com already had its trial: .* one per e-mail address/);
    service.postStatus = 429;
    const often = await cli(['license', 'trial', 'ann@example.com'], { env: withService });
    assert.equal(often.code, 1);
    assert.match(often.stderr, /asks to wait before it sends another e-mail\. Try again in a minute/);
    service.answer = { status: 404, body: '{}' };
    const none = await cli(['license', 'check', 'ann@example.com'], { env: withService });
    assert.equal(none.code, 1);
    assert.match(
      none.stderr,
      /has no activation or trial asked for ann@example.com .*Open the link within a day/,
    );

    const help = await cli(['license', 'trial', '--help'], { env });
    assert.match(help.stdout, /14-day trial of Pro \(one per e-mail address\)/);
    const none2 = await cli(['license', 'status'], { env });
    assert.match(none2.stdout, /mockdev license trial <EMAIL>/);
  });

  it('is wired into the built binary', async (t) => {
    const { spawn } = cliSandbox(t);
    const r = await spawn(['license', 'activate', signer.key({ sub: 'bin@example.com' })], { env });
    assert.equal(r.code, 0, r.stderr);
    const s = await spawn(['license', 'status', '--json'], { env });
    assert.equal((JSON.parse(s.stdout) as { licensee: string }).licensee, 'bin@example.com');
    // The default license service, a constant of the build (MOCKDEV_DEFAULT_LICENSE_URL).
    const help = await spawn(['license', '--help'], { env });
    assert.match(help.stdout, /MOCKDEV_LICENSE_URL \(default: https:\/\/licenses\.mockdev\.dev\)/);
  });
});
