import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endToEndHeaders, forwardRequestHeaders, mockdevHops } from './headers.js';

describe('endToEndHeaders', () => {
  it('drops hop-by-hop headers, Proxy-* and those Connection names', () => {
    const raw = [
      'Connection',
      'keep-alive, X-Secret-Hop',
      'Keep-Alive',
      'timeout=5',
      'TE',
      'trailers',
      'Trailer',
      'Expires',
      'Transfer-Encoding',
      'chunked',
      'Upgrade',
      'h2c',
      'Proxy-Authorization',
      'Basic x',
      'Proxy-Foo',
      'bar',
      'X-Secret-Hop',
      '1',
      'Content-Type',
      'application/json',
      'Content-Encoding',
      'gzip',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ];
    assert.deepEqual(endToEndHeaders(raw), [
      'Content-Type',
      'application/json',
      'Content-Encoding',
      'gzip',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ]);
  });
});

describe('forwardRequestHeaders', () => {
  it('rewrites Host and adds X-Forwarded-*', () => {
    const out = forwardRequestHeaders(['Host', 'localhost:3001', 'Accept', '*/*', 'Connection', 'close'], {
      targetHost: 'api.example.com',
      clientAddress: '127.0.0.1',
      proto: 'http',
      httpVersion: '1.1',
    });
    assert.deepEqual(out, [
      'Accept',
      '*/*',
      'Host',
      'api.example.com',
      'X-Forwarded-For',
      '127.0.0.1',
      'X-Forwarded-Host',
      'localhost:3001',
      'X-Forwarded-Proto',
      'http',
      'Via',
      '1.1 mockdev',
    ]);
  });

  it('extends an earlier X-Forwarded-For and keeps earlier X-Forwarded-Host/-Proto', () => {
    const out = forwardRequestHeaders(
      ['Host', 'h', 'X-Forwarded-For', '10.0.0.1', 'X-Forwarded-Host', 'orig', 'X-Forwarded-Proto', 'https'],
      { targetHost: 't:8080', clientAddress: '127.0.0.1', proto: 'http', httpVersion: '1.1' },
    );
    assert.deepEqual(out, [
      'X-Forwarded-Host',
      'orig',
      'X-Forwarded-Proto',
      'https',
      'Host',
      't:8080',
      'X-Forwarded-For',
      '10.0.0.1, 127.0.0.1',
      'Via',
      '1.1 mockdev',
    ]);
  });

  it("adds mockdev's Via entry after earlier ones; mockdevHops counts them", () => {
    const raw = ['Host', 'h', 'Via', '1.0 fred, 1.1 mockdev', 'via', '1.1 mockdev (a comment)'];
    assert.equal(mockdevHops(raw), 2);
    const out = forwardRequestHeaders(raw, {
      targetHost: 't',
      clientAddress: undefined,
      proto: 'http',
      httpVersion: '1.0',
    });
    assert.deepEqual(out.slice(-2), ['Via', '1.0 fred, 1.1 mockdev, 1.1 mockdev (a comment), 1.0 mockdev']);
    assert.equal(mockdevHops(out), 3);
    assert.equal(mockdevHops(['Via', '1.1 example.com', 'X-Via', '1.1 mockdev']), 0);
  });
});
