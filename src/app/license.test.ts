import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { daysFromNow, startStandInService, tamper, testSigner } from '../../test/helpers/license.js';
import { MockdevError } from '../core/errors.js';
import type { StoredLicense } from '../core/model/license.js';
import type { ActivationAnswer, LicenseService, LicenseStore } from '../core/ports.js';
import { CLI_WORDING } from '../cli/wording.js';
import { HttpLicenseService } from '../store/net/license-service.js';
import { DEFAULT_LICENSE_URL, VENDOR_LICENSE_URL } from '../core/license-defaults.js';
import {
  checkEmailActivation,
  licenseStatus,
  requestEmailActivation,
  requestTrial,
  requirePro,
} from './license.js';

const signer = testSigner();

/**
 * What the license use cases need: a license store (in memory), the environment and the license
 * service (over HTTP unless a test gives a fake).
 */
function licenseContext(
  stored?: string,
  env: NodeJS.ProcessEnv = {},
  licenseService: LicenseService = new HttpLicenseService(),
) {
  let license: StoredLicense | undefined = stored
    ? { key: stored, activation: 'key', activatedAt: new Date().toISOString() }
    : undefined;
  const store: LicenseStore = {
    read: () => Promise.resolve(license),
    write: (l) => {
      license = l;
      return Promise.resolve();
    },
  };
  return { license: store, env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, ...env }, licenseService };
}

const refusedWith = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof MockdevError);
  assert.equal(e.code, 'LICENSE_REQUIRED');
  assert.equal(e.exitCode, 1);
  assert.match(e.describe(CLI_WORDING), pattern);
  return true;
};

describe('the Pro gate (requirePro)', () => {
  it('refuses without a license, saying what needs Pro and how to activate', async () => {
    await assert.rejects(
      requirePro(licenseContext(), 'environment'),
      refusedWith(
        /^"environment" needs a Pro license, and no license is activated\. .*mockdev license activate <KEY>.*activate-email <EMAIL>/,
      ),
    );
  });

  it('refuses with an expired, a tampered or a broken license', async () => {
    await assert.rejects(
      requirePro(licenseContext(signer.key({ exp: daysFromNow(-2) })), 'tunnel'),
      refusedWith(/^"tunnel" needs a Pro license, and the license expired on .*Renew it, then activate/),
    );
    await assert.rejects(
      requirePro(licenseContext(tamper(signer.key())), 'contract'),
      refusedWith(/not valid: its signature/),
    );
    await assert.rejects(
      requirePro(licenseContext('garbage'), 'tls generate'),
      refusedWith(/"tls generate".*not valid/),
    );
  });

  it('allows every Pro feature with an active license', async () => {
    const ctx = licenseContext(signer.key({ exp: daysFromNow(10) }));
    for (const feature of ['environment', 'tunnel', 'tls generate', 'contract'] as const)
      await requirePro(ctx, feature);
  });

  it('checks against the built-in public key when MOCKDEV_LICENSE_PUBLIC_KEY is not set', async () => {
    const ctx = licenseContext(signer.key(), { MOCKDEV_LICENSE_PUBLIC_KEY: undefined });
    await assert.rejects(requirePro(ctx, 'environment'), refusedWith(/signature/));
    assert.equal((await licenseStatus(ctx)).plan, 'free');
  });
});

describe('e-mail activation against a stand-in license service', () => {
  const service = startStandInService();
  after(async () => (await service).close());

  it('fails with one line naming the URL when the service answers non-2xx or bad JSON', async () => {
    const s = await service;
    const ctx = licenseContext(undefined, { MOCKDEV_LICENSE_URL: s.url });
    s.postStatus = 503;
    await assert.rejects(requestEmailActivation(ctx, 'a@example.com'), (e: unknown) => {
      assert.ok(e instanceof MockdevError && e.code === 'IO_ERROR');
      assert.match(e.message, new RegExp(`${s.url}/v1/activations answered HTTP 503`));
      return true;
    });
    s.postStatus = 202;
    s.answer = { status: 200, body: '{not json' };
    await assert.rejects(
      checkEmailActivation(ctx, 'a@example.com'),
      /answered something that is not the expected JSON/,
    );
    s.answer = { status: 200, body: JSON.stringify({ status: 'confirmed' }) };
    await assert.rejects(checkEmailActivation(ctx, 'a@example.com'), /not the expected JSON/);
  });

  it('refuses a confirmed key the public key does not verify, and stores nothing', async () => {
    const s = await service;
    const ctx = licenseContext(undefined, { MOCKDEV_LICENSE_URL: s.url });
    const key = testSigner().key();
    s.answer = { status: 200, body: JSON.stringify({ status: 'confirmed', key }) };
    await assert.rejects(checkEmailActivation(ctx, 'a@example.com'), (e: unknown) => {
      assert.ok(e instanceof MockdevError && e.code === 'LICENSE_INVALID' && e.exitCode === 1);
      assert.ok(!e.describe().includes(key));
      return true;
    });
    assert.equal(await ctx.license.read(), undefined);
  });

  it('gives up after its timeout when the service does not answer', async (t) => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      silent.closeAllConnections();
      silent.close();
    });
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const ctx = licenseContext(undefined, { MOCKDEV_LICENSE_URL: url });
    await assert.rejects(
      requestEmailActivation(ctx, 'a@example.com', { timeoutMs: 200 }),
      new RegExp(`${url}/v1/activations failed: it did not answer within 0.2 s`),
    );
  });

  it('says the service is unreachable, naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const ctx = licenseContext(undefined, { MOCKDEV_LICENSE_URL: url });
    await assert.rejects(
      checkEmailActivation(ctx, 'a@example.com'),
      new RegExp(
        `license service at ${url}/v1/activations\\?email=a%40example.com failed: it could not be reached`,
      ),
    );
  });
});

describe('e-mail activation through the license service port (a fake service)', () => {
  /** A fake LicenseService: records its calls, answers what the test sets. */
  function fakeService(answers: ActivationAnswer[]) {
    const calls: string[] = [];
    const service: LicenseService = {
      requestActivation: (url, email) => {
        calls.push(`request ${url} ${email}`);
        return Promise.resolve();
      },
      requestTrial: (url, email) => {
        calls.push(`trial ${url} ${email}`);
        return Promise.resolve();
      },
      checkActivation: (url, email) => {
        calls.push(`check ${url} ${email}`);
        return Promise.resolve(answers.shift()!);
      },
    };
    return { service, calls };
  }

  it('asks the service at MOCKDEV_LICENSE_URL, then stores the key it confirms', async () => {
    const key = signer.key({ sub: 'ann@example.com' });
    const fake = fakeService([{ status: 'pending' }, { status: 'confirmed', key }]);
    const ctx = licenseContext(
      undefined,
      { MOCKDEV_LICENSE_URL: 'https://licenses.example.com/' },
      fake.service,
    );
    assert.deepEqual(await requestEmailActivation(ctx, ' ann@example.com '), {
      email: 'ann@example.com',
      service: 'https://licenses.example.com',
    });
    assert.deepEqual(await checkEmailActivation(ctx, 'ann@example.com'), {
      status: 'pending',
      email: 'ann@example.com',
    });
    assert.equal(await ctx.license.read(), undefined, 'nothing stored while pending');
    const confirmed = await checkEmailActivation(ctx, 'ann@example.com');
    assert.equal(confirmed.status, 'confirmed');
    assert.equal((await ctx.license.read())?.key, key);
    assert.equal((await ctx.license.read())?.activation, 'email');
    assert.deepEqual(fake.calls, [
      'request https://licenses.example.com ann@example.com',
      'check https://licenses.example.com ann@example.com',
      'check https://licenses.example.com ann@example.com',
    ]);
  });

  it('asks the default service when MOCKDEV_LICENSE_URL is not set, and for a trial', async () => {
    const fake = fakeService([]);
    for (const env of [{}, { MOCKDEV_LICENSE_URL: '  ' }]) {
      assert.deepEqual(await requestTrial(licenseContext(undefined, env, fake.service), 'bo@example.com'), {
        email: 'bo@example.com',
        service: DEFAULT_LICENSE_URL,
        days: 14,
      });
    }
    await requestEmailActivation(licenseContext(undefined, {}, fake.service), 'bo@example.com');
    assert.equal(DEFAULT_LICENSE_URL, VENDOR_LICENSE_URL, 'from the sources, the vendor’s service');
    assert.deepEqual(fake.calls, [
      `trial ${VENDOR_LICENSE_URL} bo@example.com`,
      `trial ${VENDOR_LICENSE_URL} bo@example.com`,
      `request ${VENDOR_LICENSE_URL} bo@example.com`,
    ]);
  });

  it('says which public key verified the license: the override is never silent', async () => {
    const key = signer.key();
    assert.equal((await licenseStatus(licenseContext(key))).signedBy, 'MOCKDEV_LICENSE_PUBLIC_KEY');
    const expired = signer.key({ exp: daysFromNow(-1) });
    assert.equal((await licenseStatus(licenseContext(expired))).signedBy, 'MOCKDEV_LICENSE_PUBLIC_KEY');
    // Not verified (the built-in key does not verify the test's): nobody signed it.
    const builtIn = await licenseStatus(licenseContext(key, { MOCKDEV_LICENSE_PUBLIC_KEY: undefined }));
    assert.equal(builtIn.state, 'invalid');
    assert.equal('signedBy' in builtIn, false);
    assert.equal('signedBy' in (await licenseStatus(licenseContext())), false);
  });

  it('never calls the service for a bad address or a MOCKDEV_LICENSE_URL that is not http(s)', async () => {
    const fake = fakeService([]);
    await assert.rejects(
      requestEmailActivation(
        licenseContext(undefined, { MOCKDEV_LICENSE_URL: 'https://l.example.com' }, fake.service),
        'nope',
      ),
      /"nope" is not an e-mail address/,
    );
    await assert.rejects(
      requestTrial(licenseContext(undefined, {}, fake.service), 'not an address'),
      /"not an address" is not an e-mail address/,
    );
    await assert.rejects(
      checkEmailActivation(
        licenseContext(undefined, { MOCKDEV_LICENSE_URL: 'ftp://x' }, fake.service),
        'a@example.com',
      ),
      /is not an http\(s\) URL/,
    );
    assert.deepEqual(fake.calls, []);
  });
});
