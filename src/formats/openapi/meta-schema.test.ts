import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateOpenApiDocument } from './meta-schema.js';

const info = { title: 'T', version: '1' };

describe('validateOpenApiDocument', () => {
  it('accepts valid 2.0, 3.0 and 3.1 documents', async () => {
    assert.deepEqual(
      await validateOpenApiDocument(
        { swagger: '2.0', info, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } },
        '2.0',
      ),
      [],
    );
    const oas = (openapi: string, schema: unknown) => ({
      openapi,
      info,
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema } } },
              default: { $ref: '#/components/responses/Err' },
            },
          },
        },
      },
      components: { responses: { Err: { description: 'error' } } },
    });
    assert.deepEqual(
      await validateOpenApiDocument(oas('3.0.3', { $ref: '#/components/schemas/X' }), '3.0'),
      [],
    );
    assert.deepEqual(
      await validateOpenApiDocument(
        oas('3.1.0', { type: ['string', 'null'], $id: 'https://x.example/s' }),
        '3.1',
      ),
      [],
    );
  });

  it('reports each problem once, where it is, without the "must match a schema" cascade above it', async () => {
    const nullType = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    const doc = {
      openapi: '3.0.3',
      info,
      paths: { '/a': { get: { responses: 'none' } } },
      components: {
        schemas: {
          A: { type: 'object', properties: { v: nullType } },
          B: { type: 'object', properties: { w: { type: 'array', items: nullType } } },
        },
      },
    };
    assert.deepEqual(await validateOpenApiDocument(doc, '3.0'), [
      { pointer: '/paths/~1a/get/responses', message: 'must be object' },
      {
        pointer: '/components/schemas/A/properties/v/anyOf/1/type',
        message:
          'must be equal to one of the allowed values (array, boolean, integer, number, object, string)',
      },
      {
        pointer: '/components/schemas/B/properties/w/items/anyOf/1/type',
        message:
          'must be equal to one of the allowed values (array, boolean, integer, number, object, string)',
      },
    ]);
  });

  it('names the property an object must not have', async () => {
    const doc = {
      openapi: '3.0.3',
      info,
      paths: { '/a': { get: { responses: { '204': { description: 'gone' } }, summery: 'typo' } } },
    };
    assert.deepEqual(await validateOpenApiDocument(doc, '3.0'), [
      { pointer: '/paths/~1a/get', message: 'must NOT have additional properties "summery"' },
    ]);
  });
});
