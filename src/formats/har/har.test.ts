import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { har, harEntry } from '../../../test/helpers/har.js';
import { MockdevError } from '../../core/errors.js';
import { EndpointInputSchema } from '../../core/model/endpoint.js';
import { convertHar, recognizeHar } from './index.js';

const API = 'https://api.example.com';
const json = (text: string, extra: { status?: number; headers?: [string, string][] } = {}) => ({
  text,
  mimeType: 'application/json',
  ...extra,
});

const throwsCode = (fn: () => unknown, code: string, message: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof MockdevError && e.code === code && message.test(e.message));

describe('HAR import: recognition', () => {
  it('knows a HAR, and one whose entries are not a list (naming the field)', () => {
    assert.deepEqual(recognizeHar(har([])), { looksLike: true });
    assert.deepEqual(recognizeHar({ log: { version: '1.2', entries: {} } }), {
      looksLike: true,
      problem: 'log.entries is not a list',
    });
    assert.deepEqual(recognizeHar({ info: { name: 'x' }, item: [] }), { looksLike: false });
    assert.deepEqual(recognizeHar({ log: 'text' }), { looksLike: false });
    assert.deepEqual(recognizeHar([1]), { looksLike: false });
    assert.deepEqual(recognizeHar(null), { looksLike: false });
  });

  it('a document that cannot be read is INVALID_INPUT in one line naming the field', () => {
    throwsCode(
      () => convertHar({ log: { entries: 'x' } }),
      'INVALID_INPUT',
      /^[^\n]*log\.entries is not a list$/,
    );
    throwsCode(() => convertHar({ openapi: '3.1.0' }), 'INVALID_INPUT', /no "log" object with "entries"/);
  });
});

describe('HAR import: answers', () => {
  it('keeps status, content type, body and headers less hop-by-hop, content-encoding and content-length; Set-Cookie kept', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/users/1`, {
          status: 201,
          text: '{"id":1}',
          headers: [
            ['content-type', 'application/json; charset=utf-8'],
            ['content-encoding', 'gzip'],
            ['content-length', '27'],
            ['connection', 'keep-alive'],
            ['transfer-encoding', 'chunked'],
            ['keep-alive', 'timeout=5'],
            ['set-cookie', 'sid=abc; Path=/; HttpOnly'],
            ['x-request-id', 'r-1'],
            ['vary', 'Accept'],
            ['vary', 'Origin'],
          ],
        }),
      ]),
    );
    assert.equal(out.endpoints.length, 1);
    const e = out.endpoints[0]!;
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/users/1');
    assert.equal(e.status, 201);
    assert.equal(e.contentType, 'application/json; charset=utf-8');
    assert.equal(e.body, '{"id":1}');
    assert.deepEqual(e.headers, {
      'set-cookie': 'sid=abc; Path=/; HttpOnly',
      'x-request-id': 'r-1',
      vary: 'Accept, Origin',
    });
    assert.equal(e.templating, false);
    assert.equal(out.templates, false);
    assert.deepEqual(out.approximate, []);
    assert.equal(out.title, 'api.example.com');
    assert.match(out.description!, /WebInspector/);
  });

  it('a second Set-Cookie is reported approximate (one value per header here)', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/login`, {
          text: '{}',
          headers: [
            ['set-cookie', 'a=1'],
            ['set-cookie', 'b=2; Path=/'],
          ],
        }),
      ]),
    );
    assert.deepEqual(out.endpoints[0]!.headers, { 'set-cookie': 'a=1' });
    assert.equal(out.approximate.length, 1);
    assert.match(out.approximate[0]!.message, /only the first Set-Cookie kept.*b=2 left out/);
    assert.equal(out.approximate[0]!.path, '/login');
  });

  it('decodes base64 bodies; a binary one or one the HAR lacks is approximate, answered empty', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]).toString('base64');
    const out = convertHar(
      har([
        harEntry('GET', `${API}/b64`, {
          text: Buffer.from('{"hé":"llo"}').toString('base64'),
          encoding: 'base64',
        }),
        harEntry('GET', `${API}/bin`, {
          text: png,
          encoding: 'base64',
          mimeType: 'application/octet-stream',
        }),
        harEntry('GET', `${API}/gone`, { size: 120 }),
      ]),
    );
    const [b64, bin, gone] = out.endpoints;
    assert.equal(b64!.body, '{"hé":"llo"}');
    assert.equal(bin!.body, '');
    assert.equal(gone!.body, '');
    assert.deepEqual(
      out.approximate.map((n) => [n.path, n.message.replace(/:.*/, '')]),
      [
        ['/bin', 'binary body of 6 bytes not kept (a body here is text)'],
        ['/gone', 'the HAR holds no body (120 bytes were sent)'],
      ],
    );
  });

  it('entries without a response (status 0, a 1xx upgrade), other schemes and methods are skipped', () => {
    const entries = [
      harEntry('GET', `${API}/ok`, json('{}')),
      harEntry('GET', `${API}/blocked`, { status: 0 }),
      harEntry('GET', `${API.replace('https', 'wss')}/socket`),
      harEntry('GET', `${API}/ws`, { status: 101, headers: [['upgrade', 'websocket']] }),
      harEntry('GET', 'data:application/json,{}'),
      harEntry('GET', 'data:text/plain,hi'),
      harEntry('PROPFIND', `${API}/dav`),
      { request: { method: 'GET' } },
      'junk',
    ];
    const out = convertHar(har(entries));
    assert.deepEqual(
      out.endpoints.map((e) => e.path),
      ['/ok'],
    );
    const messages = out.skipped.map((n) => n.message);
    assert.ok(
      messages.some((m) => /^log\.entries\[6\]: method "PROPFIND"/.test(m)),
      messages.join('\n'),
    );
    assert.ok(messages.includes('log.entries[7]: request.url is not text'));
    assert.ok(messages.includes('log.entries[8]: is not an object'));
    assert.ok(messages.includes('2 data: entries skipped: only http: and https: requests are answered'));
    assert.ok(messages.includes('1 wss: entry skipped: only http: and https: requests are answered'));
    assert.ok(out.skipped.some((n) => n.path === '/blocked' && /status 0/.test(n.message)));
    assert.ok(out.skipped.some((n) => n.path === '/ws' && /status 101 is an interim answer/.test(n.message)));
  });
});

describe('HAR import: one endpoint per method and path', () => {
  it('a variation per distinct answer, chosen by query rules; the same answer twice is one', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/items?page=2&sort=asc`, json('{"page":2}')),
        harEntry('GET', `${API}/items`, json('{"page":1}')),
        harEntry('GET', `${API}/items?page=3&sort=asc`, json('{"page":3}')),
        harEntry('GET', `${API}/items?page=3&sort=asc`, json('{"page":3}')),
        harEntry('GET', `${API}/items/`, json('{"page":1}')),
        harEntry('GET', `${API}/items?page=9`, json('{"error":"none"}', { status: 404 })),
        harEntry('POST', `${API}/items`, json('{"id":7}', { status: 201 })),
      ]),
    );
    assert.deepEqual(
      out.endpoints.map((e) => `${e.method} ${e.path} ${e.name}`),
      ['GET /items get-items', 'POST /items post-items'],
    );
    const get = out.endpoints[0]!;
    assert.equal(get.body, '{"page":1}', 'the answer recorded with the fewest query parameters');
    assert.deepEqual(
      get.variations!.map((v) => [v.name, v.status, v.body, v.rules]),
      [
        [
          'page=2&sort=asc',
          200,
          '{"page":2}',
          [
            { source: 'query', key: 'page', op: 'equals', value: '2' },
            { source: 'query', key: 'sort', op: 'equals', value: 'asc' },
          ],
        ],
        [
          'page=3&sort=asc',
          200,
          '{"page":3}',
          [
            { source: 'query', key: 'page', op: 'equals', value: '3' },
            { source: 'query', key: 'sort', op: 'equals', value: 'asc' },
          ],
        ],
        ['page=9', 404, '{"error":"none"}', [{ source: 'query', key: 'page', op: 'equals', value: '9' }]],
      ],
    );
    assert.ok(get.variations!.every((v) => v.templating === false && v.id));
    for (const e of out.endpoints) EndpointInputSchema.parse(e);
  });

  it('one answer for several query strings: a regex of the values; a parameter only some had says nothing', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/search`, json('[]')),
        harEntry('GET', `${API}/search?q=a&lang=en`, json('["x"]')),
        harEntry('GET', `${API}/search?q=b.c`, json('["x"]')),
      ]),
    );
    assert.deepEqual(out.endpoints[0]!.variations![0]!.rules, [
      { source: 'query', key: 'q', op: 'regex', value: '^(?:a|b\\.c)$' },
    ]);
    EndpointInputSchema.parse(out.endpoints[0]);
  });

  it('a parameter with more than 20 values gives no rule, reported approximate', () => {
    const entries = [harEntry('GET', `${API}/feed`, json('[]'))];
    for (let i = 0; i < 21; i++) entries.push(harEntry('GET', `${API}/feed?t=${i}&v=2`, json('["new"]')));
    const out = convertHar(har(entries));
    assert.deepEqual(out.endpoints[0]!.variations![0]!.rules, [
      { source: 'query', key: 'v', op: 'equals', value: '2' },
    ]);
    assert.deepEqual(
      out.approximate.map((n) => n.message),
      ['variation "t=0&v=2": query parameter "t" had 21 values: no rule on it'],
    );
  });

  it('more specific rules are checked first', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/r`, json('0')),
        harEntry('GET', `${API}/r?a=1`, json('1')),
        harEntry('GET', `${API}/r?a=1&b=2`, json('2')),
      ]),
    );
    assert.deepEqual(
      out.endpoints[0]!.variations!.map((v) => v.body),
      ['2', '1'],
    );
  });

  it('different answers to the same query (polling) are variations without rules, reported approximate', () => {
    const out = convertHar(
      har([
        harEntry('GET', `${API}/status`, json('{"state":"running"}')),
        harEntry('GET', `${API}/status`, json('{"state":"done"}')),
        harEntry('GET', `${API}/status`, json('{"state":"done"}')),
      ]),
    );
    const e = out.endpoints[0]!;
    assert.equal(e.body, '{"state":"running"}');
    assert.deepEqual(
      e.variations!.map((v) => [v.name, v.rules]),
      [['200', undefined]],
    );
    assert.equal(out.approximate.length, 1);
    assert.match(out.approximate[0]!.message, /1 answer\(s\) recorded for the same query string/);
  });

  it('paths the router would read as parameters or a wildcard are kept literal; names are unique', () => {
    const out = convertHar(
      har([
        harEntry('POST', `${API}/v1/users:batch`, json('{}')),
        harEntry('GET', `${API}/files/*`, json('{}')),
        harEntry('GET', `${API}/users/42`, json('{}')),
        harEntry('GET', `${API}/users/43`, json('{}')),
      ]),
    );
    assert.deepEqual(
      out.endpoints.map((e) => [e.path, e.name]),
      [
        ['/v1/users%3Abatch', 'post-users-batch'],
        ['/files/%2A', 'get-files'],
        ['/users/42', 'get-users-by-id'],
        ['/users/43', 'get-users-by-id-2'],
      ],
    );
    for (const e of out.endpoints) EndpointInputSchema.parse(e);
  });
});

describe('HAR import: hosts and static assets', () => {
  const page = [
    harEntry('GET', `${API}/a`, json('1')),
    harEntry('GET', `${API}/b`, json('2')),
    harEntry('GET', `${API}/c`, json('3')),
    harEntry('GET', 'https://cdn.example.net/x', json('4')),
    harEntry('GET', 'https://cdn.example.net/y', json('5')),
    harEntry('POST', 'https://telemetry.example.org:8443/t', json('6')),
    harEntry(
      'GET',
      'https://cdn.example.net/app.js',
      { text: 'x()', mimeType: 'application/javascript' },
      'script',
    ),
    harEntry('GET', `${API}/logo`, { text: 'iVBOR', encoding: 'base64', mimeType: 'image/png' }, 'image'),
    harEntry('GET', `${API}/style.css`, { text: 'a{}', mimeType: 'text/plain' }, 'other'),
    harEntry('GET', `${API}/font`, { text: 'AAAA', encoding: 'base64', mimeType: 'font/woff2' }, 'other'),
    harEntry('GET', `${API}/theme`, { text: 'a{}', mimeType: 'text/css' }, 'other'),
  ];

  it('takes the host with most entries; each other host is one note with its count; assets one note', () => {
    const out = convertHar(har(page));
    assert.deepEqual(
      out.endpoints.map((e) => e.path),
      ['/a', '/b', '/c'],
    );
    assert.deepEqual(out.skipped, [
      {
        name: 'cdn.example.net',
        message:
          '2 entries of host cdn.example.net skipped: one host is imported (--include-host cdn.example.net takes this one)',
      },
      {
        name: 'telemetry.example.org:8443',
        message:
          '1 entry of host telemetry.example.org:8443 skipped: one host is imported (--include-host telemetry.example.org:8443 takes this one)',
      },
      {
        message:
          '5 static asset(s) (images, scripts, styles, fonts) skipped, e.g. /app.js, /logo, /style.css: --all imports them',
      },
    ]);
  });

  it('--include-host takes another host (with or without its port); an unknown one is refused naming the hosts', () => {
    assert.deepEqual(
      convertHar(har(page), { includeHost: 'CDN.example.net' }).endpoints.map((e) => e.path),
      ['/x', '/y'],
    );
    const tele = convertHar(har(page), { includeHost: 'telemetry.example.org' });
    assert.deepEqual(
      tele.endpoints.map((e) => `${e.method} ${e.path}`),
      ['POST /t'],
    );
    assert.equal(tele.title, 'telemetry.example.org');
    throwsCode(
      () => convertHar(har(page), { includeHost: 'nope.test' }),
      'INVALID_ARGUMENT',
      /^No entry of the HAR is for host "nope\.test"; its hosts: api\.example\.com \(3\), cdn\.example\.net \(2\), telemetry\.example\.org:8443 \(1\)$/,
    );
  });

  it('--all imports static assets too', () => {
    const out = convertHar(har(page), { all: true });
    assert.deepEqual(
      out.endpoints.map((e) => e.path),
      ['/a', '/b', '/c', '/logo', '/style.css', '/font', '/theme'],
    );
    assert.equal(out.endpoints.find((e) => e.path === '/theme')!.contentType, 'text/css; charset=utf-8');
  });

  it('an empty HAR converts to nothing, without a title', () => {
    const out = convertHar(har([]));
    assert.deepEqual([out.endpoints, out.skipped, out.title], [[], [], undefined]);
  });
});
