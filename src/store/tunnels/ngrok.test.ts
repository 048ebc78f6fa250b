import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { holdTunnel } from './ngrok-holder.js';
import type { LoadedNgrok, NgrokLibrary } from './ngrok-library.js';
import { NGROK_TOKEN_PAGE, ngrokProvider } from './ngrok.js';

/** A stand-in for the @ngrok/ngrok library: records what it was asked, answers as told. */
function fakeLibrary(answer: () => Promise<string | null>) {
  const calls: { addr: number | string; authtoken: string }[] = [];
  const library: NgrokLibrary = {
    forward: async (config) => {
      calls.push(config);
      const url = await answer();
      return { url: () => url };
    },
    disconnect: async () => undefined,
  };
  return { calls, load: async (): Promise<LoadedNgrok> => ({ library, version: '1.7.0' }) };
}
const missing = async (): Promise<LoadedNgrok> => {
  throw new Error("Cannot find module '@ngrok/ngrok-linux-riscv64-gnu'");
};

describe('ngrok provider (the library stubbed)', () => {
  it('is available with the library version, and says whether a token is set (never its value)', async () => {
    const { load } = fakeLibrary(async () => 'https://x.ngrok-free.app');
    const withToken = await ngrokProvider(load).check({ env: {}, authtoken: 'tok_secret' });
    assert.deepEqual(
      { ...withToken },
      {
        provider: 'ngrok',
        available: true,
        version: '1.7.0',
        detail: 'the @ngrok/ngrok library loads; auth token set',
      },
    );
    const without = await ngrokProvider(load).check({ env: {} });
    assert.match(without.detail, new RegExp(`no auth token yet: .*${NGROK_TOKEN_PAGE}`));
    assert.doesNotMatch(JSON.stringify(withToken), /tok_secret/);
  });

  it('where the library does not load: unavailable on this platform, with how to install it', async () => {
    const check = await ngrokProvider(missing).check({ env: {} });
    assert.equal(check.available, false);
    assert.match(
      check.detail,
      /^ngrok is not available on this platform: the @ngrok\/ngrok library did not load/,
    );
    assert.ok(check.install?.commands.length);
    const start = ngrokProvider(missing).start({
      env: {},
      authtoken: 'tok',
      dataDir: '/nonexistent',
      projectId: 'p1',
      port: 4000,
      timeoutMs: 1000,
    });
    await assert.rejects(
      start,
      (e: MockdevError) => e.code === 'NOT_FOUND' && /not available on this platform/.test(e.message),
    );
  });

  it('refuses to start without a token, saying where to get one', async () => {
    const { load, calls } = fakeLibrary(async () => 'https://x.ngrok-free.app');
    const start = ngrokProvider(load).start({
      env: {},
      dataDir: '/nonexistent',
      projectId: 'p1',
      port: 4000,
      timeoutMs: 1000,
    });
    await assert.rejects(start, (e: MockdevError) => {
      assert.equal(e.code, 'NOT_FOUND');
      assert.match(e.message, /ngrok needs an auth token/);
      assert.match(String(e.hint), new RegExp(NGROK_TOKEN_PAGE.replace(/[./]/g, '\\$&')));
      return true;
    });
    assert.equal(calls.length, 0);
  });

  it('the holder forwards to 127.0.0.1:<port> with the token and writes the URL line', async () => {
    const { load, calls } = fakeLibrary(async () => 'https://abc.ngrok-free.app');
    const lines: string[] = [];
    assert.equal(await holdTunnel({ port: 4321, authtoken: 'tok', load, write: (l) => lines.push(l) }), true);
    assert.deepEqual(calls, [{ addr: '127.0.0.1:4321', authtoken: 'tok' }]);
    assert.deepEqual(lines, ['url=https://abc.ngrok-free.app']);
  });

  it('the holder says why the library failed (one line) and that the platform lacks it', async () => {
    const { load } = fakeLibrary(async () => {
      throw new Error('failed to connect session: failed to establish tcp connection\ncaused by …');
    });
    const lines: string[] = [];
    assert.equal(await holdTunnel({ port: 1, authtoken: 'tok', load, write: (l) => lines.push(l) }), false);
    assert.deepEqual(lines, [
      'ngrok could not open the tunnel: failed to connect session: failed to establish tcp connection',
    ]);
    const none: string[] = [];
    assert.equal(
      await holdTunnel({ port: 1, authtoken: 'tok', load: missing, write: (l) => none.push(l) }),
      false,
    );
    assert.match(none[0]!, /^ngrok is not available on this platform: /);
  });
});
