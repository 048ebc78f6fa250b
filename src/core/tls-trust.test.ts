import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from './errors.js';
import { TRUST_TARGETS } from './model/tls.js';
import { defaultTrustTarget, toTrustTarget, trustInstructions } from './tls-trust.js';

const CA = '/home/ann/.local/share/mockdev/tls/ca.pem';
const commands = (target: (typeof TRUST_TARGETS)[number], ca = CA) =>
  trustInstructions(target, ca).steps.flatMap((s) => s.commands);

describe('trust instructions', () => {
  it("names each system's own command with the CA file filled in", () => {
    assert.deepEqual(
      commands('macos')[0],
      `sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${CA}`,
    );
    assert.deepEqual(
      commands('windows', 'C:\\Users\\ann\\mockdev\\tls\\ca.pem')[0],
      'certutil -addstore -f ROOT C:\\Users\\ann\\mockdev\\tls\\ca.pem',
    );
    assert.deepEqual(commands('linux').slice(0, 2), [
      `sudo cp ${CA} /usr/local/share/ca-certificates/mockdev-ca.crt && sudo update-ca-certificates`,
      `sudo trust anchor ${CA}`,
    ]);
    assert.ok(
      commands('firefox').includes(
        `certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n "mockdev development CA" -i ${CA}`,
      ),
    );
    assert.ok(
      commands('firefox').some((c) => c.includes('$HOME/.mozilla/firefox/*/') && c.includes(`-i ${CA}`)),
    );
    assert.match(commands('java')[0]!, new RegExp(`^sudo keytool -importcert .*-cacerts .*-file ${CA}$`));
    assert.deepEqual(commands('node'), [`export NODE_EXTRA_CA_CERTS=${CA}`]);
  });

  it('gives every target a titled step and the CA file', () => {
    for (const target of TRUST_TARGETS) {
      const t = trustInstructions(target, CA);
      assert.equal(t.target, target);
      assert.equal(t.caFile, CA);
      assert.ok(t.steps.length > 0 && t.steps.every((s) => s.title && s.commands.length > 0), target);
    }
  });

  it('quotes a CA path with spaces for the shell it is meant for', () => {
    assert.deepEqual(commands('node', "/Users/ann o'neil/ca.pem"), [
      `export NODE_EXTRA_CA_CERTS='/Users/ann o'\\''neil/ca.pem'`,
    ]);
    assert.equal(
      commands('windows', 'C:\\Users\\Ann Lee\\ca.pem')[0],
      'certutil -addstore -f ROOT "C:\\Users\\Ann Lee\\ca.pem"',
    );
  });

  it('defaults to this system and checks --os', () => {
    assert.equal(defaultTrustTarget('darwin'), 'macos');
    assert.equal(defaultTrustTarget('win32'), 'windows');
    assert.equal(defaultTrustTarget('linux'), 'linux');
    assert.equal(toTrustTarget(' Firefox '), 'firefox');
    assert.throws(
      () => toTrustTarget('beos'),
      (e: unknown) =>
        e instanceof MockdevError &&
        e.code === 'INVALID_ARGUMENT' &&
        /macos, windows, linux, firefox, java, node/.test(e.message),
    );
  });
});
