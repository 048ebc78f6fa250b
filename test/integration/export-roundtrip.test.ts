/**
 * Every endpoint field survives export then import (issue 20): a project using each field is
 * exported (3.0 and 3.1), the document validates, and importing it into a new project gives the
 * same endpoints back, compared field by field (ids aside: new endpoints get new ids).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createContext } from '../../src/app/context.js';
import { exportOpenApi, importOpenApi } from '../../src/app/openapi.js';
import { createProject } from '../../src/app/projects.js';
import type { Endpoint, EndpointInput } from '../../src/core/model/endpoint.js';
import { EndpointSchema } from '../../src/core/model/endpoint.js';
import { tempDir } from '../helpers/cli.js';

type VariationIn = NonNullable<EndpointInput['variations']>[number];
const v = (fields: Omit<VariationIn, 'id'>): VariationIn => ({ id: `v-${fields.name}`, ...fields });

/** A project exercising every field of an endpoint and of a variation. */
const EVERY_FIELD: EndpointInput[] = [
  {
    name: 'Get user',
    method: 'GET',
    path: '/users/:id',
    status: 201,
    statusText: 'Made {{params.id}}',
    headers: { 'X-Trace': 'abc', 'X-Id': '{{params.id}}' },
    body: '{"id":"{{params.id}}"}',
    contentType: 'application/vnd.api+json',
    delay: 250,
    enabled: false,
    mode: 'sequential',
    variations: [
      v({
        name: 'gone',
        status: 410,
        statusText: 'Gone Fishing',
        headers: { 'Retry-After': '60' },
        body: 'bye',
        contentType: 'text/plain',
        delay: 40,
        rules: [{ source: 'param', key: 'id', op: 'equals', value: '0' }],
      }),
      // Same status as the default, other headers: the document's response headers are shared.
      v({ name: 'other', status: 201, headers: { 'X-Other': '1' }, body: '{\n  "id": 2\n}' }),
      v({ name: 'raw', status: 500, body: '{{json env}}', contentType: 'text/plain', templating: false }),
    ],
    activeVariationId: 'v-gone',
    request: {
      headers: { Accept: 'application/json', Authorization: 'Bearer ********' },
      query: { q: 'x', tag: ['a', 'b'] },
      body: '{"a":1}',
      auth: { type: 'bearer' },
    },
    openapi: {
      operationId: 'getUser',
      parameters: [{ name: 'verbose', in: 'query', required: false, schema: { type: 'boolean' } }],
    },
  },
  {
    name: 'Literal',
    method: 'POST',
    path: '/literal',
    status: 200,
    headers: { 'Content-Type-Options': 'nosniff', 'X-Raw': '{{uuid}}' },
    body: '{{json env}}',
    contentType: 'text/plain',
    templating: false,
  },
  {
    name: 'Forward',
    method: 'GET',
    path: '/api/*',
    status: 200,
    kind: 'proxy',
    proxy: { target: 'https://api.example.com/v1', record: true, timeoutMs: 1500 },
  },
  {
    name: 'Was a proxy',
    method: 'DELETE',
    path: '/old/{id}',
    status: 204,
    kind: 'mock',
    proxy: { target: 'https://old.example.com', record: false },
    mode: 'random',
  },
];

/** An endpoint as compared: without ids (the active variation by name), keys in a fixed order. */
function comparable(e: Endpoint): Record<string, unknown> {
  const { id: _id, activeVariationId, variations, ...rest } = EndpointSchema.parse(e);
  return {
    ...rest,
    variations: variations.map(({ id: _vid, ...fields }) => fields),
    active: variations.find((x) => x.id === activeVariationId)?.name,
  };
}

describe('export then import keeps every endpoint field', () => {
  it('as OpenAPI 3.0 and 3.1: the document validates and the endpoints come back field by field', async (t) => {
    const tmp = tempDir('mockdev-roundtrip-');
    const ctx = createContext({ dataDir: join(tmp.dir, 'data'), cwd: tmp.dir });
    t.after(() => {
      ctx.close();
      tmp.cleanup();
    });
    const project = await createProject(ctx, { name: 'Every field' }, EVERY_FIELD);
    for (const openapiVersion of ['3.0', '3.1'] as const) {
      const exported = await exportOpenApi(ctx, project.id, { format: 'json', openapiVersion });
      await SwaggerParser.validate(structuredClone(exported.document) as never);
      const report = await importOpenApi(ctx, { text: exported.text });
      assert.equal(report.templates, 'own-export', 'its own export keeps its templates');
      assert.deepEqual(report.literal, []);
      assert.deepEqual(report.warnings, []);
      assert.equal(report.created.length, project.endpoints.length);
      for (const original of project.endpoints) {
        const back = report.created.find((e) => e.method === original.method && e.name === original.name);
        assert.ok(back, `${original.method} ${original.path} is back`);
        assert.deepEqual(comparable(back), comparable(original), `${openapiVersion}: ${original.name}`);
      }
    }
  });
});
