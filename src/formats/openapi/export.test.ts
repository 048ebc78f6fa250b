import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportOpenApiDocument, pathParams, toTemplatePath } from './export.js';
import { schemaForVersion } from './schema-dialect.js';

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
    assert.deepEqual(op.parameters, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' }, 'x-mockdev-generated': true },
    ]);
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
      { name: 'petId', in: 'path', required: true, schema: { type: 'string' }, 'x-mockdev-generated': true },
      { name: 'fields', in: 'query', schema: { type: 'string' } },
    ]);
    const responses = get.responses as Record<string, { headers?: Record<string, unknown> }>;
    assert.deepEqual(responses['200']!.headers, {
      'x-rate': { description: 'Left', schema: { type: 'integer' }, example: '5' },
      'X-Unset': { schema: { type: 'string' } },
      'X-Extra': { schema: { type: 'string' }, example: 'x', 'x-mockdev-generated': true },
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

  it('writes a project without OpenAPI facts as it always did (what it declares for OpenAPI marked as such)', () => {
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
      'x-mockdev-export': true,
      info: { title: 'P', version: '1.0.0', description: 'd' },
      servers: [{ url: 'http://localhost:3002' }],
      paths: {
        '/users/{id}': {
          get: {
            summary: 'List users',
            operationId: 'listUsers',
            'x-mockdev-generated': true,
            parameters: [
              {
                name: 'id',
                in: 'path',
                required: true,
                schema: { type: 'string' },
                'x-mockdev-generated': true,
              },
            ],
            'x-mockdev-path': '/users/:id',
            responses: {
              '200': {
                description: 'OK',
                headers: { 'X-A': { schema: { type: 'string' }, example: '1', 'x-mockdev-generated': true } },
                content: { 'application/json': { examples: { 'List users': { value: [] } } } },
              },
            },
          },
        },
      },
    });
  });
});
