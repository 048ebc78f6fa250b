import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { daysFromNow, tamper, testSigner } from '../../test/helpers/license.js';
import { MockdevError } from './errors.js';
import {
  BUILT_IN_LICENSE_PUBLIC_KEY,
  checkLicenseKey,
  decidePro,
  licensePublicKey,
  maskKey,
  parseLicenseKey,
  verifyLicenseKey,
} from './license.js';

const signer = testSigner();
const publicKey = licensePublicKey(signer.publicKeyPem);
const now = Date.now();

const rejects = (fn: () => unknown, code: string, pattern: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof MockdevError && e.code === code && pattern.test(e.message));

describe('license keys', () => {
  it('verifies a key signed by the key pair, with its payload', () => {
    const exp = daysFromNow(30);
    const payload = verifyLicenseKey(signer.key({ sub: 'ann@example.com', exp }), publicKey, now);
    assert.equal(payload.sub, 'ann@example.com');
    assert.equal(payload.plan, 'pro');
    assert.equal(payload.exp, exp);
  });

  it('refuses a tampered key, one signed by another pair, and an expired one (exit 1)', () => {
    rejects(
      () => verifyLicenseKey(tamper(signer.key()), publicKey, now),
      'LICENSE_INVALID',
      /signature does not match/,
    );
    rejects(() => verifyLicenseKey(testSigner().key(), publicKey, now), 'LICENSE_INVALID', /signature/);
    rejects(
      () => verifyLicenseKey(signer.key({ exp: daysFromNow(-1) }), publicKey, now),
      'LICENSE_INVALID',
      /expired on/,
    );
    assert.equal(checkLicenseKey(signer.key({ exp: daysFromNow(-1) }), publicKey, now).state, 'expired');
    assert.equal(new MockdevError('LICENSE_INVALID', 'x').exitCode, 1);
  });

  it('says a key that is not well-formed is an invalid argument (exit 2), never quoting it', () => {
    const good = signer.key();
    const [payload, sig] = good.split('.') as [string, string];
    const notPro = signer.key({ plan: 'free' });
    for (const bad of [
      '',
      'abc',
      `${good}.x`,
      `${payload}.${sig.slice(4)}`,
      `${payload}!.${sig}`,
      `YWJj.${sig}`,
      notPro,
    ]) {
      assert.throws(
        () => parseLicenseKey(bad),
        (e: unknown) =>
          e instanceof MockdevError &&
          e.code === 'INVALID_ARGUMENT' &&
          e.exitCode === 2 &&
          (!bad || !e.message.includes(bad)),
        bad,
      );
    }
  });

  it('uses the built-in public key unless one is given, and refuses a key that is not Ed25519', () => {
    assert.equal(licensePublicKey(undefined).asymmetricKeyType, 'ed25519');
    assert.equal(licensePublicKey(BUILT_IN_LICENSE_PUBLIC_KEY).asymmetricKeyType, 'ed25519');
    rejects(
      () => verifyLicenseKey(signer.key(), licensePublicKey(undefined), now),
      'LICENSE_INVALID',
      /signature/,
    );
    rejects(() => licensePublicKey('not a pem'), 'INVALID_ARGUMENT', /MOCKDEV_LICENSE_PUBLIC_KEY/);
  });

  it('masks a key to its last characters', () => {
    const key = signer.key();
    assert.equal(maskKey(key), `…${key.slice(-6)}`);
  });

  it('allows Pro only with an active license', () => {
    assert.deepEqual(decidePro(undefined), { allowed: false, reason: 'none' });
    assert.deepEqual(decidePro(checkLicenseKey(signer.key(), publicKey, now)), { allowed: true });
    assert.equal(
      decidePro(checkLicenseKey(signer.key({ exp: daysFromNow(-1) }), publicKey, now)).allowed,
      false,
    );
    assert.equal(decidePro(checkLicenseKey(tamper(signer.key()), publicKey, now)).allowed, false);
  });
});
