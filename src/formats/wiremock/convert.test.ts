import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { convert, messages } from '../../../test/helpers/wiremock.js';
import { convertWireMock, recognizeWireMock } from './index.js';

const get = (urlPath: string, extra: Record<string, unknown> = {}) => ({ method: 'GET', urlPath, ...extra });

describe('WireMock import: mappings sharing a method and a path', () => {
  it('become one endpoint: the one without conditions answers, the others are variations in priority order', () => {
    const r = convert([
      {
        name: 'admin',
        priority: 3,
        request: get('/me', { headers: { 'X-Role': { equalTo: 'admin' } } }),
        response: { status: 200, body: 'admin' },
      },
      { name: 'anyone', request: get('/me'), response: { status: 200, body: 'anyone' } },
      {
        name: 'vip',
        priority: 1,
        request: get('/me', { queryParameters: { vip: { equalTo: '1' } } }),
        response: { status: 200, body: 'vip' },
      },
    ]);
    assert.equal(r.endpoints.length, 1);
    const e = r.endpoints[0]!;
    assert.equal(e.name, 'anyone');
    assert.equal(e.body, 'anyone');
    assert.deepEqual(
      e.variations!.map((v) => [v.name, v.body, v.rules]),
      [
        ['vip', 'vip', [{ source: 'query', key: 'vip', op: 'equals', value: '1' }]],
        ['admin', 'admin', [{ source: 'header', key: 'X-Role', op: 'equals', value: 'admin' }]],
      ],
    );
    assert.equal(e.mode, undefined); // rules: the default mode
  });

  it('a mapping after one without conditions (by priority) is never answered: skipped', () => {
    const r = convert([
      { name: 'catch', priority: 1, request: get('/x'), response: { body: 'catch' } },
      {
        name: 'late',
        priority: 2,
        request: get('/x', { queryParameters: { a: { equalTo: '1' } } }),
        response: { body: 'late' },
      },
    ]);
    assert.equal(r.endpoints[0]!.variations, undefined);
    assert.deepEqual(
      r.skipped.map((n) => n.name),
      ['late'],
    );
    assert.match(messages(r.skipped), /never answered/);
  });

  it('when every mapping has conditions the endpoint answers WireMock\'s 404 "Request was not matched"', () => {
    const r = convert([
      { request: get('/only', { headers: { A: { equalTo: '1' } } }), response: { body: 'a' } },
    ]);
    const e = r.endpoints[0]!;
    assert.equal(e.status, 404);
    assert.equal(e.body, 'Request was not matched');
    assert.equal(e.variations!.length, 1);
  });

  it('names: the mapping name, else one made of method and path; unique across endpoints and variations', () => {
    const r = convert([
      { name: 'Users', request: get('/users'), response: {} },
      { name: 'Users', request: get('/people'), response: {} },
      { request: { method: 'DELETE', urlPathTemplate: '/users/{id}' }, response: { status: 204 } },
      { name: 'a/b', request: get('/v', { queryParameters: { q: { equalTo: '1' } } }), response: {} },
      { name: 'a/b', request: get('/v', { queryParameters: { q: { equalTo: '2' } } }), response: {} },
    ]);
    assert.deepEqual(
      r.endpoints.map((e) => e.name),
      ['Users', 'Users-2', 'delete-users-by-id', 'a-b'],
    );
    assert.deepEqual(
      r.endpoints[3]!.variations!.map((v) => v.name),
      ['a-b', 'a-b-2'],
    );
  });

  it('a proxy and a mock on the same method and path: the first by priority is kept, the other skipped', () => {
    const r = convert([
      { priority: 1, request: get('/p'), response: { proxyBaseUrl: 'http://up.example.com' } },
      { priority: 2, request: get('/p'), response: { body: 'x' } },
    ]);
    assert.equal(r.endpoints.length, 1);
    assert.equal(r.endpoints[0]!.kind, 'proxy');
    assert.equal(r.skipped.length, 1);
  });
});

describe('WireMock import: recognition and unreadable documents', () => {
  it('recognizes { mappings: [...] } and a single mapping; not a Postman item or a HAR', () => {
    assert.deepEqual(recognizeWireMock({ mappings: [] }), { looksLike: true });
    assert.deepEqual(recognizeWireMock({ request: { url: '/' }, response: { status: 200 } }), {
      looksLike: true,
    });
    assert.deepEqual(recognizeWireMock({ request: {}, response: [] }), { looksLike: false });
    assert.deepEqual(recognizeWireMock({ log: { entries: [] } }), { looksLike: false });
    assert.deepEqual(recognizeWireMock([1]), { looksLike: false });
  });

  it('says what is wrong with a document that looks like WireMock', () => {
    assert.deepEqual(recognizeWireMock({ mappings: {} }), {
      looksLike: true,
      problem: 'mappings is not a list',
    });
    assert.deepEqual(recognizeWireMock({ request: 'GET /', response: {} }), {
      looksLike: true,
      problem: 'request is not an object',
    });
    assert.deepEqual(recognizeWireMock({ request: { url: '/' } }), {
      looksLike: true,
      problem: 'response is missing or not an object',
    });
  });

  it('a single file that cannot be read as WireMock: INVALID_INPUT, one line naming the file and the field', () => {
    const bodyFile = () => undefined;
    assert.throws(
      () => convertWireMock({ mappings: [{ file: 'stubs.json', content: { mappings: 'nope' } }], bodyFile }),
      (e: unknown) =>
        e instanceof MockdevError &&
        e.code === 'INVALID_INPUT' &&
        e.message === 'Cannot import stubs.json as WireMock: mappings is not a list',
    );
  });

  it('in a folder, a file that is not a mapping is skipped and the others imported', () => {
    const r = convertWireMock({
      mappings: [
        { file: 'mappings/readme.json', content: { hello: 1 } },
        { file: 'mappings/ok.json', content: { request: get('/ok'), response: { body: 'ok' } } },
      ],
      bodyFile: () => undefined,
    });
    assert.equal(r.endpoints.length, 1);
    assert.equal(r.endpoints[0]!.name, 'get-ok');
    assert.deepEqual(r.skipped, [
      {
        name: 'mappings/readme.json',
        message: 'not a WireMock mapping (no request and response, no mappings list)',
      },
    ]);
  });

  it('a mapping that is not an object, or whose request is not one, is skipped', () => {
    const r = convert([7, { request: 'x', response: {} }]);
    assert.equal(r.endpoints.length, 0);
    assert.match(messages(r.skipped), /the mapping is not an object/);
    assert.match(messages(r.skipped), /request is not an object/);
  });
});

describe('WireMock import: a mapping mockdev cannot save', () => {
  it('is skipped naming the field, and the others are imported', () => {
    const r = convert([
      { name: 'spaced', request: { method: 'GET', urlPath: '/a b' }, response: {} },
      {
        name: 'bad header',
        request: { method: 'GET', urlPath: '/h' },
        response: { headers: { 'X-A': 'one\ntwo' } },
      },
      { name: 'fine', request: { method: 'GET', urlPath: '/fine' }, response: {} },
    ]);
    assert.deepEqual(
      r.endpoints.map((e) => e.name),
      ['fine'],
    );
    assert.deepEqual(
      r.skipped.map((n) => n.name),
      ['spaced', 'bad header'],
    );
    assert.match(r.skipped[0]!.message, /^path "\/a b": must not contain spaces/);
    assert.match(r.skipped[1]!.message, /^headers.X-A "one\\ntwo": must be one line/);
  });
});
