import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { postmanUrl, savedExample, shopCollection } from '../../../test/helpers/postman.js';
import { convertPostman, recognizePostman } from './index.js';

const SCHEMA_20 = 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json';
const SCHEMA_21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const collection = (item: unknown[], extra: Record<string, unknown> = {}) => ({
  info: { name: 'C', schema: SCHEMA_21 },
  item,
  ...extra,
});
const example = (name: string, code: number, body: string, more: Parameters<typeof savedExample>[4] = {}) =>
  savedExample(name, code, 'application/json', body, more);
const request = (name: string, method: string, url: unknown, response: unknown[] = []) => ({
  name,
  request: { method, header: [], url },
  response,
});
const messages = (notes: { message: string }[]) => notes.map((n) => n.message);

describe('Postman collections: recognition', () => {
  it('knows a v2.1 and a v2.0 collection, and one with only a _postman_id', () => {
    assert.deepEqual(recognizePostman(shopCollection()), { looksLike: true });
    assert.deepEqual(recognizePostman({ info: { name: 'x', schema: SCHEMA_20 }, item: [] }), {
      looksLike: true,
    });
    assert.deepEqual(recognizePostman({ info: { _postman_id: 'a', name: 'x' }, item: [] }), {
      looksLike: true,
    });
  });

  it('looks like Postman but is refused: v1 collections, environments, an item that is not a list', () => {
    const v1 = recognizePostman({ id: 'a', name: 'old', order: [], folders: [], requests: [] });
    assert.equal(v1.looksLike, true);
    assert.match(v1.problem!, /collection v1.*Collection v2\.1/);
    const v1Schema = recognizePostman({
      info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v1.0.0/collection.json' },
      item: [],
    });
    assert.match(v1Schema.problem!, /^info\.schema is .*v1\.0\.0/);
    const env = recognizePostman({
      id: 'e',
      name: 'Dev',
      values: [],
      _postman_variable_scope: 'environment',
    });
    assert.equal(env.looksLike, true);
    assert.match(env.problem!, /Postman environment/);
    assert.deepEqual(recognizePostman({ info: { name: 'x', schema: SCHEMA_21 }, item: {} }), {
      looksLike: true,
      problem: 'item is not a list',
    });
  });

  it('does not take other documents', () => {
    for (const doc of [
      null,
      'text',
      [],
      { log: { entries: [] } },
      { openapi: '3.0.0', info: { title: 'x' } },
      { routes: [] },
    ])
      assert.equal(recognizePostman(doc).looksLike, false, JSON.stringify(doc));
  });

  it('refuses a document it cannot read with INVALID_INPUT, one line naming the field', () => {
    const refused = (doc: unknown) => {
      try {
        convertPostman(doc);
      } catch (e) {
        assert.ok(e instanceof MockdevError);
        assert.equal(e.code, 'INVALID_INPUT');
        assert.doesNotMatch(e.message, /\n/);
        return e.message;
      }
      assert.fail('not refused');
    };
    assert.match(refused({ info: { name: 'x', schema: SCHEMA_21 }, item: 'x' }), /item is not a list/);
    assert.match(refused({ swagger: '2.0' }), /Not a Postman collection: expected info\.schema/);
  });
});

describe('Postman collections: conversion', () => {
  it('makes an endpoint per request: folders prefix names, examples answer, the others are variations with rules', () => {
    const out = convertPostman(shopCollection());
    assert.equal(out.format, 'postman');
    assert.equal(out.title, 'Shop API');
    assert.equal(out.description, 'Users and orders of the shop');
    assert.equal(out.templates, false);
    assert.deepEqual(out.resources, []);
    assert.deepEqual(
      out.endpoints.map((e) => [e.name, e.method, e.path]),
      [
        ['Users > Get user', 'GET', '/users/{id}'],
        ['Users > Admin > List users', 'GET', '/users'],
        ['Create order', 'POST', '/orders'],
        ['Health', 'GET', '/health'],
        ['Item', 'GET', '/{version}/items/{itemId}'],
      ],
    );
    const [user, list, order, health, item] = out.endpoints;
    // Content-Length and Connection are not kept; Content-Type is the content type.
    assert.deepEqual(
      [user!.status, user!.headers, user!.contentType, JSON.parse(user!.body!)],
      [200, { 'X-Request-Id': 'req-1' }, 'application/json; charset=utf-8', { id: 1, name: 'Ada' }],
    );
    assert.deepEqual(
      user!.variations!.map((v) => [v.name, v.status, v.body, v.rules]),
      [
        [
          'Not found',
          404,
          '{"error":"no user {{id}}"}',
          [{ source: 'param', key: 'id', op: 'equals', value: '999' }],
        ],
      ],
    );
    assert.deepEqual(
      list!.variations!.map((v) => [v.name, v.contentType, v.rules]),
      [
        ['Second page', 'application/json', [{ source: 'query', key: 'page', op: 'equals', value: '2' }]],
        ['As CSV', 'text/csv', [{ source: 'header', key: 'accept', op: 'equals', value: 'text/csv' }]],
      ],
    );
    assert.deepEqual(
      [order!.status, order!.headers, order!.variations],
      [201, { Location: '/orders/7' }, undefined],
    );
    assert.deepEqual([health!.status, health!.contentType, health!.body], [200, 'application/json', '{}']);
    assert.deepEqual([item!.contentType, item!.body], ['text/plain', 'item']);
    assert.deepEqual(out.approximate, [
      {
        method: 'GET',
        path: '/health',
        name: 'Health',
        message: 'no saved example response: it answers 200 {}',
      },
    ]);
    assert.deepEqual(messages(out.skipped), ['1 pre-request or test script: a mock runs none']);
    assert.deepEqual(out.variables, [
      { name: 'baseUrl', value: 'https://api.example.com' },
      { name: 'version', value: 'v2' },
    ]);
  });

  it('reads v2.0: URLs as text, host as text, headers as lines, variables by id (secret ones said so)', () => {
    const out = convertPostman({
      info: { name: 'Old', schema: SCHEMA_20, description: { content: 'From v2.0', type: 'text/plain' } },
      item: [
        {
          name: 'Search',
          request: {
            method: 'get',
            header: 'Accept: application/json\n',
            url: 'http://{{host}}:8080/api/search?q=x#top',
          },
          response: [
            {
              name: 'Hits',
              code: 200,
              header: 'Content-Type: application/json\nX-Total: 3\n',
              body: '[1,2,3]',
            },
            {
              name: 'Nothing',
              code: 200,
              originalRequest: { method: 'GET', url: 'http://{{host}}:8080/api/search?q=zzz' },
              header: 'Content-Type: application/json\nX-Total: 0',
              body: '[]',
            },
          ],
        },
        { name: 'Users', request: { url: { host: '{{host}}', path: 'api/users/:userId' } } },
      ],
      variable: [
        { id: 'host', value: 'localhost', type: 'string' },
        { id: 'off', value: 'x', disabled: true },
        { key: 'apiKey', value: 's3cr3t', type: 'secret' },
        { key: 'retries', value: 3 },
      ],
    });
    assert.equal(out.description, 'From v2.0');
    const [search, users] = out.endpoints;
    assert.deepEqual(
      [search!.method, search!.path, search!.headers],
      ['GET', '/api/search', { 'X-Total': '3' }],
    );
    assert.deepEqual(search!.variations![0]!.rules, [
      { source: 'query', key: 'q', op: 'equals', value: 'zzz' },
    ]);
    assert.deepEqual([users!.method, users!.path], ['GET', '/api/users/{userId}']);
    assert.deepEqual(out.variables, [
      { name: 'host', value: 'localhost' },
      { name: 'apiKey', value: 's3cr3t', secret: true },
      { name: 'retries', value: '3' },
    ]);
  });

  it('puts a second request with the same method and path into the first as variations', () => {
    const out = convertPostman(
      collection([
        request('A', 'GET', postmanUrl('users/:id'), [example('one', 200, '{"a":1}')]),
        request('B', 'GET', postmanUrl('users/{{userId}}'), [
          example('two', 410, '{"b":2}'),
          example('', 500, '{}'),
        ]),
        request('C', 'GET', postmanUrl('users/:uid')),
      ]),
    );
    assert.equal(out.endpoints.length, 1);
    assert.deepEqual(
      out.endpoints[0]!.variations!.map((v) => [v.name, v.status]),
      [
        ['two', 410],
        ['B', 500],
      ],
    );
    assert.deepEqual(out.skipped, [
      {
        method: 'GET',
        path: '/users/{uid}',
        name: 'C',
        message: 'same method and path as "A", and no saved example to add to it',
      },
    ]);
  });

  it('says what it could not keep: methods, paths, headers, statuses, a header the variation inherits', () => {
    const out = convertPostman(
      collection([
        request('Props', 'PROPFIND', postmanUrl('dav')),
        request('Twice', 'GET', '{{baseUrl}}/{{a}}/x/{{a}}'),
        request('Odd', 'GET', postmanUrl('odd'), [
          example('ok', 200, '{}', {
            header: [
              { key: 'Bad Name', value: 'x' },
              { key: 'Set-Cookie', value: 'a=1' },
              { key: 'Set-Cookie', value: 'b=2' },
              { key: 'Vary', value: 'Accept' },
              { key: 'Vary', value: 'Origin' },
              { key: 'X-Off', value: 'no', disabled: true },
            ],
          }),
          savedExample('weird', 0, undefined, 'plain words'),
        ]),
      ]),
    );
    assert.deepEqual(
      out.skipped.map((n) => [n.name, n.message]),
      [
        [
          'Props',
          'method PROPFIND is not one a mock serves here (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE)',
        ],
        ['Twice', 'path /{a}/x/{a} uses the parameter "a" twice; give each parameter its own name'],
      ],
    );
    const odd = out.endpoints[0]!;
    assert.deepEqual(odd.headers, { 'Set-Cookie': 'a=1', Vary: 'Accept, Origin' });
    const weird = odd.variations![0]!;
    assert.deepEqual([weird.status, weird.contentType, weird.body], [200, 'text/plain', 'plain words']);
    assert.deepEqual(messages(out.approximate), [
      'its first example: header "Bad Name" is left out: not a name or value HTTP can carry',
      'its first example: only the first Set-Cookie header is kept (a response here sends one value per header)',
      'example "weird": its status 0 is not a final HTTP status: it answers 200',
      'example "weird" also sends the first example\'s headers Set-Cookie, Vary (a variation sends the endpoint\'s headers under its own)',
    ]);
  });

  it('makes no rule from values naming variables, client headers or x-mock-* controls', () => {
    const base = {
      method: 'GET',
      header: [{ key: 'X-Tenant', value: 'a' }],
      url: postmanUrl('t', [['k', '1']]),
    };
    const out = convertPostman(
      collection([
        request('T', 'GET', postmanUrl('t'), [
          example('first', 200, '{}', { originalRequest: base }),
          example('second', 200, '{}', {
            originalRequest: {
              method: 'GET',
              header: [
                { key: 'X-Tenant', value: 'b' },
                { key: 'Authorization', value: 'Bearer {{token}}' },
                { key: 'x-mock-response-name', value: 'second' },
                { key: 'X-Var', value: '{{tenant}}' },
              ],
              url: postmanUrl('t', [
                ['k', '1'],
                ['q', 'a%20b'],
                ['v', '{{x}}'],
              ]),
            },
          }),
        ]),
      ]),
    );
    assert.deepEqual(out.endpoints[0]!.variations![0]!.rules, [
      { source: 'query', key: 'q', op: 'equals', value: 'a b' },
      { source: 'header', key: 'x-tenant', op: 'equals', value: 'b' },
    ]);
  });

  it('skips what is neither a request nor a folder; names without "/" (the endpoint rules), unnamed requests named from the route', () => {
    const out = convertPostman(
      collection([
        { name: 'Loose' },
        { name: 'A/B', item: [request('GET /users', 'GET', postmanUrl('users'))] },
        request('', 'DELETE', postmanUrl('users/:id')),
        { name: 'Empty', item: [request('', 'GET', postmanUrl('ping'))] },
      ]),
    );
    assert.deepEqual(out.skipped, [{ name: 'Loose', message: 'neither a request nor a folder' }]);
    assert.deepEqual(
      out.endpoints.map((e) => e.name),
      ['A-B > GET -users', 'delete-users-by-id', 'Empty > get-ping'],
    );
  });
});
