import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress } from './client-address.js';

describe('clientAddress', () => {
  it('is the socket address of a caller from elsewhere, whatever headers it sends', () => {
    assert.equal(
      clientAddress('203.0.113.9', ['X-Forwarded-For', '1.1.1.1', 'CF-Connecting-IP', '2.2.2.2']),
      '203.0.113.9',
    );
    assert.equal(clientAddress('::ffff:203.0.113.9', []), '203.0.113.9');
    assert.equal(clientAddress('2001:db8::1', []), '2001:db8::1');
    assert.equal(clientAddress(undefined, []), undefined);
  });

  it('from a loopback connection: CF-Connecting-IP, else the first X-Forwarded-For entry, else the loopback', () => {
    const both = ['X-Forwarded-For', ' 198.51.100.7 , 10.0.0.1', 'cf-connecting-ip', '192.0.2.4'];
    assert.equal(clientAddress('127.0.0.1', both), '192.0.2.4');
    assert.equal(clientAddress('::1', ['x-forwarded-for', '198.51.100.7, 10.0.0.1']), '198.51.100.7');
    assert.equal(clientAddress('::ffff:127.0.0.1', ['X-Forwarded-For', '198.51.100.7']), '198.51.100.7');
    assert.equal(
      clientAddress('127.0.0.1', ['CF-Connecting-IP', '  ', 'X-Forwarded-For', ', x']),
      '127.0.0.1',
    );
    assert.equal(clientAddress('127.0.0.1', ['Host', 'localhost']), '127.0.0.1');
    assert.equal(clientAddress('::1', []), '::1');
  });
});
