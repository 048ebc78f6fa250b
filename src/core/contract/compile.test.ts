import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { compiledFixture, record } from '../../../test/helpers/contract.js';
import { MockdevError } from '../errors.js';
import { compileContract } from './index.js';

/** Compiled once; schema conversions; matching details; patterns in linear time. */

const JSON_H = { 'content-type': 'application/json' };
const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
});
const getWith = (schema: unknown, parameters: unknown[] = []) => ({
  get: {
    parameters,
    responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
  },
});
const rules = (c: ReturnType<typeof compileContract>, path: string, body: string, query = {}) =>
  c
    .check(record({ path, query, response: { headers: JSON_H, body } }))
    .violations.map((v) => `${v.location} ${v.rule}`);

describe('compiled once', () => {
  it('check() never compiles a schema', () => {
    const c = compiledFixture('petstore-rules.yaml', '3.0');
    // Every ajv class (draft-04, 2020-12) compiles through the core class's method.
    const proto = Object.getPrototypeOf(Ajv.prototype) as typeof Ajv.prototype;
    const original = proto.compile;
    let compiles = 0;
    proto.compile = function (this: unknown, ...args: Parameters<typeof original>) {
      compiles++;
      return original.apply(this, args);
    } as typeof original;
    try {
      for (let i = 0; i < 50; i++) {
        c.check(record({ path: `/pets/${i}`, response: { headers: JSON_H, body: '{"id":"x"}' } }));
        c.check(record({ method: 'POST', path: '/pets', headers: JSON_H, body: '{"id":1}' }));
        c.check(record({ method: 'PUT', path: '/animals/a', headers: JSON_H, body: '{"kind":"Cat"}' }));
      }
      assert.equal(compiles, 0);
      compiledFixture('petstore-3.1.yaml', '3.1');
      assert.ok(compiles > 0, 'the spy sees compiles');
    } finally {
      proto.compile = original;
    }
  });
});

describe('schema conversion', () => {
  it('nullable without a type, and with an enum', () => {
    const c = compileContract(
      doc({
        '/a': getWith({
          type: 'object',
          properties: {
            any: { nullable: true, allOf: [{ type: 'string' }] },
            pick: { type: 'string', enum: ['x'], nullable: true },
          },
        }),
      }),
      '3.0',
    );
    assert.deepEqual(rules(c, '/a', '{"any":null,"pick":null}'), []);
    assert.deepEqual(rules(c, '/a', '{"any":"s","pick":"x"}'), []);
    assert.deepEqual(rules(c, '/a', '{"pick":"y"}'), ['body.pick enum']);
    assert.deepEqual(rules(c, '/a', '{"any":3}'), ['body.any anyOf']);
  });
  it('a numeric exclusiveMinimum in 3.0, a boolean one in 3.1', () => {
    const c30 = compileContract(doc({ '/a': getWith({ type: 'number', exclusiveMinimum: 5 }) }), '3.0');
    assert.deepEqual(rules(c30, '/a', '6'), []);
    assert.deepEqual(rules(c30, '/a', '5'), ['body minimum']);
    const c31 = compileContract(
      { ...doc({ '/a': getWith({ type: 'number', minimum: 5, exclusiveMinimum: true }) }), openapi: '3.1.0' },
      '3.1',
    );
    assert.deepEqual(rules(c31, '/a', '6'), []);
    assert.deepEqual(rules(c31, '/a', '5'), ['body minimum']);
  });
  it('object cycles (a recursive schema) and shared schemas', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      required: ['v'],
      properties: { v: { type: 'integer' } },
    };
    (node.properties as Record<string, unknown>).next = node;
    const c = compileContract(
      doc({ '/a': getWith(node), '/b': getWith({ type: 'array', items: node }) }),
      '3.0',
    );
    assert.deepEqual(rules(c, '/a', '{"v":1,"next":{"v":2,"next":{"v":3}}}'), []);
    assert.deepEqual(rules(c, '/a', '{"v":1,"next":{"v":2,"next":{"v":"x"}}}'), ['body.next.next.v type']);
    const [v] = c.check(
      record({ path: '/b', response: { headers: JSON_H, body: '[{"v":"x"}]' } }),
    ).violations;
    assert.equal(
      v!.schemaPath,
      '#/paths/~1b/get/responses/200/content/application~1json/schema/items/properties/v/type',
    );
  });
  it('a discriminator whose branches cannot be told apart stays a plain oneOf', () => {
    const a = { type: 'object', properties: { k: { type: 'string' } } };
    const c = compileContract(
      doc({
        '/a': getWith({
          oneOf: [a, { type: 'object', properties: { n: { type: 'integer' } } }],
          discriminator: { propertyName: 'k' },
        }),
      }),
      '3.0',
    );
    assert.deepEqual(rules(c, '/a', '{"k":"x","n":"y"}'), []);
    assert.deepEqual(rules(c, '/a', '{"k":"x","n":1}'), ['body oneOf']);
  });
  it('x- keys, examples and unknown formats are ignored', () => {
    const c = compileContract(
      doc({
        '/a': getWith({ type: 'string', format: 'made-up', example: 5, 'x-extra': { type: 'integer' } }),
      }),
      '3.0',
    );
    assert.deepEqual(rules(c, '/a', '"text"'), []);
  });
  it('a schema ajv cannot compile: INVALID_INPUT naming its place', () => {
    assert.throws(
      () => compileContract(doc({ '/a': getWith({ type: 'string', pattern: 5, minLength: 'x' }) }), '3.0'),
      (e: unknown) =>
        e instanceof MockdevError && e.code === 'INVALID_INPUT' && /#\/paths\/~1a\/get/.test(e.message),
    );
  });
});

describe('matching', () => {
  const c = compileContract(
    doc(
      {
        '/v1/{name}:cancel': { post: { responses: { '200': { description: 'ok' } } } },
        '/items': getWith({ type: 'array' }),
        '/ü/{id}': getWith({ type: 'object' }),
      },
      {
        servers: [
          {
            url: 'http://{host}:8080/base/{stage}',
            variables: { host: { default: 'x' }, stage: { default: 'a' } },
          },
        ],
      },
    ),
    '3.0',
  );
  const op = (method: string, path: string) =>
    c.check(record({ method, path, response: { headers: JSON_H, body: '[]' } })).operation;
  it('a colon in a template is literal text', () => {
    assert.equal(op('POST', '/v1/job-1:cancel'), 'POST /v1/{name}:cancel');
    assert.equal(op('POST', '/v1/job-1:stop'), null);
  });
  it('a server URL with variables in host and path', () => {
    assert.equal(op('GET', '/base/prod/items'), 'GET /items');
    assert.equal(op('GET', '/base/items'), null);
  });
  it('HEAD falls back to GET; other methods do not', () => {
    assert.equal(op('HEAD', '/items'), 'GET /items');
    assert.equal(op('DELETE', '/items'), null);
  });
  it('percent-encoded literal segments and a trailing slash', () => {
    assert.equal(op('GET', '/%C3%BC/7'), 'GET /ü/{id}');
    assert.equal(op('GET', '/items/'), 'GET /items');
  });
});

describe('patterns run in linear time', () => {
  it('a catastrophic pattern over a long query value answers at once', () => {
    const c = compileContract(
      doc({
        '/a': getWith({}, [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^(a+)+$' } }]),
      }),
      '3.0',
    );
    const started = Date.now();
    const v = c.check(
      record({ path: '/a', query: { q: `${'a'.repeat(5000)}!` }, response: { headers: JSON_H, body: '{}' } }),
    );
    assert.deepEqual(
      v.violations.map((x) => x.rule),
      ['pattern'],
    );
    // A backtracking engine takes longer than the age of the universe on this; RE2's, microseconds.
    assert.ok(Date.now() - started < 5000);
  });
  it('a pattern the linear engine cannot run (lookahead) is not checked', () => {
    const c = compileContract(
      doc({ '/a': getWith({}, [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^(?=x)' } }]) }),
      '3.0',
    );
    assert.equal(
      c.check(record({ path: '/a', query: { q: 'y' }, response: { headers: JSON_H, body: '{}' } })).outcome,
      'passed',
    );
  });
});
