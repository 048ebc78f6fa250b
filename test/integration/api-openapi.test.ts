/**
 * The admin API's own OpenAPI document (GET /api/v1/openapi.json) against the route table it is
 * generated from: it validates as OpenAPI 3.1 (the OpenAPI schema the importer checks with, the
 * standard validator, and every Schema Object as JSON Schema 2020-12), every route of ALL_ROUTES
 * is in it with its method and parameters, and every documented operation reaches a route in
 * process (so the document and the router cannot drift). Written over ALL_ROUTES: route groups
 * are covered as they are added.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as z from 'zod';
import { API_PREFIX } from '../../src/api/handler.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { defineRoute } from '../../src/api/route.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { validateOpenApiDocument } from '../../src/formats/openapi/meta-schema.js';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, Json>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

async function fetchDocument(t: AfterHook): Promise<{ api: ApiSandbox; doc: Json }> {
  const api = apiSandbox(t);
  const r = await api.call('GET', `${API_PREFIX}/openapi.json`);
  assert.equal(r.status, 200, r.body);
  assert.match(r.headers['Content-Type']!, /^application\/json/);
  return { api, doc: r.json as Json };
}

function operations(doc: Json): { path: string; method: string; op: Operation }[] {
  const out: { path: string; method: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>))
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] as Operation });
  return out;
}

/** Every Schema Object of the document (request bodies, answers, parameters, components). */
function schemas(doc: Json): { where: string; schema: unknown }[] {
  const out: { where: string; schema: unknown }[] = [];
  const content = (where: string, c: unknown) => {
    for (const [type, media] of Object.entries((c ?? {}) as Record<string, Json>))
      if (media.schema !== undefined) out.push({ where: `${where} ${type}`, schema: media.schema });
  };
  for (const { path, method, op } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    for (const p of op.parameters ?? [])
      out.push({ where: `${at} parameter ${p.name}`, schema: (p as Json).schema });
    content(`${at} request body`, op.requestBody?.content);
    for (const [status, r] of Object.entries(op.responses)) content(`${at} ${status}`, r.content);
  }
  const components = (doc.components ?? {}) as { schemas?: Record<string, unknown> };
  for (const [name, schema] of Object.entries(components.schemas ?? {}))
    out.push({ where: `components.schemas.${name}`, schema });
  return out;
}

/** A value for a path parameter that no route takes literally. */
const sample = (name: string) => `no-such-${name}`;

describe('admin API: its OpenAPI document', () => {
  it('validates as OpenAPI 3.1: the OpenAPI schema, the standard validator, each schema as JSON Schema 2020-12', async (t) => {
    const { doc } = await fetchDocument(t);
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(await validateOpenApiDocument(doc, '3.1'), []);
    await SwaggerParser.validate(structuredClone(doc) as never);

    // The 3.1 OpenAPI schema takes any object as a Schema Object: check each one as JSON Schema.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const { where, schema } of schemas(doc)) {
      const ok = ajv.validateSchema(schema as Json);
      assert.ok(ok, `${where}: ${ajv.errorsText(ajv.errors)}`);
    }
  });

  it('lists every route of ALL_ROUTES with its method, path parameters, query, body and answer', async (t) => {
    const { doc } = await fetchDocument(t);
    const paths = doc.paths as Record<string, Record<string, Operation>>;
    const documented = new Set(operations(doc).map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    assert.equal(documented.size, ALL_ROUTES.length, 'one operation per route, no more');
    for (const route of ALL_ROUTES) {
      const key = `${route.method} ${API_PREFIX}${route.path}`;
      const op = paths[API_PREFIX + route.path]?.[route.method.toLowerCase()];
      assert.ok(op, `${key} is in the document`);
      assert.ok(op.summary, `${key} has a summary`);
      assert.deepEqual(op.tags, [route.tag], `${key} is tagged ${route.tag}`);

      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      assert.deepEqual(declared.map((p) => p.name).sort(), [...names].sort(), `${key}: path parameters`);
      for (const name of names) {
        assert.ok(route.params?.[name], `${key}: {${name}} has a params description in the route`);
        assert.ok(declared.find((p) => p.name === name)?.required, `${key}: {${name}} is required`);
      }
      if (route.query) {
        const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        assert.deepEqual(query.sort(), Object.keys(route.query.shape).sort(), `${key}: query parameters`);
      }
      if (route.body) assert.ok(op.requestBody, `${key}: request body`);
      const status = String(route.response.status ?? 200);
      assert.ok(op.responses[status], `${key}: answers ${status}`);
      if (route.response.schema && status !== '204')
        assert.ok(op.responses[status]!.content, `${key}: the ${status} answer has a schema`);
      assert.ok(op.responses.default, `${key}: the problem answer`);
    }
  });

  it('gives every operation a unique operationId', async (t) => {
    const { doc } = await fetchDocument(t);
    const ids = operations(doc).map(({ op }) => op.operationId);
    for (const id of ids) assert.match(id ?? '', /^[A-Za-z][A-Za-z0-9]*$/);
    assert.equal(
      new Set(ids).size,
      ids.length,
      `duplicates: ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`,
    );
  });

  it('every documented operation reaches its own route in the router: the document and the router cannot drift', async (t) => {
    // The same routes with their checks and handlers replaced by one that names the route: no
    // side effects, and the answer says which route the router chose.
    const named = ALL_ROUTES.map((route) => ({
      ...route,
      query: undefined,
      body: undefined,
      response: { description: route.response.description },
      handle: () => ({ reached: `${route.method} ${route.path}` }),
    }));
    const api = apiSandbox(t, { routes: named });
    const { doc } = await fetchDocument(t);
    for (const { path, method, op } of operations(doc)) {
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(sample(name)));
      const types = Object.keys(op.requestBody?.content ?? { 'application/json': {} });
      const r = await api.call(
        method.toUpperCase(),
        url,
        method === 'get' ? {} : { body: '{}', type: types[0] },
      );
      const where = `${method.toUpperCase()} ${url}`;
      assert.equal(r.status, 200, `${where}: ${r.body}`);
      assert.deepEqual(
        r.json,
        { reached: `${method.toUpperCase()} ${path.slice(API_PREFIX.length)}` },
        where,
      );
    }
  });

  it('every documented GET answers in process with its route’s answer (not a 404 "No admin API route", never a 500)', async (t) => {
    const { api, doc } = await fetchDocument(t);
    for (const { path, method, op } of operations(doc)) {
      if (method !== 'get') continue; // the others change things: reached above, tested by their groups
      // A stream needs the API process's services and a socket: reached above, tested by its group.
      if (Object.values(op.responses).some((r) => r.content && 'text/event-stream' in (r.content as Json)))
        continue;
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(sample(name)));
      const r = await api.call('GET', url);
      assert.doesNotMatch(
        String((r.json as Json | undefined)?.detail ?? ''),
        /No admin API route/,
        `GET ${url}: ${r.body}`,
      );
      assert.notEqual(r.status, 405, `GET ${url}: ${r.body}`);
      assert.ok(r.status < 500, `GET ${url} failed: ${r.body}`);
    }
  });

  it('a path that is not documented is a 404 naming the document; a documented one with another method is a 405', async (t) => {
    const { api } = await fetchDocument(t);
    const unknown = await api.call('GET', `${API_PREFIX}/no-such-resource`);
    assert.equal(unknown.status, 404);
    assert.match((unknown.json as Json).detail as string, /No admin API route GET .*openapi\.json/);
    const wrong = await api.call('DELETE', `${API_PREFIX}/health`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.Allow, 'GET');
  });

  it('moves shared and recursive schemas to components.schemas, so their references resolve in the document', async () => {
    const Tag = z.string().min(1).meta({ id: 'ApiOpenApiTestTag' });
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const Tree = z.object({ tag: Tag, other: Tag, root: Node });
    const routes = [
      defineRoute({
        method: 'POST',
        path: '/trees',
        tag: 'Test',
        summary: 'a tree in, a tree out',
        body: Tree,
        response: { schema: Tree, description: 'the tree' },
        handle: () => undefined,
      }),
      defineRoute({
        method: 'GET',
        path: '/nodes',
        tag: 'Test',
        summary: 'a recursive schema at the top',
        response: { schema: Node, description: 'a node' },
        handle: () => undefined,
      }),
    ];
    const doc = openApiDocument(routes, '0.0.0');
    assert.doesNotMatch(
      JSON.stringify(doc),
      /"\$ref":"#(\/\$defs\/[^"]*)?"/,
      'no reference into a schema-local $defs',
    );
    assert.deepEqual(await validateOpenApiDocument(doc, '3.1'), []);
    // swagger-parser resolves every $ref: one left pointing at the document's root would fail here.
    const deref = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Json;
    await SwaggerParser.validate(structuredClone(doc) as never);
    const body = (deref.paths as Json)[`${API_PREFIX}/trees`] as { post: Operation };
    const schema = (body.post.requestBody!.content['application/json'] as { schema: Json }).schema;
    assert.equal(((schema.properties as Json).tag as Json).type, 'string');
    const schemas = (doc.components as { schemas: Json }).schemas;
    assert.ok(
      'ApiOpenApiTestTag' in schemas && 'ApiOpenApiTestTagInput' in schemas,
      Object.keys(schemas).join(),
    );
  });
});
