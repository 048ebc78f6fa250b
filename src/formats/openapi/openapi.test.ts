import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { parseDocumentText, detectFormat, locatePointer, readDocumentText } from './document-text.js';
import { exportOpenApiDocument, pathParams, toTemplatePath } from './export.js';
import { schemaForVersion } from './schema-dialect.js';
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
        ['404 Not found', 404, '{\n  "error": "nope"\n}'],
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

describe('OpenAPI export', () => {
  const base = {
    headers: {},
    delay: 0,
    enabled: true,
    kind: 'mock' as const,
    variations: [],
    contentType: 'application/json',
  };
  it('writes {id} paths, declares path params, marks disabled endpoints', () => {
    assert.equal(toTemplatePath('/users/:id/posts/:postId'), '/users/{id}/posts/{postId}');
    assert.deepEqual(pathParams('/compare/{base}...{head}'), ['base', 'head']);
    const doc = exportOpenApiDocument({ name: 'P', description: '', port: 3001 }, [
      {
        ...base,
        id: '1',
        name: 'Get user',
        method: 'GET',
        path: '/users/:id',
        status: 404,
        body: '{"a":1}',
        enabled: false,
        variations: [
          {
            id: 'v',
            name: 'found',
            status: 200,
            headers: { 'X-A': '1' },
            body: '{\n  "ok": true\n}',
            contentType: 'application/json',
            delay: 0,
          },
        ],
      },
    ]) as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    assert.equal(doc.openapi, '3.0.3');
    const op = doc.paths['/users/{id}']!.get!;
    assert.deepEqual(op.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    assert.equal(op['x-mockdev-enabled'], false);
    assert.equal(op['x-mockdev-status'], 404);
    const responses = op.responses as Record<
      string,
      { content: Record<string, { examples: Record<string, unknown> }> }
    >;
    assert.deepEqual(responses['404']!.content['application/json']!.examples['Get user'], {
      value: '{"a":1}',
      'x-mockdev-raw': true,
    });
    assert.deepEqual(responses['200']!.content['application/json']!.examples.found, { value: { ok: true } });
  });

  it('writes back what an import kept: info.version, operationId, parameters, header definitions', () => {
    const endpoint = {
      ...base,
      id: '1',
      name: 'Show pet',
      method: 'GET' as const,
      path: '/pets/{petId}',
      status: 200,
      body: '',
      headers: { 'X-Rate': '5', 'X-Extra': 'x' },
      variations: [
        {
          id: 'v',
          name: 'missing',
          status: 404,
          headers: {},
          body: '',
          contentType: 'application/json',
          delay: 0,
        },
      ],
      openapi: {
        operationId: 'showPetById',
        parameters: [
          { name: 'fields', in: 'query' as const, schema: { type: 'string' } },
          { name: 'gone', in: 'path' as const, required: true, schema: { type: 'integer' } },
        ],
        responseHeaders: {
          '200': { 'x-rate': { description: 'Left', schema: { type: 'integer' } }, 'X-Unset': {} },
          '404': { 'X-Why': { description: 'Reason' } },
        },
      },
    };
    const doc = exportOpenApiDocument({ name: 'P', description: '', port: 3001, apiVersion: '2.4.1' }, [
      endpoint,
      { ...endpoint, id: '2', method: 'POST' as const, name: 'Also show' },
    ]) as { info: { version: string }; paths: Record<string, Record<string, Record<string, unknown>>> };
    assert.equal(doc.info.version, '2.4.1');
    const get = doc.paths['/pets/{petId}']!.get!;
    assert.equal(get.operationId, 'showPetById');
    assert.equal(doc.paths['/pets/{petId}']!.post!.operationId, 'alsoShow', 'an operationId is used once');
    // petId is in the path (declared as a string); "gone" no longer is.
    assert.deepEqual(get.parameters, [
      { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'fields', in: 'query', schema: { type: 'string' } },
    ]);
    const responses = get.responses as Record<string, { headers?: Record<string, unknown> }>;
    assert.deepEqual(responses['200']!.headers, {
      'x-rate': { description: 'Left', schema: { type: 'integer' }, example: '5' },
      'X-Unset': { schema: { type: 'string' } },
      'X-Extra': { schema: { type: 'string' }, example: 'x' },
    });
    assert.deepEqual(responses['404']!.headers, {
      'X-Why': { description: 'Reason', schema: { type: 'string' } },
    });
  });

  it('writes kept schemas in the words of the version it writes (3.1 type lists, const, examples in 3.0)', () => {
    const kept = {
      type: 'object',
      properties: {
        a: { type: ['integer', 'null'], examples: [3], exclusiveMinimum: 0 },
        b: { const: 'x', $comment: 'only in 3.1' },
        c: { type: ['string', 'number'] },
      },
      $defs: { unused: { type: 'string' } },
    };
    assert.deepEqual(schemaForVersion(kept, '3.0'), {
      type: 'object',
      properties: {
        a: { nullable: true, type: 'integer', example: 3, minimum: 0, exclusiveMinimum: true },
        b: { enum: ['x'] },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    });
    assert.deepEqual(schemaForVersion(kept, '3.1'), kept, 'already 3.1');
    assert.deepEqual(
      schemaForVersion({ type: 'string', nullable: true, minimum: 1, exclusiveMinimum: true }, '3.1'),
      {
        type: ['string', 'null'],
        exclusiveMinimum: 1,
      },
    );
  });

  it('writes a project without OpenAPI facts as it always did', () => {
    const doc = exportOpenApiDocument({ name: 'P', description: 'd', port: 3002 }, [
      {
        ...base,
        id: '1',
        name: 'List users',
        method: 'GET',
        path: '/users/:id',
        status: 200,
        body: '[]',
        headers: { 'X-A': '1' },
      },
    ]);
    assert.deepEqual(doc, {
      openapi: '3.0.3',
      info: { title: 'P', version: '1.0.0', description: 'd' },
      servers: [{ url: 'http://localhost:3002' }],
      paths: {
        '/users/{id}': {
          get: {
            summary: 'List users',
            operationId: 'listUsers',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: {
              '200': {
                description: 'OK',
                headers: { 'X-A': { schema: { type: 'string' }, example: '1' } },
                content: { 'application/json': { examples: { 'List users': { value: [] } } } },
              },
            },
          },
        },
      },
    });
  });
});

describe('document text', () => {
  it('tells JSON from YAML by content', () => {
    assert.equal(detectFormat('  {"openapi": "3.0.0"}'), 'json');
    assert.equal(detectFormat('# comment\nopenapi: 3.0.0'), 'yaml');
  });

  it('gives line and column for syntax errors and refuses non-OpenAPI documents', () => {
    const bad = (text: string, re: RegExp) =>
      assert.throws(
        () => parseDocumentText(text, 'doc.yaml'),
        (e: unknown) => e instanceof MockdevError && e.code === 'INVALID_INPUT' && re.test(e.fullMessage),
      );
    bad('{\n "openapi": "3.0.0",\n "info": {} x\n}', /not valid JSON at line 3, column/);
    bad('openapi: 3.0.0\ninfo:\n  title: a\n   version: 1\n', /not valid YAML at line 3, column 10/);
    bad('', /is empty/);
    bad('[1, 2]', /top level is not an object/);
    bad('title: x\n', /no "openapi" or "swagger" field/);
  });

  it('locates a JSON pointer in the text', () => {
    const text = 'openapi: 3.0.0\npaths:\n  /users:\n    get:\n      responses: 1\n';
    assert.deepEqual(locatePointer(text, '/paths/~1users/get/responses'), { line: 5, col: 7 });
  });

  it('locates many pointers in JSON in one pass: keys with escapes, array items, the deepest part that exists', () => {
    const text = [
      '{',
      '  "openapi": "3.0.0", "info": {"title": "a \\"quoted\\" {title}", "version": "1"},',
      '  "paths": {',
      '    "/a~b/{id}": {"get": {"tags": ["x", "y"], "responses": {"200": {"description": "ok"}}}}',
      '  }',
      '}',
    ].join('\n');
    const found = readDocumentText(text, 'doc.json').locate([
      '/paths/~1a~0b~1{id}/get/responses/200',
      '/paths/~1a~0b~1{id}/get/tags/1',
      '/paths/~1a~0b~1{id}/get/nothing/here',
      '/info/version',
      '',
    ]);
    assert.deepEqual(Object.fromEntries(found), {
      '/paths/~1a~0b~1{id}/get/responses/200': { line: 4, col: 61 },
      '/paths/~1a~0b~1{id}/get/tags/1': { line: 4, col: 41 },
      '/paths/~1a~0b~1{id}/get/nothing/here': { line: 4, col: 19 },
      '/info/version': { line: 2, col: 65 },
      '': { line: 1, col: 1 },
    });
  });
});
