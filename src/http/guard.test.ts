import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost } from '../core/binding.js';
import { MockdevError } from '../core/errors.js';
import {
  bearerAuth,
  createGuard,
  hostAllowed,
  isLoopbackOrigin,
  type GuardOptions,
  type Headers,
} from './guard.js';

const OWN = ['http://127.0.0.1:3200', 'http://localhost:3200'];

/** The code a guard refuses a request with, or 'pass'. */
function verdict(options: Partial<GuardOptions>, headers: Headers, path = '/x'): string {
  const guard = createGuard({ what: 'the test server', loopback: true, origins: () => OWN, ...options });
  try {
    guard({ host: '127.0.0.1:3200', ...headers }, path);
    return 'pass';
  } catch (e) {
    assert.ok(e instanceof MockdevError);
    return e.code;
  }
}

describe('the HTTP guard: Host, then Origin, then token', () => {
  it('on a loopback bind, passes only loopback Host headers', () => {
    for (const h of [undefined, 'localhost:3100', '127.0.0.1:3100', '[::1]:3100', 'localhost'])
      assert.equal(hostAllowed(h), true, String(h));
    for (const h of ['attacker.test:3100', '192.168.1.5:3100', 'localhost.attacker.test'])
      assert.equal(hostAllowed(h), false, h);
    assert.equal(verdict({}, { host: 'attacker.test:3200' }), 'FORBIDDEN_HOST');
    assert.equal(verdict({ loopback: false }, { host: 'attacker.test:3200' }), 'pass');
  });

  it('passes requests without an Origin and from its own origins; refuses others', () => {
    assert.equal(verdict({}, {}), 'pass');
    assert.equal(verdict({}, { origin: '' }), 'pass');
    assert.equal(verdict({}, { origin: 'http://127.0.0.1:3200' }), 'pass');
    assert.equal(verdict({}, { origin: 'http://localhost:3200/' }), 'pass', 'a trailing slash');
    // The origin of the Host the request came to is the server's own.
    assert.equal(
      verdict({ loopback: false }, { host: '192.168.1.5:3200', origin: 'http://192.168.1.5:3200' }),
      'pass',
    );
    for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:9999', 'http://localhost:5173'])
      assert.equal(verdict({}, { origin }), 'FORBIDDEN_ORIGIN', origin);
  });

  it('with loopbackOrigins, also passes any page of this machine, and nothing else', () => {
    const option = { loopbackOrigins: true };
    for (const origin of [
      'http://localhost',
      'http://localhost:5173',
      'https://127.0.0.1:8443',
      'http://[::1]:3000',
      'http://app.localhost',
    ]) {
      assert.equal(isLoopbackOrigin(origin), true, origin);
      assert.equal(verdict(option, { origin }), 'pass', origin);
    }
    for (const origin of [
      'http://evil.example',
      'null',
      'file://',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'chrome-extension://abc',
      'garbage',
    ]) {
      assert.equal(isLoopbackOrigin(origin), false, origin);
      assert.equal(verdict(option, { origin }), 'FORBIDDEN_ORIGIN', origin);
    }
  });

  it('checks Host before Origin, and Origin before the token', () => {
    const auth = bearerAuth('s3cret');
    assert.equal(verdict({ auth }, { host: 'evil.test', origin: 'http://evil.test' }), 'FORBIDDEN_HOST');
    assert.equal(verdict({ auth }, { origin: 'http://evil.test' }), 'FORBIDDEN_ORIGIN');
    assert.equal(verdict({ auth }, {}), 'UNAUTHORIZED');
  });

  it('with a token, passes only "Authorization: Bearer <token>" and the open paths, never quoting the token', () => {
    const auth = bearerAuth('s3cret');
    assert.equal(verdict({ auth }, { authorization: 'Bearer s3cret' }), 'pass');
    assert.equal(verdict({ auth }, { authorization: 'bearer  s3cret ' }), 'pass');
    assert.equal(verdict({ auth }, { authorization: 'Bearer s3cre' }), 'UNAUTHORIZED');
    assert.equal(verdict({ auth }, { authorization: 'Basic s3cret' }), 'UNAUTHORIZED');
    assert.equal(verdict({ auth, open: (p) => p === '/session' }, {}, '/session'), 'pass');
    assert.equal(verdict({ auth: bearerAuth(undefined) }, {}), 'pass', 'no token, no check');
    const guard = createGuard({ what: 'the test server', loopback: true, origins: () => OWN, auth });
    assert.throws(
      () => guard({ authorization: 'Bearer wrong-guess' }, '/x'),
      (e: MockdevError) =>
        /needs a token.*Authorization: Bearer <token>/.test(e.fullMessage) &&
        !/s3cret|wrong-guess/.test(e.fullMessage),
    );
  });

  it('knows which bind hosts are loopback', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '::', '192.168.1.5']) assert.equal(isLoopbackHost(h), false, h);
  });
});
