import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { bodyFromExample, convertOpenApi, primaryResponseKey, statusFromKey } from './import.js';
import { sampleFromSchema } from './sample.js';

describe('sampleFromSchema', () => {
  it('honours type, format, enum, const, default and example', () => {
    assert.deepEqual(
      sampleFromSchema({
        type: 'object',
        properties: {
          s: { type: 'string' },
          d: { type: 'string', format: 'date-time' },
          e: { type: 'string', format: 'email' },
          u: { type: 'string', format: 'uuid' },
          i: { type: 'integer', minimum: 5 },
          n: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
          b: { type: 'boolean' },
          en: { enum: ['x', 'y'] },
          c: { const: 7 },
          df: { type: 'integer', default: 3 },
          ex: { type: 'string', example: 'hi' },
          min: { type: 'string', minLength: 10 },
        },
      }),
      {
        s: 'string',
        d: '2024-01-01T00:00:00Z',
        e: 'user@example.com',
        u: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
        i: 5,
        n: 0.5,
        b: true,
        en: 'x',
        c: 7,
        df: 3,
        ex: 'hi',
        min: 'stringstring',
      },
    );
  });

  it('handles arrays, allOf, oneOf, anyOf, nullable and 3.1 type arrays', () => {
    assert.deepEqual(sampleFromSchema({ type: 'array', items: { type: 'integer' }, minItems: 2 }), [0, 0]);
    assert.deepEqual(
      sampleFromSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { properties: { b: { type: 'integer' } } },
        ],
      }),
      { a: 'string', b: 0 },
    );
    assert.equal(
      sampleFromSchema({ oneOf: [{ type: 'null' }, { type: 'string', format: 'date' }] }),
      '2024-01-01',
    );
    assert.equal(sampleFromSchema({ anyOf: [{ type: 'integer' }, { type: 'string' }] }), 0);
    assert.equal(sampleFromSchema({ type: 'string', nullable: true }), 'string');
    assert.equal(sampleFromSchema({ nullable: true }), null);
    assert.equal(sampleFromSchema({ type: ['null', 'boolean'] }), true);
    assert.deepEqual(
      sampleFromSchema({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] }),
      ['string', 0],
    );
    assert.equal(sampleFromSchema({ type: 'string', examples: ['first', 'second'] }), 'first');
  });

  it('leaves out writeOnly properties in responses and fills required ones when deep', () => {
    assert.deepEqual(
      sampleFromSchema({
        type: 'object',
        properties: { pw: { type: 'string', writeOnly: true }, id: { type: 'integer' } },
      }),
      { id: 0 },
    );
  });

  it('stops at cycles without hanging, and is deterministic', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      required: ['name', 'parent'],
      properties: { name: { type: 'string' } },
    };
    (node.properties as Record<string, unknown>).parent = node;
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const a = sampleFromSchema(node);
    assert.deepEqual(a, { name: 'string', parent: null, children: [] });
    assert.deepEqual(sampleFromSchema(node), a);
    const company: Record<string, unknown> = { type: 'object', properties: {} };
    const person = { type: 'object', properties: { name: { type: 'string' }, employer: company } };
    (company.properties as Record<string, unknown>).staff = { type: 'array', items: person };
    assert.deepEqual(sampleFromSchema(person), { name: 'string', employer: { staff: [] } });
  });
});

describe('OpenAPI import rules', () => {
  it('chooses the status: first 2xx, else default, else the first', () => {
    assert.equal(primaryResponseKey(['404', '201', '200']), '201');
    assert.equal(primaryResponseKey(['404', 'default']), 'default');
    assert.equal(primaryResponseKey(['404', '500']), '404');
    assert.equal(primaryResponseKey(['200', '404'], 404), '404');
    assert.equal(statusFromKey('4XX', 500), 400);
    assert.equal(statusFromKey('default', 500), 500);
  });

  it('turns examples into bodies by media type', () => {
    assert.equal(bodyFromExample({ a: 1 }, 'application/json'), '{\n  "a": 1\n}');
    assert.equal(bodyFromExample('{"a":1}', 'application/json'), '{"a":1}');
    assert.equal(bodyFromExample('hello', 'application/json'), '"hello"');
    assert.equal(bodyFromExample('hello', 'application/json', true), 'hello');
    assert.equal(bodyFromExample('a,b', 'text/csv'), 'a,b');
  });

  it('names, statuses, bodies and variations of an operation', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {
        '/users/{user-id}': {
          get: {
            operationId: 'getUser',
            responses: {
              '404': {
                description: 'Not found',
                content: { 'application/json': { example: { error: 'nope' } } },
              },
              '200': {
                description: 'ok',
                headers: {
                  'X-Rate': { schema: { type: 'integer' }, example: 5 },
                  'X-Sampled': { description: 'When', schema: { type: 'string', format: 'date-time' } },
                  'X-Nothing': { description: 'neither a value nor a schema' },
                },
                content: {
                  'application/json': {
                    examples: {
                      first: { value: { id: 1 } },
                      second: { value: { id: 2 } },
                      ext: { externalValue: 'x.json' },
                    },
                  },
                },
              },
            },
          },
          post: { summary: 'Make/replace a user', responses: { default: { description: 'whatever' } } },
        },
      },
    };
    const { operations } = convertOpenApi(doc);
    const get = operations[0]!.input;
    assert.equal(get.name, 'getUser');
    assert.equal(get.path, '/users/{user-id}');
    assert.equal(get.status, 200);
    assert.equal(get.body, '{\n  "id": 1\n}');
    // A header's value: its example, else a sample of its schema; none without either.
    assert.deepEqual(get.headers, { 'X-Rate': '5', 'X-Sampled': '2024-01-01T00:00:00Z' });
    assert.deepEqual(get.openapi, {
      operationId: 'getUser',
      responseHeaders: {
        '200': {
          'X-Rate': { schema: { type: 'integer' } },
          'X-Sampled': { description: 'When', schema: { type: 'string', format: 'date-time' } },
          'X-Nothing': { description: 'neither a value nor a schema' },
        },
      },
    });
    assert.deepEqual(
      get.variations!.map((v) => [v.name, v.status, v.body]),
      [
        ['second', 200, '{\n  "id": 2\n}'],
        ['404', 404, '{\n  "error": "nope"\n}'],
      ],
    );
    const post = operations[1]!.input;
    assert.equal(post.name, 'Make-replace a user');
    assert.equal(post.status, 200);
    assert.equal(post.body, '');
    for (const op of operations) EndpointSchema.parse({ ...op.input, id: 'x' });
  });

  it('reads Swagger 2.0 responses: produces, examples and schemas', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'S', version: '1' },
      produces: ['application/json'],
      paths: {
        '/a': {
          get: {
            produces: ['text/plain'],
            responses: { '200': { description: 'ok', schema: { type: 'string', format: 'date' } } },
          },
        },
        '/b': {
          get: {
            responses: { '200': { description: 'ok', examples: { 'application/json': { ok: true } } } },
          },
        },
      },
    };
    const [a, b] = convertOpenApi(doc).operations;
    assert.equal(a!.input.contentType, 'text/plain');
    assert.equal(a!.input.body, '2024-01-01');
    assert.equal(b!.input.body, '{\n  "ok": true\n}');
  });

  it('keeps operationId, parameters (path level overridden by the operation) and info.version', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'T', version: ' 2.4.1 ' },
      paths: {
        '/pets/{petId}': {
          parameters: [
            { name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
            { name: 'fields', in: 'query', schema: { type: 'string' } },
          ],
          get: {
            operationId: 'showPet',
            parameters: [
              {
                name: 'fields',
                in: 'query',
                description: 'Which fields',
                schema: { type: 'array', items: { type: 'string' } },
                style: 'form',
                explode: false,
              },
              {
                name: 'X-Trace',
                in: 'header',
                required: false,
                deprecated: true,
                schema: { type: 'string' },
                example: 'abc',
              },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const converted = convertOpenApi(doc);
    assert.equal(converted.version, '2.4.1');
    assert.deepEqual(converted.operations[0]!.input.openapi, {
      operationId: 'showPet',
      parameters: [
        { name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
        {
          name: 'fields',
          in: 'query',
          description: 'Which fields',
          style: 'form',
          explode: false,
          schema: { type: 'array', items: { type: 'string' } },
        },
        {
          name: 'X-Trace',
          in: 'header',
          required: false,
          deprecated: true,
          schema: { type: 'string' },
          example: 'abc',
        },
      ],
    });
    assert.equal(converted.operations[0]!.pointer, '/paths/~1pets~1{petId}/get');
  });

  it('Swagger 2.0: the type fields of a parameter become its schema; body parameters are not kept', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'S', version: '1' },
      paths: {
        '/a': {
          post: {
            parameters: [
              {
                name: 'limit',
                in: 'query',
                type: 'integer',
                minimum: 1,
                required: false,
                description: 'How many',
              },
              { name: 'body', in: 'body', schema: { type: 'object' } },
            ],
            responses: {
              '200': { description: 'ok', headers: { 'X-Rate': { type: 'integer', description: 'Left' } } },
            },
          },
        },
      },
    };
    const input = convertOpenApi(doc).operations[0]!.input;
    assert.deepEqual(input.openapi, {
      parameters: [
        {
          name: 'limit',
          in: 'query',
          description: 'How many',
          required: false,
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      responseHeaders: { '200': { 'X-Rate': { description: 'Left', schema: { type: 'integer' } } } },
    });
    assert.deepEqual(input.headers, { 'X-Rate': '0' });
  });

  it('an operation that cannot be converted is left out with a problem; webhooks are reported', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop; // a YAML alias can make an example that refers to itself
    const doc = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/bad': {
          get: {
            responses: { '200': { description: 'ok', content: { 'application/json': { example: loop } } } },
          },
        },
        '/good': { get: { responses: { '204': { description: 'gone' } } } },
        'no-slash': { get: { responses: {} } },
      },
      webhooks: { petAdopted: { post: { responses: { '200': { description: 'ok' } } } } },
    };
    const converted = convertOpenApi(doc);
    assert.deepEqual(
      converted.operations.map((o) => `${o.method} ${o.path}`),
      ['GET /good'],
    );
    assert.deepEqual(
      converted.problems.map((p) => [p.pointer, p.operation ?? null]),
      [
        ['/paths/~1bad/get', { method: 'GET', path: '/bad' }],
        ['/paths/no-slash', null],
        ['/webhooks', null],
      ],
    );
    assert.match(
      converted.problems[0]!.message,
      /^operation GET \/bad cannot be converted: one of its example values contains itself/,
    );
    assert.match(converted.problems[2]!.message, /1 webhook \(petAdopted\) not imported/);
  });
});
