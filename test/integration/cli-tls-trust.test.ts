/**
 * `tls status`: the trust-store checks read from a sandboxed environment (NODE_EXTRA_CA_CERTS,
 * SSL_CERT_FILE, HOME with NSS databases, stand-in certutil and keytool on PATH), and the leaf
 * due for renewal.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TlsStatus, TrustCheck } from '../../src/core/model/tls.js';
import { leafSans } from '../../src/core/tls.js';
import { FileTlsFiles } from '../../src/store/fs/tls-files.js';
import { makeCa, makeLeaf } from '../../src/store/tls/x509.js';
import { json, type CliResult } from '../helpers/cli.js';
import { proSandbox } from '../helpers/pro.js';
import { certOf, tlsFiles } from '../helpers/tls.js';

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};
const DAY = 86_400_000;
/** Another CA's certificate: what a bundle holds besides (or instead of) ours. */
const OTHER_CERT = (await makeCa()).cert;

/** A sandbox with a generated CA, and `tls status --json` run with `env`. */
async function generated(t: Parameters<typeof proSandbox>[0]) {
  const box = await proSandbox(t);
  ok(await box.cli(['tls', 'generate']));
  const f = tlsFiles(box.dataDir);
  const status = async (env: Record<string, string | undefined>) =>
    json<TlsStatus>(ok(await box.cli(['tls', 'status', '--json'], { env })));
  const caPem = readFileSync(f.ca, 'utf8');
  return { ...box, f, status, caPem };
}

const only = (s: TlsStatus, store: TrustCheck['store']) => s.trust.filter((c) => c.store === store);

/** A folder of stand-in programs (shell scripts), first on PATH. */
function programs(dir: string, scripts: Record<string, string>): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

describe('tls status: trust stores', () => {
  it('Node: NODE_EXTRA_CA_CERTS naming the CA, a bundle holding it, one without it, a missing file', async (t) => {
    const { dir, f, status, caPem } = await generated(t);
    assert.deepEqual(only(await status({ NODE_EXTRA_CA_CERTS: undefined }), 'node'), [
      {
        store: 'node',
        location: 'NODE_EXTRA_CA_CERTS',
        status: 'not-trusted',
        detail: 'NODE_EXTRA_CA_CERTS is not set',
      },
    ]);
    assert.equal(only(await status({ NODE_EXTRA_CA_CERTS: f.ca }), 'node')[0]!.status, 'trusted');
    const bundle = join(dir, 'bundle.pem');
    writeFileSync(bundle, `${OTHER_CERT}\n${caPem.replace(/\n/g, '\r\n')}`);
    assert.deepEqual(only(await status({ NODE_EXTRA_CA_CERTS: bundle }), 'node')[0], {
      store: 'node',
      location: `NODE_EXTRA_CA_CERTS=${bundle}`,
      status: 'trusted',
      detail: 'the file holds the CA',
    });
    writeFileSync(bundle, OTHER_CERT);
    assert.equal(only(await status({ NODE_EXTRA_CA_CERTS: bundle }), 'node')[0]!.status, 'not-trusted');
    assert.deepEqual(
      only(await status({ NODE_EXTRA_CA_CERTS: join(dir, 'gone.pem') }), 'node')[0]!.detail,
      'cannot read it: no such file',
    );
  });

  it('the system store: SSL_CERT_FILE and the Linux CA bundle, compared by certificate', async (t) => {
    const { dir, status, caPem } = await generated(t);
    const bundle = join(dir, 'system.pem');
    writeFileSync(bundle, `${OTHER_CERT}${caPem}`);
    const system = only(await status({ SSL_CERT_FILE: bundle }), 'system');
    assert.deepEqual(system[0], {
      store: 'system',
      location: bundle,
      status: 'trusted',
      detail: 'the bundle holds the CA',
    });
    // The machine's own bundle, where there is one, does not hold a CA made a moment ago.
    const machine = '/etc/ssl/certs/ca-certificates.crt';
    if (existsSync(machine))
      assert.deepEqual(
        system.find((c) => c.location === machine),
        {
          store: 'system',
          location: machine,
          status: 'not-trusted',
          detail: 'the bundle does not hold the CA',
        },
      );
    assert.equal(only(await status({ SSL_CERT_FILE: join(dir, 'nope') }), 'system')[0]!.status, 'unknown');
  });

  it('NSS and Java through certutil and keytool (stand-ins), unknown when they are missing or fail', async (t) => {
    const { dir, f, status, caPem } = await generated(t);
    const home = join(dir, 'home');
    const nssdb = join(home, '.pki', 'nssdb');
    const profile = join(home, '.mozilla', 'firefox', 'abc.default');
    for (const db of [nssdb, profile]) {
      mkdirSync(db, { recursive: true });
      writeFileSync(join(db, 'cert9.db'), '');
    }
    writeFileSync(join(dir, 'ca-copy.pem'), caPem);
    const fingerprint = certOf(f.ca).fingerprint256;
    const bin = programs(dir, {
      // The NSS database under ~/.pki holds the CA trusted; the Firefox profile does not.
      certutil: `case "$2" in *firefox*) printf 'Certificate Nickname  Trust Attributes\\n\\nsome other CA   C,,\\n'; exit 0;; esac
case "$*" in *" -a "*) cat '${join(dir, 'ca-copy.pem')}';; *) printf 'Certificate Nickname  Trust Attributes\\n\\nmockdev development CA                 C,,\\n';; esac`,
      keytool: `echo 'Your keystore contains 1 entry'; echo 'Certificate fingerprint (SHA-256): ${fingerprint}'`,
    });
    const s = await status({ HOME: home, PATH: `${bin}:${process.env.PATH}` });
    assert.deepEqual(only(s, 'nss'), [
      { store: 'nss', location: nssdb, status: 'trusted', detail: 'trust flags C,,' },
      {
        store: 'nss',
        location: profile,
        status: 'not-trusted',
        detail: 'no certificate named "mockdev development CA"',
      },
    ]);
    assert.equal(only(s, 'java')[0]!.status, 'trusted');

    programs(dir, {
      keytool: `echo 'keytool error: java.io.IOException: Keystore was tampered with' >&2; exit 1`,
    });
    const failed = only(await status({ HOME: home, PATH: `${bin}:${process.env.PATH}` }), 'java')[0]!;
    assert.equal(failed.status, 'unknown');
    assert.equal(
      failed.detail,
      'keytool failed (exit 1): keytool error: java.io.IOException: Keystore was tampered with',
    );

    const none = await status({ HOME: home, PATH: join(dir, 'empty') });
    assert.deepEqual(
      only(none, 'nss').map((c) => [c.location, c.status, c.detail!.startsWith('certutil is missing')]),
      [
        [nssdb, 'unknown', true],
        [profile, 'unknown', true],
      ],
    );
    assert.deepEqual(only(none, 'java')[0], {
      store: 'java',
      location: 'the JDK cacerts',
      status: 'unknown',
      detail: 'keytool is missing (no Java here)',
    });
    assert.equal(
      only(await status({ HOME: join(dir, 'nobody') }), 'nss')[0]!.detail,
      'no NSS database found: no Chromium or Firefox profile here',
    );
  });
});

describe('tls status: renewal', () => {
  it('a leaf within 30 days of its end, or past it, says to renew', async (t) => {
    const { cli, dataDir } = await generated(t);
    const files = new FileTlsFiles(dataDir);
    const ca = (await files.readCa())!;
    await files.writeLeaf(await makeLeaf(ca, leafSans(), { now: Date.now() - 800 * DAY }));
    const s = json<TlsStatus>(ok(await cli(['tls', 'status', '--json'])));
    assert.equal(s.renew, true);
    assert.ok(s.leaf!.daysLeft >= 23 && s.leaf!.daysLeft <= 25, String(s.leaf!.daysLeft));
    assert.match(
      ok(await cli(['tls', 'status'])).stdout,
      /The certificate ends within 30 days: renew it with mockdev tls generate\./,
    );

    await files.writeLeaf(await makeLeaf(ca, leafSans(), { now: Date.now() - 900 * DAY }));
    const text = ok(await cli(['tls', 'status'])).stdout;
    assert.match(text, /expired 7[45] days ago/);
    assert.match(text, /The certificate has expired: renew it with mockdev tls generate\./);
  });
});
