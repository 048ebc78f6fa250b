import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MockdevError } from '../core/errors.js';
import { describeSmtpUrl, loadSigningKey, publicKeyPem, readConfig } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'license-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ed25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keyFile = join(dir, 'key.pem');
writeFileSync(keyFile, ed25519, { mode: 0o600 });
const BASE = {
  LICENSE_DB: join(dir, 'l.db'),
  LICENSE_SIGNING_KEY_FILE: keyFile,
  SMTP_URL: 'smtps://mailer:pa55word@smtp.example.com:465',
  SMTP_FROM: 'licenses@example.com',
};

/** Throws INVALID_ARGUMENT (exit 2) whose one line matches `pattern` and holds none of `secrets`. */
const invalid =
  (pattern: RegExp, secrets: string[] = []) =>
  (e: unknown) => {
    assert.ok(e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && e.exitCode === 2, String(e));
    const line = e.describe();
    assert.match(line, pattern);
    for (const s of secrets) assert.ok(!line.includes(s), `"${s}" in: ${line}`);
    return true;
  };

describe('the license service configuration', () => {
  it('reads the variables, with defaults for the optional ones', () => {
    const c = readConfig(BASE);
    assert.deepEqual(
      [c.port, c.host, c.dbPath, c.smtpFrom, c.publicUrl, c.mailIntervalSeconds],
      [8080, '127.0.0.1', BASE.LICENSE_DB, 'licenses@example.com', undefined, 60],
    );
    assert.equal(c.signingKey.asymmetricKeyType, 'ed25519');
    const set = readConfig({
      ...BASE,
      PORT: '9000',
      HOST: '0.0.0.0',
      LICENSE_PUBLIC_URL: 'https://licenses.example.com/',
      LICENSE_MAIL_INTERVAL_SECONDS: '5',
    });
    assert.deepEqual(
      [set.port, set.host, set.publicUrl, set.mailIntervalSeconds],
      [9000, '0.0.0.0', 'https://licenses.example.com', 5],
    );
  });

  it('names what is missing or malformed, never quoting SMTP_URL', () => {
    assert.throws(
      () => readConfig({}),
      invalid(/needs LICENSE_DB, SMTP_URL, SMTP_FROM, and they are not set/),
    );
    assert.throws(
      () => readConfig({ ...BASE, PORT: 'http' }),
      invalid(/^PORT must be a whole number from 0 to 65535/),
    );
    assert.throws(
      () => readConfig({ ...BASE, LICENSE_PUBLIC_URL: 'ftp://x' }),
      invalid(/LICENSE_PUBLIC_URL is not an http\(s\) URL/),
    );
    const secret = 'http://mailer:pa55word@smtp.example.com';
    assert.throws(
      () => readConfig({ ...BASE, SMTP_URL: secret }),
      invalid(/^SMTP_URL is not an smtp:\/\//, ['pa55word']),
    );
    assert.equal(describeSmtpUrl(BASE.SMTP_URL), 'smtps://smtp.example.com:465');
  });

  it('takes the signing key from a file or the environment, never quoting it', () => {
    const inline = loadSigningKey({ LICENSE_SIGNING_KEY: ed25519.replace(/\n/g, '\\n') });
    const fromFile = loadSigningKey({ LICENSE_SIGNING_KEY_FILE: keyFile });
    assert.equal(publicKeyPem(inline), publicKeyPem(fromFile));

    assert.throws(
      () => loadSigningKey({}),
      invalid(/neither LICENSE_SIGNING_KEY_FILE nor LICENSE_SIGNING_KEY is set.*openssl genpkey/),
    );
    assert.throws(
      () => loadSigningKey({ LICENSE_SIGNING_KEY_FILE: keyFile, LICENSE_SIGNING_KEY: ed25519 }),
      invalid(/Both LICENSE_SIGNING_KEY_FILE and LICENSE_SIGNING_KEY are set/),
    );
    assert.throws(
      () => loadSigningKey({ LICENSE_SIGNING_KEY_FILE: join(dir, 'missing.pem') }),
      invalid(/LICENSE_SIGNING_KEY_FILE \(.*missing\.pem\) cannot be read \(ENOENT\)/),
    );
    const broken = ed25519.slice(0, 60);
    assert.throws(
      () => loadSigningKey({ LICENSE_SIGNING_KEY: broken }),
      invalid(/^LICENSE_SIGNING_KEY is not a private key in PEM form/, [broken.slice(28)]),
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    assert.throws(
      () => loadSigningKey({ LICENSE_SIGNING_KEY: rsa }),
      invalid(/is an rsa key, not an Ed25519 one/, [rsa.slice(30, 80)]),
    );

    const open = join(dir, 'open.pem');
    writeFileSync(open, ed25519, { mode: 0o644 });
    const warnings: string[] = [];
    loadSigningKey({ LICENSE_SIGNING_KEY_FILE: open }, (w) => warnings.push(w));
    assert.match(warnings[0]!, /open\.pem \(the signing key\) is readable by others: chmod 600 it/);
  });
});
