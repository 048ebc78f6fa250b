import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compiledFixture, record } from '../../../test/helpers/contract.js';
import type { CompiledContract } from './index.js';
import type { RequestRecord } from '../model/request.js';

/** OpenAPI 3.1 (JSON Schema 2020-12) and Swagger 2.0: the fixtures of test/fixtures/contract. */

const JSON_H = { 'content-type': 'application/json' };
const rules = (c: CompiledContract, r: RequestRecord) =>
  c.check(r).violations.map((v) => `${v.location} ${v.rule}`);

describe('OpenAPI 3.1', () => {
  const c = compiledFixture('petstore-3.1.yaml', '3.1');
  const pets = (query: Record<string, string>, body = '[{"id":1,"name":"a","kind":"dog","tag":null}]') =>
    record({ path: '/v3/pets', query, response: { headers: JSON_H, body } });

  it('reads title, version and dialect; matches after the server path and without it', () => {
    assert.deepEqual([c.dialect, c.title, c.version], ['3.1', 'Petstore 3.1', '2.0.0']);
    assert.deepEqual(rules(c, pets({})), []);
    assert.deepEqual(rules(c, { ...pets({}), path: '/pets' }), []);
  });
  it('numeric exclusiveMinimum, an enum without a type', () => {
    assert.deepEqual(rules(c, pets({ limit: '1', kind: 'cat' })), []);
    assert.deepEqual(rules(c, pets({ limit: '0' })), ['query.limit minimum']);
    assert.deepEqual(rules(c, pets({ kind: 'cow' })), ['query.kind enum']);
  });
  it('type lists with null', () => {
    assert.deepEqual(rules(c, pets({}, '[{"id":1,"name":"a","kind":"dog","tag":7}]')), ['body[0].tag type']);
  });
  it('readOnly in requests, writeOnly in responses, required headers with a pattern', () => {
    const post = (body: string, location = '/pets/1', resBody = '{"id":1,"name":"a","kind":"dog"}') =>
      record({
        method: 'POST',
        path: '/v3/pets',
        headers: JSON_H,
        body,
        response: { status: 201, headers: { ...JSON_H, Location: location }, body: resBody },
      });
    assert.deepEqual(rules(c, post('{"name":"a","kind":"dog","password":"p"}')), []);
    assert.deepEqual(rules(c, post('{"id":4,"name":"a","kind":"dog"}')), ['body.id readOnly']);
    assert.deepEqual(rules(c, post('{"name":"a","kind":"dog"}', '/cats/1')), ['header.location pattern']);
    assert.deepEqual(
      rules(c, post('{"name":"a","kind":"dog"}', '/pets/1', '{"id":1,"name":"a","kind":"d","password":"p"}')),
      ['body.password writeOnly'],
    );
    assert.deepEqual(rules(c, post('{"name":"","kind":"dog","weight":0}')), [
      'body.name minLength',
      'body.weight minimum',
    ]);
  });
  it('const in a default response, prefixItems with items: false', () => {
    const pet = (status: number, body: string) =>
      record({ path: '/pets/1', response: { status, headers: JSON_H, body } });
    assert.deepEqual(rules(c, pet(500, '{"error":true}')), []);
    assert.deepEqual(rules(c, pet(500, '{"error":false}')), ['body.error const']);
    const point = (body: string) =>
      record({ method: 'POST', path: '/points', headers: JSON_H, body, response: { status: 204 } });
    assert.deepEqual(rules(c, point('[1,2]')), []);
    assert.deepEqual(rules(c, point('[1,"2"]')), ['body[1] type']);
    assert.deepEqual(rules(c, point('[1,2,3]')), ['body[2] schema']);
    assert.match(c.check(point('[1,2,3]')).violations[0]!.message, /^body\[2\] is not allowed here/);
  });
  it('schema paths through the operation', () => {
    const v = c.check(pets({ limit: '0' })).violations[0]!;
    assert.equal(v.schemaPath, '#/paths/~1pets/get/parameters/0/schema/exclusiveMinimum');
  });
});

describe('Swagger 2.0', () => {
  const c = compiledFixture('swagger-2.0.yaml', '2.0');
  const KEY = { 'X-Api-Key': 'k' };
  const pets = (query: Record<string, string | string[]>, over: Partial<RequestRecord['response']> = {}) =>
    record({
      path: '/v2/pets',
      headers: KEY,
      query,
      response: {
        headers: { ...JSON_H, 'X-Rate-Limit': '5' },
        body: '[{"id":1,"name":"a","tag":null}]',
        ...over,
      },
    });

  it('reads the document; matches after the basePath and without it', () => {
    assert.deepEqual([c.dialect, c.title, c.version], ['2.0', 'Petstore 2.0', '1.0.0']);
    assert.deepEqual(
      c.operations.map((o) => o.operation),
      ['GET /pets', 'POST /pets', 'POST /pets/{petId}/photo'],
    );
    assert.deepEqual(rules(c, pets({})), []);
    assert.deepEqual(rules(c, { ...pets({}), path: '/pets' }), []);
  });
  it('collectionFormat csv and multi, inline parameter types, required headers', () => {
    assert.deepEqual(rules(c, pets({ tags: 'a,b', ids: ['1', '2'], limit: '3' })), []);
    assert.deepEqual(rules(c, pets({ tags: 'a,b,c,d' })), ['query.tags maxItems']);
    assert.deepEqual(rules(c, pets({ ids: ['1', 'x'] })), ['query.ids[1] type']);
    assert.deepEqual(rules(c, pets({ limit: '101' })), ['query.limit maximum']);
    assert.deepEqual(rules(c, { ...pets({}), headers: {} }), ['header.x-api-key required']);
    const v = c.check(pets({ limit: '101' })).violations[0]!;
    assert.equal(v.schemaPath, '#/paths/~1pets/get/parameters/2/maximum');
  });
  it('x-nullable, response headers, produces', () => {
    assert.deepEqual(rules(c, pets({}, { body: '[{"id":1,"name":"a","tag":5}]' })), ['body[0].tag type']);
    assert.deepEqual(rules(c, pets({}, { headers: { ...JSON_H, 'X-Rate-Limit': '-1' } })), [
      'header.x-rate-limit minimum',
    ]);
    assert.deepEqual(rules(c, pets({}, { headers: { 'content-type': 'text/html', 'X-Rate-Limit': '1' } })), [
      'header.content-type media-type',
    ]);
  });
  it('in: body with consumes; readOnly not sent', () => {
    const post = (body: string, type = 'application/json') =>
      record({
        method: 'POST',
        path: '/v2/pets',
        headers: { 'content-type': type },
        body,
        response: { status: 201, headers: JSON_H, body: '{"id":1,"name":"a"}' },
      });
    assert.deepEqual(rules(c, post('{"name":"a"}')), []);
    assert.deepEqual(rules(c, post('')), ['body required']);
    assert.deepEqual(rules(c, post('{"name":1}')), ['body.name type']);
    assert.deepEqual(rules(c, post('{"id":1,"name":"a"}')), ['body.id readOnly']);
    assert.deepEqual(rules(c, post('name=a', 'application/x-www-form-urlencoded')), [
      'header.content-type media-type',
    ]);
  });
  it('formData as a form body, each field pointing at its parameter', () => {
    const upload = (body: string) =>
      record({
        method: 'POST',
        path: '/v2/pets/3/photo',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        response: { headers: { 'content-type': 'text/plain' }, body: 'ok' },
      });
    assert.deepEqual(rules(c, upload('caption=hi&rating=5')), []);
    assert.deepEqual(rules(c, upload('rating=5')), ['body.caption required']);
    const v = c.check(upload('caption=hi&rating=9')).violations;
    assert.deepEqual(
      v.map((x) => [x.location, x.rule, x.schemaPath]),
      [['body.rating', 'maximum', '#/paths/~1pets~1{petId}~1photo/post/parameters/2/maximum']],
    );
    assert.deepEqual(rules(c, { ...upload('caption=hi'), path: '/v2/pets/x/photo' }), ['path.petId type']);
  });
});
