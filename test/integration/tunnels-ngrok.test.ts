/**
 * ngrok end to end without the network, and its auth token as a setting (a secret): no token is
 * a clear error; a token with no network is a clear error within the timeout, no process left.
 * The CLI runs as built (`npm run build` first).
 */
import assert from 'node:assert/strict';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json } from '../helpers/cli.js';
import { proSandbox } from '../helpers/pro.js';
import { killPid, pidsWithEnv } from '../helpers/tunnels.js';

const TOKEN = 'tok_2abcDEFghiJKLmnoPQRstuVWX_test';

describe('ngrok tunnels', () => {
  it('without an auth token: exit 1 saying where to get one', async (t) => {
    const box = await proSandbox(t);
    await box.cli(['project', 'create', 'hooks']);
    const r = await box.spawn(['tunnel', 'start', 'hooks', '-p', 'ngrok', '-P', '45690'], {
      env: { NGROK_AUTHTOKEN: undefined },
    });
    assertCliError(
      r,
      1,
      /ngrok needs an auth token, and none is set.*https:\/\/dashboard\.ngrok\.com\/get-started\/your-authtoken.*NGROK_AUTHTOKEN.*--ngrok-authtoken/,
    );
  });

  it('a token and no network: a clear error within the timeout, no holder process left, the token never shown', async (t) => {
    const box = await proSandbox(t);
    await box.cli(['project', 'create', 'hooks']);
    const marker = `MOCKDEV_DATA_DIR=${box.dataDir}`;
    box.defer(() => pidsWithEnv(['MOCKDEV_TUNNEL_HOLDER=ngrok', marker]).forEach(killPid));
    const t0 = Date.now();
    const r = await box.spawn(['tunnel', 'start', 'hooks', '-p', 'ngrok', '-P', '45691'], {
      env: { NGROK_AUTHTOKEN: TOKEN, MOCKDEV_TUNNEL_TIMEOUT_MS: '8000', HTTPS_PROXY: 'http://127.0.0.1:9' },
      timeoutMs: 30_000,
    });
    // Offline the library fails fast ("failed to connect session"); at worst the wait ends.
    assertCliError(r, 1, /^mockdev: ngrok (exited with code 1|gave no public URL within 8 s)/);
    assert.ok(Date.now() - t0 < 20_000, `took ${Date.now() - t0} ms`);
    assert.doesNotMatch(r.stderr, new RegExp(TOKEN));
    assert.deepEqual(pidsWithEnv(['MOCKDEV_TUNNEL_HOLDER=ngrok', marker]), []);
    const s = await box.spawn(['tunnel', 'status', 'hooks', '--json']);
    assert.deepEqual(json(s), { running: false });
  });
});

describe('the ngrok auth token setting', () => {
  it('is stored 0600, shown masked by settings show (text and JSON), cleared by "none", never echoed in an error', async (t) => {
    const box = await proSandbox(t, { activate: false });
    const set = await box.cli(['settings', 'update', '--ngrok-authtoken', TOKEN, '--json']);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(json<{ ngrokAuthtoken: string }>(set).ngrokAuthtoken, '********');
    assert.match(set.stderr, /visible in the process list/);
    const file = join(box.dataDir, 'settings.json');
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).ngrokAuthtoken, TOKEN);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    for (const args of [
      ['settings', 'show'],
      ['settings', 'show', '--json'],
    ]) {
      const shown = await box.cli(args);
      assert.equal(shown.code, 0, shown.stderr);
      assert.doesNotMatch(shown.stdout, new RegExp(TOKEN));
      assert.match(shown.stdout, /\*{8}/);
    }
    const bad = await box.cli(['settings', 'update', '--ngrok-authtoken', 'two words']);
    assertCliError(bad, 2, /^mockdev: Invalid --ngrok-authtoken: must be one word/);
    assert.doesNotMatch(bad.stderr, /two words/);
    const piped = await box.cli(['settings', 'update', '--ngrok-authtoken', '-', '--json'], {
      input: 'tok_from_stdin\n',
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).ngrokAuthtoken, 'tok_from_stdin');
    const cleared = await box.cli(['settings', 'update', '--ngrok-authtoken', 'none', '--json']);
    assert.equal(json<{ ngrokAuthtoken: null }>(cleared).ngrokAuthtoken, null);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).ngrokAuthtoken, null);
  });
});
