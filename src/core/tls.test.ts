import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from './errors.js';
import { daysLeft, holdsCertificate, leafSans, needsRenewal, parseSans, pemBodies, sanOf } from './tls.js';
import { LEAF_RENEW_DAYS } from './model/tls.js';

describe('leaf SANs', () => {
  it('always names localhost, 127.0.0.1 and ::1, then each host once, DNS or IP as fits', () => {
    assert.deepEqual(
      leafSans(['API.Local', '192.168.1.20', '[fe80::0:1]', 'localhost', '*.dev.test', '::1']),
      [
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'api.local' },
        { type: 'ip', value: '192.168.1.20' },
        { type: 'ip', value: 'fe80::1' },
        { type: 'dns', value: '*.dev.test' },
      ],
    );
  });

  it('refuses what is neither a host name nor an address (INVALID_ARGUMENT naming it)', () => {
    for (const bad of [
      '',
      'a b',
      'http://x',
      '-a.test',
      'a..b',
      'a.b/c',
      '10.0.0.256',
      '1.2.3',
      'x'.repeat(64),
      '1:2:3',
      'host_name',
    ])
      assert.throws(
        () => sanOf(bad),
        (e: unknown) =>
          e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && e.message.includes(`"${bad}"`),
        bad,
      );
  });

  it('takes names with digits as names, a trailing dot dropped', () => {
    assert.deepEqual(sanOf('10.0.0.1'), { type: 'ip', value: '10.0.0.1' });
    assert.deepEqual(sanOf('host-1.10x.test.'), { type: 'dns', value: 'host-1.10x.test' });
  });
});

describe('renewal', () => {
  it('is due within LEAF_RENEW_DAYS of the end and after it, not before', () => {
    assert.equal(needsRenewal({ daysLeft: LEAF_RENEW_DAYS + 1 }), false);
    assert.equal(needsRenewal({ daysLeft: LEAF_RENEW_DAYS }), true);
    assert.equal(needsRenewal({ daysLeft: 0 }), true);
    assert.equal(needsRenewal({ daysLeft: -3 }), true);
  });

  it('counts whole days left, negative once past', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(daysLeft(new Date('2030-01-31T12:00:00Z'), now), 30);
    assert.equal(daysLeft(new Date('2029-12-30T00:00:00Z'), now), -2);
  });
});

describe('certificate text', () => {
  it("reads node:crypto's SANs with IPv6 in the short form", () => {
    assert.deepEqual(
      parseSans('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:"a.test"'),
      ['localhost', '127.0.0.1', '::1', 'a.test'],
    );
    assert.deepEqual(parseSans(undefined), []);
  });

  it('finds a certificate in a bundle by its bytes, whatever the line breaks', () => {
    const one = '-----BEGIN CERTIFICATE-----\nQUJD\nREVG\n-----END CERTIFICATE-----\n';
    const other = '-----BEGIN CERTIFICATE-----\nWFla\n-----END CERTIFICATE-----\n';
    const bundle = `# a bundle\n${other}\r\n-----BEGIN CERTIFICATE-----\r\nQUJDREVG\r\n-----END CERTIFICATE-----\r\n`;
    assert.deepEqual(pemBodies(bundle), ['WFla', 'QUJDREVG']);
    assert.equal(holdsCertificate(bundle, one), true);
    assert.equal(holdsCertificate(other, one), false);
    assert.equal(holdsCertificate(bundle, 'not a pem'), false);
  });
});
