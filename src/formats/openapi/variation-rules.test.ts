import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../core/model/endpoint.js';
import { exportOpenApiDocument } from './export.js';
import { convertOpenApi } from './import.js';

describe('OpenAPI export and import: variation rules and mode', () => {
  it('travel in x-mockdev-rules (by variation name) and x-mockdev-mode, and come back', () => {
    const variation = (
      id: string,
      name: string,
      status: number,
      rules?: Endpoint['variations'][0]['rules'],
    ) => ({
      id,
      name,
      status,
      headers: {},
      body: '{"v":"' + name + '"}',
      contentType: 'application/json',
      delay: 0,
      ...(rules ? { rules } : {}),
    });
    const endpoint: Endpoint = {
      id: '1',
      name: 'Get user',
      method: 'GET',
      path: '/users/:id',
      status: 200,
      headers: {},
      body: '{"id":1}',
      contentType: 'application/json',
      delay: 0,
      enabled: true,
      kind: 'mock',
      mode: 'random',
      variations: [
        variation('a', 'zero', 404, [{ source: 'param', key: 'id', op: 'equals', value: '0' }]),
        variation('b', 'admin', 403, [
          { source: 'header', key: 'x-role', op: 'regex', value: '^adm' },
          { source: 'body', key: 'user.id', op: 'exists' },
        ]),
        variation('c', 'plain', 500),
      ],
    };
    const doc = exportOpenApiDocument({ name: 'P', description: '', port: 3001 }, [endpoint]) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const op = doc.paths['/users/{id}']!.get!;
    assert.equal(op['x-mockdev-mode'], 'random');
    assert.deepEqual(Object.keys(op['x-mockdev-rules'] as object), ['zero', 'admin']);
    const back = convertOpenApi(doc).operations[0]!.input;
    assert.equal(back.mode, 'random');
    assert.deepEqual(
      back.variations!.map((v) => [v.name, v.status, v.rules]),
      endpoint.variations.map((v) => [v.name, v.status, v.rules]),
    );
  });

  it('an import leaves out rules that are not valid and a mode it does not know, warning of each', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {
        '/x': {
          get: {
            'x-mockdev-mode': 'sometimes',
            'x-mockdev-rules': { '404': [{ source: 'query', key: 'a', op: 'regex', value: '(' }] },
            responses: { '200': { description: 'ok' }, '404': { description: 'no' } },
          },
        },
      },
    };
    const converted = convertOpenApi(doc);
    const input = converted.operations[0]!.input;
    assert.equal(input.mode, undefined);
    assert.deepEqual(
      converted.problems.map((p) => p.pointer),
      ['/paths/~1x/get/x-mockdev-rules/404', '/paths/~1x/get/x-mockdev-mode'],
    );
    assert.deepEqual(
      input.variations!.map((v) => [v.name, v.rules]),
      [['404', undefined]],
    );
  });
});
