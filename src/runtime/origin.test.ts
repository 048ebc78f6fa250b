import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostAllowed, isLoopbackHost, originAllowed } from './origin.js';

describe('origin checks', () => {
  it('lets requests without an Origin through, and browser requests only from localhost', () => {
    for (const o of [
      undefined,
      '',
      'http://localhost',
      'http://localhost:5173',
      'https://127.0.0.1:8443',
      'http://[::1]:3000',
      'http://app.localhost',
    ]) {
      assert.equal(originAllowed(o), true, String(o));
    }
    for (const o of [
      'http://evil.example',
      'null',
      'file://',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'chrome-extension://abc',
      'garbage',
    ]) {
      assert.equal(originAllowed(o), false, o);
    }
  });

  it('accepts only loopback Host headers on a loopback bind', () => {
    for (const h of [undefined, 'localhost:3100', '127.0.0.1:3100', '[::1]:3100', 'localhost'])
      assert.equal(hostAllowed(h), true, String(h));
    for (const h of ['attacker.test:3100', '192.168.1.5:3100', 'localhost.attacker.test'])
      assert.equal(hostAllowed(h), false, h);
  });

  it('knows which bind hosts are loopback', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '::', '192.168.1.5']) assert.equal(isLoopbackHost(h), false, h);
  });
});
