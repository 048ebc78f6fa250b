/** The OpenAPI document covers the server, request and event routes, and validates. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { eventRoutes } from '../../src/api/routes/events.js';
import { requestRoutes } from '../../src/api/routes/requests.js';
import { serverRoutes } from '../../src/api/routes/servers.js';
import { apiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

describe('admin API: OpenAPI document of servers, requests and events', () => {
  it('lists every such route with its parameters, and validates as OpenAPI 3.1', async (t) => {
    const api = apiSandbox(t);
    const doc = (await api.call('GET', '/api/v1/openapi.json')).json as Json;
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const route of [...serverRoutes, ...requestRoutes, ...eventRoutes]) {
      const op = paths[`/api/v1${route.path}`]?.[route.method.toLowerCase()];
      assert.ok(op, `${route.method} ${route.path} is in the document`);
      const params = (op.parameters ?? []) as Json[];
      for (const name of route.path.match(/\{(\w+)\}/g) ?? [])
        assert.ok(
          params.some((p) => p.in === 'path' && `{${p.name as string}}` === name && p.description),
          `${route.method} ${route.path}: ${name} described`,
        );
    }
    const list = paths['/api/v1/projects/{project}/requests']!.get!;
    assert.deepEqual(
      ((list.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name) as string[]).sort(),
      ['limit', 'method', 'starred', 'status'],
    );
    const stream = (paths['/api/v1/events']!.get!.responses as Record<string, Json>)['200']!.content as Json;
    assert.ok(stream['text/event-stream'], 'the event stream is described');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });
});
