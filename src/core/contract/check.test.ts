import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compiledFixture, record } from '../../../test/helpers/contract.js';
import type { RequestRecord } from '../model/request.js';

/**
 * Every rule of the OpenAPI 3.0 fixture (test/fixtures/contract/petstore-rules.yaml): one
 * passing and one failing request per rule, each violation's location, rule and schema path.
 */

const contract = compiledFixture('petstore-rules.yaml', '3.0');
const JSON_H = { 'content-type': 'application/json' };
const RID = { 'X-Request-Id': '3f2b8c1e-8f5e-4c8a-9a0b-1c2d3e4f5a6b' };
const PETS = JSON.stringify([{ id: 1, name: 'rex', tag: null }]);

/** A passing GET /pets, with `over` laid on top. */
const listPets = (over: Parameters<typeof record>[0] = {}): RequestRecord =>
  record({
    method: 'GET',
    path: '/pets',
    headers: RID,
    ...over,
    response: { status: 200, headers: { ...JSON_H, 'X-Total-Count': '1' }, body: PETS, ...over.response },
  });

const found = (r: RequestRecord) =>
  contract.check(r).violations.map((v) => `${v.in} ${v.location} ${v.rule}`);
const passes = (r: RequestRecord) => {
  const result = contract.check(r);
  assert.deepEqual(result.violations, [], JSON.stringify(result.violations, null, 1));
  assert.equal(result.outcome, 'passed');
};
const one = (r: RequestRecord) => {
  const result = contract.check(r);
  assert.equal(result.outcome, 'failed');
  assert.equal(result.violations.length, 1, JSON.stringify(result.violations, null, 1));
  return result.violations[0]!;
};

describe('compileContract on OpenAPI 3.0', () => {
  it('lists the operations in document order with title and version', () => {
    assert.equal(contract.dialect, '3.0');
    assert.equal(contract.title, 'Petstore rules');
    assert.equal(contract.version, '1.2.0');
    assert.deepEqual(
      contract.operations.map((o) => o.operation),
      [
        'GET /pets',
        'POST /pets',
        'GET /pets/{petId}',
        'GET /pets/mine',
        'PUT /animals/{animalId}',
        'GET /files/{name}.{ext}',
        'GET /reports/{range}',
        'PATCH /settings',
        'GET /nodes/{id}',
      ],
    );
    assert.equal(contract.operations[0]!.operationId, 'listPets');
  });
});

describe('operation', () => {
  it('matches the path as written, after each server prefix (with a variable), and literal before templated', () => {
    passes(listPets());
    passes(listPets({ path: '/v1/pets' }));
    passes(listPets({ path: '/api/v2/pets' }));
    const mine = contract.check(record({ path: '/pets/mine', response: { headers: JSON_H, body: PETS } }));
    assert.equal(mine.operation, 'GET /pets/mine');
  });
  it('unknown-operation when no path, method or server variable value matches', () => {
    for (const r of [
      listPets({ path: '/nope' }),
      listPets({ method: 'DELETE' }),
      listPets({ path: '/api/v9/pets' }),
    ]) {
      const v = one(r);
      assert.equal(v.rule, 'unknown-operation');
      assert.equal(v.operation, null);
      assert.equal(v.schemaPath, '#/paths');
      assert.equal(contract.check(r).operation, null);
    }
  });
});

describe('parameters', () => {
  it('required: a path-level header parameter missing', () => {
    const v = one(listPets({ headers: {} }));
    assert.deepEqual(
      [v.location, v.rule, v.schemaPath],
      ['header.x-request-id', 'required', '#/paths/~1pets/parameters/0/required'],
    );
  });
  it('format (uuid) in a header, any case of its name', () => {
    passes(listPets({ headers: { 'x-request-id': RID['X-Request-Id'] } }));
    const v = one(listPets({ headers: { 'X-REQUEST-ID': 'nope' } }));
    assert.deepEqual(
      [v.location, v.rule, v.expected, v.actual],
      ['header.x-request-id', 'format', 'uuid', 'nope'],
    );
  });
  it('type, minimum and maximum of a query parameter, coerced from its string', () => {
    passes(listPets({ query: { limit: '100' } }));
    const v = one(listPets({ query: { limit: '500' } }));
    assert.deepEqual([v.location, v.rule, v.expected, v.actual], ['query.limit', 'maximum', 100, 500]);
    assert.equal(v.schemaPath, '#/paths/~1pets/get/parameters/0/schema/maximum');
    assert.equal(v.message, 'query.limit must be <= 100, got 500');
    assert.equal(one(listPets({ query: { limit: '0' } })).rule, 'minimum');
    const t = one(listPets({ query: { limit: 'ten' } }));
    assert.deepEqual([t.rule, t.expected, t.actual], ['type', 'integer', 'ten']);
  });
  it('enum', () => {
    passes(listPets({ query: { status: 'sold' } }));
    const v = one(listPets({ query: { status: 'gone' } }));
    assert.deepEqual([v.rule, v.expected], ['enum', ['available', 'pending', 'sold']]);
  });
  it('pattern, minLength, maxLength', () => {
    passes(listPets({ query: { name: 'rex' } }));
    assert.equal(one(listPets({ query: { name: 'Rex' } })).rule, 'pattern');
    assert.equal(one(listPets({ query: { name: 'r' } })).rule, 'minLength');
    assert.equal(one(listPets({ query: { name: 'r'.repeat(21) } })).rule, 'maxLength');
  });
  it('form arrays: comma-separated (explode false) and repeated keys (explode true), items and uniqueItems', () => {
    passes(listPets({ query: { tags: 'a,b,c', ids: ['1', '2'] } }));
    passes(listPets({ query: { ids: '7' } }));
    assert.equal(one(listPets({ query: { tags: 'a,b,c,d' } })).rule, 'maxItems');
    const t = one(listPets({ query: { ids: ['1', 'x'] } }));
    assert.deepEqual([t.location, t.rule], ['query.ids[1]', 'type']);
    assert.equal(one(listPets({ query: { ids: ['1', '1'] } })).rule, 'uniqueItems');
  });
  it('pipeDelimited arrays', () => {
    passes(listPets({ query: { sort: 'name|age' } }));
    const v = one(listPets({ query: { sort: 'name|size' } }));
    assert.deepEqual([v.location, v.rule], ['query.sort[1]', 'enum']);
    assert.equal(v.schemaPath, '#/paths/~1pets/get/parameters/5/schema/items/enum');
  });
  it('deepObject objects', () => {
    passes(listPets({ query: { 'filter[color]': 'red', 'filter[minAge]': '2' } }));
    const v = one(listPets({ query: { 'filter[minAge]': '-1' } }));
    assert.deepEqual([v.location, v.rule], ['query.filter.minAge', 'minimum']);
  });
  it('format (date) of a query parameter', () => {
    passes(listPets({ query: { since: '2024-02-29' } }));
    assert.equal(one(listPets({ query: { since: '2024-02-30' } })).rule, 'format');
  });
  it('cookie parameters', () => {
    passes(listPets({ headers: { ...RID, Cookie: 'a=b; session=abcdefgh' } }));
    const v = one(listPets({ headers: { ...RID, Cookie: 'session=abc' } }));
    assert.deepEqual([v.location, v.rule], ['cookie.session', 'minLength']);
  });
  it('path parameters: type and minimum', () => {
    const ok = record({ path: '/pets/12', response: { headers: JSON_H, body: '{"id":12,"name":"a"}' } });
    passes(ok);
    const v = one({ ...ok, path: '/pets/abc' });
    assert.deepEqual(
      [v.location, v.rule, v.schemaPath],
      ['path.petId', 'type', '#/paths/~1pets~1{petId}/get/parameters/0/schema/type'],
    );
    assert.equal(one({ ...ok, path: '/pets/0' }).rule, 'minimum');
  });
  it('several parameters in one segment', () => {
    const ok = record({
      path: '/files/notes.txt',
      response: { headers: { 'content-type': 'text/plain' }, body: 'hi' },
    });
    passes(ok);
    const v = one({ ...ok, path: '/files/notes.exe' });
    assert.deepEqual([v.location, v.rule], ['path.ext', 'enum']);
  });
  it('label style arrays in the path, simple style arrays in a header', () => {
    const ok = record({ path: '/reports/.1,2', response: { headers: JSON_H, body: '{"total":5}' } });
    passes(ok);
    assert.equal(one({ ...ok, path: '/reports/.1,2,3' }).rule, 'maxItems');
    const style = one({ ...ok, path: '/reports/1,2' });
    assert.deepEqual([style.location, style.rule], ['path.range', 'style']);
    passes({ ...ok, headers: { 'X-Tags': 'a, b' } });
    const h = one({ ...ok, headers: { 'X-Tags': 'a,toolong' } });
    assert.deepEqual([h.location, h.rule], ['header.x-tags[1]', 'maxLength']);
  });
});

const createPet = (body: string, type = 'application/json', status = 201, resBody = '{"id":1,"name":"a"}') =>
  record({
    method: 'POST',
    path: '/pets',
    headers: { ...RID, 'Content-Type': type },
    body,
    response: { status, headers: JSON_H, body: resBody },
  });

describe('request body', () => {
  it('required', () => {
    passes(createPet('{"name":"rex"}'));
    const v = one(createPet(''));
    assert.deepEqual(
      [v.in, v.location, v.rule, v.schemaPath],
      ['request', 'body', 'required', '#/paths/~1pets/post/requestBody/required'],
    );
  });
  it('media type declared, its parameters aside; none given', () => {
    passes(createPet('{"name":"rex"}', 'application/json; charset=utf-8'));
    const v = one(createPet('{"name":"rex"}', 'text/plain'));
    assert.deepEqual([v.location, v.rule, v.actual], ['header.content-type', 'media-type', 'text/plain']);
    assert.deepEqual(v.expected, ['application/json', 'application/x-www-form-urlencoded']);
    assert.equal(v.schemaPath, '#/paths/~1pets/post/requestBody/content');
    const none = one(
      record({
        method: 'POST',
        path: '/pets',
        headers: RID,
        body: '{}',
        response: { status: 201, headers: JSON_H, body: '{"id":1,"name":"a"}' },
      }),
    );
    assert.equal(none.rule, 'media-type');
  });
  it('a wildcard media type (application/*) takes any application type', () => {
    const patch = (type: string, body: string) =>
      record({
        method: 'PATCH',
        path: '/settings',
        headers: { 'content-type': type },
        body,
        response: { status: 204 },
      });
    passes(patch('application/json', '{"theme":"dark","fontSize":12}'));
    passes(patch('application/merge-patch+json', '{"theme":"dark"}'));
    assert.equal(one(patch('text/plain', 'x')).rule, 'media-type');
    const v = one(patch('application/json', '{"theme":"dark","colour":"red"}'));
    assert.deepEqual([v.location, v.rule, v.actual], ['body.colour', 'additionalProperties', 'colour']);
    assert.equal(one(patch('application/json', '{"fontSize":13}')).rule, 'multipleOf');
  });
  it('JSON against the schema: required, type, maxLength, nullable, boolean exclusiveMaximum', () => {
    passes(createPet('{"name":"rex","tag":null,"age":29}'));
    const req = one(createPet('{"tag":"x"}'));
    assert.deepEqual(
      [req.location, req.rule, req.schemaPath],
      ['body.name', 'required', '#/paths/~1pets/post/requestBody/content/application~1json/schema/required'],
    );
    assert.equal(one(createPet('{"name":5}')).rule, 'type');
    assert.equal(one(createPet(`{"name":"${'x'.repeat(51)}"}`)).rule, 'maxLength');
    const max = one(createPet('{"name":"rex","age":30}'));
    assert.deepEqual([max.location, max.rule, max.expected], ['body.age', 'maximum', 30]);
  });
  it('readOnly properties may not be sent in a request (and are not required there)', () => {
    const v = one(createPet('{"id":3,"name":"rex"}'));
    assert.deepEqual(
      [v.location, v.rule, v.schemaPath],
      [
        'body.id',
        'readOnly',
        '#/paths/~1pets/post/requestBody/content/application~1json/schema/properties/id/readOnly',
      ],
    );
    passes(createPet('{"name":"rex","secret":"s"}'));
  });
  it('not JSON', () => {
    const v = one(createPet('{"name":'));
    assert.deepEqual([v.location, v.rule], ['body', 'body']);
  });
  it('application/x-www-form-urlencoded against the schema, strings coerced', () => {
    const form = 'application/x-www-form-urlencoded';
    passes(createPet('name=rex&age=3', form));
    assert.equal(one(createPet('age=3', form)).rule, 'required');
    const v = one(createPet('name=rex&age=old', form));
    assert.deepEqual([v.location, v.rule], ['body.age', 'type']);
  });
  it('discriminator: the mapping and the component name pick the branch; an unknown value is named', () => {
    const put = (body: string) =>
      record({
        method: 'PUT',
        path: '/animals/3f2b8c1e-8f5e-4c8a-9a0b-1c2d3e4f5a6b',
        headers: JSON_H,
        body,
        response: { status: 200, headers: JSON_H, body },
      });
    passes(put('{"kind":"dog","barks":true}'));
    passes(put('{"kind":"Cat","lives":3}'));
    const branch = contract.check(put('{"kind":"Cat","lives":12}')).violations;
    assert.deepEqual(
      branch.map((v) => [v.in, v.location, v.rule]),
      [
        ['request', 'body.lives', 'maximum'],
        ['response', 'body.lives', 'maximum'],
      ],
    );
    assert.equal(
      branch[0]!.schemaPath,
      '#/paths/~1animals~1{animalId}/put/requestBody/content/application~1json/schema/oneOf/1/properties/lives/maximum',
    );
    const v = contract.check(put('{"kind":"bird"}')).violations[0]!;
    assert.deepEqual(
      [v.location, v.rule, v.expected, v.actual],
      ['body.kind', 'discriminator', ['dog', 'Cat'], 'bird'],
    );
    assert.match(v.schemaPath, /schema\/discriminator$/);
  });
});

describe('response', () => {
  it('status: exact, a range (4XX), default; undeclared', () => {
    passes(listPets({ response: { status: 500, headers: JSON_H, body: '{"code":1,"message":"x"}' } }));
    const put = (status: number, type = 'application/problem+json') =>
      record({
        method: 'PUT',
        path: '/animals/3f2b8c1e-8f5e-4c8a-9a0b-1c2d3e4f5a6b',
        headers: JSON_H,
        body: '{"kind":"dog","barks":true}',
        response: { status, headers: { 'content-type': type }, body: '{"code":4,"message":"no"}' },
      });
    passes(put(409));
    const v = one(put(500));
    assert.deepEqual([v.in, v.location, v.rule, v.actual], ['response', 'status', 'status', 500]);
    assert.deepEqual(v.expected, ['2XX', '4XX']);
    assert.equal(v.schemaPath, '#/paths/~1animals~1{animalId}/put/responses');
  });
  it('required headers, and their schema', () => {
    const missing = one(listPets({ response: { headers: JSON_H } }));
    assert.deepEqual(
      [missing.in, missing.location, missing.rule, missing.schemaPath],
      [
        'response',
        'header.x-total-count',
        'required',
        '#/paths/~1pets/get/responses/200/headers/X-Total-Count/required',
      ],
    );
    const bad = one(listPets({ response: { headers: { ...JSON_H, 'x-total-count': 'many' } } }));
    assert.deepEqual([bad.location, bad.rule], ['header.x-total-count', 'type']);
  });
  it('media type', () => {
    const v = one(listPets({ response: { headers: { 'Content-Type': 'text/html', 'X-Total-Count': '1' } } }));
    assert.deepEqual(
      [v.in, v.location, v.rule, v.actual],
      ['response', 'header.content-type', 'media-type', 'text/html'],
    );
  });
  it('JSON body: items, nullable, int64, date-time, writeOnly', () => {
    passes(listPets({ response: { body: '[{"id":1,"name":"a","tag":"x","born":"2024-01-01T10:00:00Z"}]' } }));
    const body = '[{"id":1,"name":"a"},{"id":"2","name":"b","secret":"s","born":"yesterday"}]';
    assert.deepEqual(found(listPets({ response: { body } })), [
      'response body[1].id type',
      'response body[1].secret writeOnly',
      'response body[1].born format',
    ]);
    const v = contract.check(listPets({ response: { body } })).violations[0]!;
    assert.equal(
      v.schemaPath,
      '#/paths/~1pets/get/responses/200/content/application~1json/schema/items/properties/id/type',
    );
    assert.equal(v.message, 'body[1].id must be integer, got "2"');
  });
  it('an empty body where JSON is declared; none needed for 204', () => {
    const v = one(listPets({ response: { body: '' } }));
    assert.deepEqual([v.location, v.rule], ['body', 'body']);
    passes(record({ method: 'PATCH', path: '/settings', response: { status: 204 } }));
  });
  it('text bodies against a string schema', () => {
    const file = (body: string) =>
      record({
        path: '/files/a.txt',
        response: { headers: { 'content-type': 'text/plain; charset=utf-8' }, body },
      });
    passes(file('hello'));
    assert.equal(one(file('x'.repeat(1001))).rule, 'maxLength');
  });
  it('recursive schemas are checked at every depth', () => {
    const tree = (leaf: unknown) =>
      record({
        path: '/nodes/root',
        response: {
          headers: JSON_H,
          body: JSON.stringify({ name: 'a', children: [{ name: 'b', children: [{ name: leaf }] }] }),
        },
      });
    passes(tree('c'));
    const v = one(tree(3));
    assert.deepEqual([v.location, v.rule], ['body.children[0].children[0].name', 'type']);
  });
});

describe('a truncated record', () => {
  it('is checked for everything but its bodies, and says why', () => {
    const r = { ...createPet('{"name":', 'application/json', 201, '{"id":'), truncated: true };
    const result = contract.check(r);
    assert.deepEqual(result.violations, []);
    assert.equal(result.outcome, 'passed');
    assert.match(result.notChecked ?? '', /cut short/);
    const failing = contract.check({ ...r, headers: { 'Content-Type': 'application/json' } });
    assert.deepEqual(
      failing.violations.map((v) => v.rule),
      ['required'],
    );
    assert.ok(failing.notChecked);
  });
});

describe('violations', () => {
  it('carry the request and operation, one line each, long values cut short', () => {
    const r = listPets({ query: { name: `A${'b'.repeat(300)}` } });
    const found = contract.check(r).violations;
    const pattern = found.find((v) => v.rule === 'pattern');
    const max = found.find((v) => v.rule === 'maxLength');
    assert.equal(pattern!.requestId, r.id);
    assert.equal(pattern!.method, 'GET');
    assert.equal(pattern!.path, '/pets');
    assert.equal(pattern!.operation, 'GET /pets');
    assert.equal(pattern!.in, 'request');
    assert.ok(String(pattern!.actual).length <= 201);
    for (const v of [pattern!, max!]) assert.ok(!v.message.includes('\n'));
  });
});
