import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, it } from 'node:test';
import { openableUrls } from './addresses.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;

const interfaces = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.168.1.20', 'IPv4'), nic('fe80::1', 'IPv6'), nic('2001:db8::5', 'IPv6')],
  wlan0: [nic('10.0.0.7', 'IPv4')],
};

describe('openableUrls', () => {
  it('a bind to one address is opened at that address, and nowhere else', () => {
    assert.deepEqual(openableUrls('http', '127.0.0.1', 3200, interfaces), {
      local: 'http://127.0.0.1:3200',
      others: [],
    });
    assert.deepEqual(openableUrls('https', '::1', 3200, interfaces).local, 'https://[::1]:3200');
  });

  it("0.0.0.0 is opened at 127.0.0.1 here and at the machine's IPv4 addresses from elsewhere", () => {
    assert.deepEqual(openableUrls('http', '0.0.0.0', 3200, interfaces), {
      local: 'http://127.0.0.1:3200',
      others: ['http://192.168.1.20:3200', 'http://10.0.0.7:3200'],
    });
  });

  it(':: adds the IPv6 addresses, link-local ones aside', () => {
    assert.deepEqual(openableUrls('http', '::', 80, interfaces).others, [
      'http://192.168.1.20:80',
      'http://[2001:db8::5]:80',
      'http://10.0.0.7:80',
    ]);
  });
});
