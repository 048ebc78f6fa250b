import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cloudflaredInstall, findCloudflared, findQuickTunnelUrl } from './cloudflared.js';
import { lastLines } from './provider.js';

const BANNER = `2024-09-03T10:00:00Z INF Thank you for trying Cloudflare Tunnel. … Cloudflare Online Services Terms of Use (https://www.cloudflare.com/website-terms/), … following: https://developers.cloudflare.com/cloudflare-one/connections/connect-apps
2024-09-03T10:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...
2024-09-03T10:00:01Z INF +--------------------------------------------------------------------------------------------+
2024-09-03T10:00:01Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |
2024-09-03T10:00:01Z INF |  https://Seasonal-Deck-organisms-sf.trycloudflare.com                                      |
2024-09-03T10:00:01Z INF +--------------------------------------------------------------------------------------------+
2024-09-03T10:00:02Z INF Registered tunnel connection connIndex=0 location=ams08 protocol=quic
`;

describe('cloudflared', () => {
  it("finds the quick tunnel's URL in the banner of its log, and nothing else", () => {
    assert.equal(findQuickTunnelUrl(BANNER), 'https://seasonal-deck-organisms-sf.trycloudflare.com');
    assert.equal(findQuickTunnelUrl(BANNER.split('\n').slice(0, 3).join('\n')), undefined);
    // The service's API named in an offline error, other hosts, and look-alikes are not a tunnel's URL.
    assert.equal(
      findQuickTunnelUrl(
        'ERR error="Post \\"https://api.trycloudflare.com/tunnel\\": dial tcp: no such host"',
      ),
      undefined,
    );
    assert.equal(findQuickTunnelUrl('https://a.trycloudflare.com.evil.example'), undefined);
    assert.equal(findQuickTunnelUrl('http://plain.trycloudflare.com'), undefined);
  });

  it('finds the program at MOCKDEV_CLOUDFLARED_PATH or on PATH, executable files only', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-cf-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cloudflared');
    writeFileSync(file, '#!/bin/sh\n');
    if (process.platform === 'win32') return t.skip('POSIX modes');
    chmodSync(file, 0o644);
    assert.equal(findCloudflared({ PATH: dir }), undefined);
    chmodSync(file, 0o755);
    assert.equal(findCloudflared({ PATH: `/nonexistent:${dir}` }), file);
    assert.equal(findCloudflared({ PATH: '', MOCKDEV_CLOUDFLARED_PATH: file }), file);
    assert.equal(findCloudflared({ PATH: dir, MOCKDEV_CLOUDFLARED_PATH: join(dir, 'nope') }), undefined);
  });

  it('says how to install it on each system: a package manager, and the download page', () => {
    assert.deepEqual(cloudflaredInstall('darwin').commands, ['brew install cloudflared']);
    assert.deepEqual(cloudflaredInstall('win32').commands, ['winget install --id Cloudflare.cloudflared']);
    assert.match(
      cloudflaredInstall('linux', 'arm64').commands[0]!,
      /cloudflared-linux-arm64\.deb && sudo dpkg -i/,
    );
    assert.match(cloudflaredInstall('linux').page, /^https:\/\/developers\.cloudflare\.com\//);
  });

  it('quotes the last few lines of output in one line', () => {
    assert.equal(lastLines('a\n\nb\r\nc\nd\ne\n'), 'b | c | d | e');
    assert.equal(lastLines(''), '');
  });
});
