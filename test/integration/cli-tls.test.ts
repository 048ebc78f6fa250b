/**
 * `tls generate | status | trust`: the CA and leaf checked with the real openssl, key modes,
 * the CA kept or renewed, the status as text and JSON (trust stores read from a sandboxed HOME,
 * PATH and environment), the trust commands per system.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { TlsStatusSchema, TRUST_TARGETS, type TlsStatus } from '../../src/core/model/tls.js';
import { assertCliError, json, type CliResult } from '../helpers/cli.js';
import { proSandbox } from '../helpers/pro.js';
import { certOf, requireTool, run, tlsFiles } from '../helpers/tls.js';

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};
const DAY = 86_400_000;
const validDays = (file: string) => {
  const c = certOf(file);
  return Math.round((Date.parse(c.validTo) - Date.parse(c.validFrom)) / DAY);
};

describe('tls generate', () => {
  it('needs Pro: exit 1 saying what needs it and how to activate, nothing written', async (t) => {
    const { cli, dataDir } = await proSandbox(t, { activate: false });
    assertCliError(
      await cli(['tls', 'generate']),
      1,
      /^mockdev: "tls generate" needs a Pro license, and no license is activated\. .*mockdev license activate <KEY>/,
    );
    assert.throws(() => statSync(tlsFiles(dataDir).dir), /ENOENT/);
  });

  it('makes a CA and a leaf openssl verifies, with the SANs and EKU asked for, keys 0600', async (t) => {
    const openssl = requireTool('openssl', 'openssl');
    const { cli, dataDir } = await proSandbox(t);
    const out = ok(
      await cli(['tls', 'generate', '--host', 'api.local', '--host', '192.168.1.20', '--host', 'fe80::1']),
    );
    const f = tlsFiles(dataDir);
    for (const file of [f.ca, f.cert, f.key]) assert.ok(out.stdout.includes(file), `${file} printed`);
    assert.match(out.stdout, /Made a new CA/);
    assert.match(out.stdout, /mockdev tls trust/);
    assert.equal(statSync(f.dir).mode & 0o777, 0o700);
    for (const file of [f.ca, f.caKey, f.cert, f.key]) assert.equal(statSync(file).mode & 0o777, 0o600, file);

    const verified = await run(openssl, ['verify', '-CAfile', f.ca, f.cert]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /cert\.pem: OK/);

    const leaf = await run(openssl, ['x509', '-in', f.cert, '-noout', '-text']);
    assert.equal(leaf.code, 0, leaf.stderr);
    assert.match(leaf.stdout, /Issuer: .*CN ?= ?mockdev development CA/);
    const sans = /Subject Alternative Name:\s*\n\s*(.+)/.exec(leaf.stdout)![1]!.split(/,\s*/);
    assert.deepEqual(sans, [
      'DNS:localhost',
      'IP Address:127.0.0.1',
      'IP Address:0:0:0:0:0:0:0:1',
      'DNS:api.local',
      'IP Address:192.168.1.20',
      'IP Address:FE80:0:0:0:0:0:0:1',
    ]);
    assert.match(leaf.stdout, /Extended Key Usage:\s*\n\s*TLS Web Server Authentication\s*\n/);
    assert.match(leaf.stdout, /Basic Constraints: critical\s*\n\s*CA:FALSE/);

    const ca = await run(openssl, ['x509', '-in', f.ca, '-noout', '-text']);
    assert.match(ca.stdout, /Subject: .*CN ?= ?mockdev development CA/);
    assert.match(ca.stdout, /Basic Constraints: critical\s*\n\s*CA:TRUE/);
    assert.match(ca.stdout, /Key Usage: critical\s*\n\s*.*Certificate Sign/);
    assert.equal(validDays(f.ca), 3650);
    assert.equal(validDays(f.cert), 825);
    // The key file holds the leaf's key.
    const check = await run(openssl, ['pkey', '-in', f.key, '-pubout']);
    assert.equal(
      check.stdout.trim(),
      certOf(f.cert).publicKey.export({ type: 'spki', format: 'pem' }).toString().trim(),
    );
  });

  it('a second generate keeps the CA and renews the leaf; --new-ca makes a new CA', async (t) => {
    const openssl = requireTool('openssl', 'openssl');
    const { cli, dataDir } = await proSandbox(t);
    const f = tlsFiles(dataDir);
    ok(await cli(['tls', 'generate']));
    const [ca1, caKey1, leaf1] = [f.ca, f.caKey, f.cert].map((p) => readFileSync(p, 'utf8'));

    const again = ok(await cli(['tls', 'generate', '--host', 'later.test']));
    assert.match(again.stdout, /Kept the CA/);
    assert.equal(readFileSync(f.ca, 'utf8'), ca1);
    assert.equal(readFileSync(f.caKey, 'utf8'), caKey1);
    assert.notEqual(readFileSync(f.cert, 'utf8'), leaf1);
    assert.match(certOf(f.cert).subjectAltName!, /DNS:later\.test/);
    assert.equal((await run(openssl, ['verify', '-CAfile', f.ca, f.cert])).code, 0);

    const renewed = ok(await cli(['tls', 'generate', '--new-ca']));
    assert.match(renewed.stdout, /Made a new CA/);
    assert.notEqual(readFileSync(f.ca, 'utf8'), ca1);
    assert.notEqual(readFileSync(f.caKey, 'utf8'), caKey1);
    assert.doesNotMatch(certOf(f.cert).subjectAltName!, /later\.test/);
    assert.equal((await run(openssl, ['verify', '-CAfile', f.ca, f.cert])).code, 0);
  });

  it('refuses a --host that is no name or address (exit 2), nothing written', async (t) => {
    const { cli, dataDir } = await proSandbox(t);
    assertCliError(
      await cli(['tls', 'generate', '--host', 'bad host']),
      2,
      /^mockdev: Invalid --host "bad host"/,
    );
    assert.throws(() => statSync(tlsFiles(dataDir).ca), /ENOENT/);
  });
});

describe('tls status', () => {
  it('says nothing was generated yet (exit 0), as text and JSON', async (t) => {
    const { cli, dataDir } = await proSandbox(t, { activate: false });
    const text = ok(await cli(['tls', 'status']));
    assert.match(text.stdout, /^Nothing generated yet — run mockdev tls generate/);
    const s = json<TlsStatus>(ok(await cli(['tls', 'status', '--json'])));
    assert.deepEqual(s, { dir: tlsFiles(dataDir).dir, ca: null, leaf: null, renew: false, trust: [] });
  });

  it('shows both certificates and each trust store after generate', async (t) => {
    const { cli, dataDir } = await proSandbox(t);
    ok(await cli(['tls', 'generate', '--host', 'api.local']));
    const f = tlsFiles(dataDir);
    const s = TlsStatusSchema.parse(json(ok(await cli(['tls', 'status', '--json']))));
    assert.equal(s.ca!.path, f.ca);
    assert.equal(s.ca!.subject, 'CN=mockdev development CA, O=mockdev');
    assert.equal(s.ca!.fingerprint256, certOf(f.ca).fingerprint256);
    assert.ok(s.ca!.daysLeft >= 3649 && s.ca!.daysLeft <= 3650, String(s.ca!.daysLeft));
    assert.equal(s.leaf!.path, f.cert);
    assert.equal(s.leaf!.issuer, 'CN=mockdev development CA, O=mockdev');
    assert.deepEqual(s.leaf!.sans, ['localhost', '127.0.0.1', '::1', 'api.local']);
    assert.ok(s.leaf!.daysLeft >= 824 && s.leaf!.daysLeft <= 825);
    assert.equal(s.renew, false);
    assert.deepEqual([...new Set(s.trust.map((c) => c.store))].sort(), ['java', 'node', 'nss', 'system']);

    const text = ok(await cli(['tls', 'status']));
    assert.ok(text.stdout.includes(`CA: ${f.ca}`));
    assert.ok(text.stdout.includes(`Certificate: ${f.cert}`));
    assert.ok(text.stdout.includes(s.leaf!.fingerprint256));
    assert.match(text.stdout, /Names: +localhost, 127\.0\.0\.1, ::1, api\.local/);
    assert.match(text.stdout, /\(82[45] days left\)/);
    assert.match(text.stdout, /Trust:\n {2}system/);
    assert.doesNotMatch(text.stdout, /renew/);
  });
});

describe('tls trust', () => {
  it('prints the commands of each system with the CA file, never running them', async (t) => {
    const { cli, dataDir } = await proSandbox(t, { activate: false });
    const ca = tlsFiles(dataDir).ca;
    const expected: Record<(typeof TRUST_TARGETS)[number], string> = {
      macos: `sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${ca}`,
      windows: `certutil -addstore -f ROOT ${ca}`,
      linux: `sudo cp ${ca} /usr/local/share/ca-certificates/mockdev-ca.crt && sudo update-ca-certificates\n`,
      firefox: `certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n "mockdev development CA" -i ${ca}`,
      java: `-cacerts -storepass changeit -alias mockdev-development-ca -file ${ca}`,
      node: `export NODE_EXTRA_CA_CERTS=${ca}`,
    };
    for (const target of TRUST_TARGETS) {
      const r = ok(await cli(['tls', 'trust', '--os', target]));
      assert.ok(r.stdout.includes(expected[target]), `${target}:\n${r.stdout}`);
      assert.match(r.stdout, /mockdev never does/);
      assert.match(r.stderr, /No CA yet: run mockdev tls generate first/);
    }
    assert.match(
      ok(await cli(['tls', 'trust', '--os', 'linux'])).stdout,
      new RegExp(`sudo trust anchor ${ca}\\n`),
    );
    // The default: this system (linux here).
    assert.equal(
      ok(await cli(['tls', 'trust'])).stdout,
      ok(await cli(['tls', 'trust', '--os', 'linux'])).stdout,
    );
    assertCliError(
      await cli(['tls', 'trust', '--os', 'beos']),
      2,
      /^mockdev: Invalid --os "beos": must be one of macos, windows, linux, firefox, java, node/,
    );
  });
});

describe('tls (the built binary)', () => {
  it('generates with the bundled X.509 library and reports the status', async (t) => {
    const { spawn, dataDir } = await proSandbox(t);
    const made = await spawn(['tls', 'generate', '--host', 'spawned.test']);
    assert.equal(made.code, 0, made.stderr);
    const s = TlsStatusSchema.parse(JSON.parse((await spawn(['tls', 'status', '--json'])).stdout));
    assert.equal(s.ca!.path, tlsFiles(dataDir).ca);
    assert.deepEqual(s.leaf!.sans, ['localhost', '127.0.0.1', '::1', 'spawned.test']);
  });
});
