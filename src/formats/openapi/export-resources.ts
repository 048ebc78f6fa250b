import { endpointKey } from '../../core/match/route-key.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { Resource } from '../../core/model/resource.js';
import { pathParams, toTemplatePath } from './export.js';

/**
 * A project's resources as OpenAPI operations (docs/resources.md "OpenAPI export"): for a
 * resource at /api/users, GET (list, with limit, offset and X-Total-Count) and POST on the
 * collection, GET, PUT, PATCH and DELETE on /api/users/{id}. An endpoint with the same method
 * and path answers instead of the resource, so its own operation is exported and the resource's
 * is left out. Each operation carries `x-mockdev-resource` (the resource's name). Pure.
 */

const PROBLEM = 'application/problem+json';

const problem = (description: string) => ({
  description,
  content: { [PROBLEM]: { schema: { type: 'object' } } },
});

/** The item's path parameter: the id field's name when it can be one, else `id`. */
function itemParam(resource: Resource, taken: string[]): string {
  const name = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(resource.idField) ? resource.idField : 'id';
  let param = name;
  for (let i = 2; taken.includes(param); i++) param = `${name}${i}`;
  return param;
}

const pathParameter = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const operationIdPart = (name: string): string =>
  name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')) || 'resource';

/** The operations of one resource, by path and method. */
function resourceOperations(
  r: Resource,
  version: '3.0' | '3.1',
): Record<string, Record<string, Record<string, unknown>>> {
  const collection = toTemplatePath(r.path).replace(/\/+$/, '');
  const params = pathParams(collection);
  const param = itemParam(r, params);
  const item = `${collection}/{${param}}`;
  const inPath = params.map(pathParameter);
  const itemSchema = {
    type: 'object',
    required: [r.idField],
    // 3.0 has no type arrays.
    properties: {
      [r.idField]:
        version === '3.0'
          ? { oneOf: [{ type: 'string' }, { type: 'integer' }] }
          : { type: ['string', 'integer'] },
    },
    additionalProperties: true,
  };
  const json = (schema: unknown, example?: unknown) => ({
    'application/json': { schema, ...(example !== undefined ? { example } : {}) },
  });
  const one = (description: string, example?: unknown) => ({
    description,
    content: json(itemSchema, example),
  });
  const body = (type = 'application/json') => ({
    required: true,
    content: { [type]: { schema: { type: 'object' } } },
  });
  const notFound = problem(`No item with this ${r.idField}`);
  const bad = problem('The body is not a JSON object');
  const id = operationIdPart(r.name);
  const tag = { 'x-mockdev-resource': r.name };
  return {
    [collection]: {
      get: {
        summary: `List ${r.name}`,
        operationId: `list${id[0]!.toUpperCase()}${id.slice(1)}`,
        ...tag,
        parameters: [
          ...inPath,
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
          { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          '200': {
            description: `The items (filtered by any query field=value, paged by limit and offset)`,
            headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
            content: json({ type: 'array', items: itemSchema }, r.seed),
          },
          '400': problem('A bad limit or offset'),
        },
      },
      post: {
        summary: `Create one of ${r.name}`,
        operationId: `create${id[0]!.toUpperCase()}${id.slice(1)}`,
        ...tag,
        ...(inPath.length ? { parameters: inPath } : {}),
        requestBody: body(),
        responses: {
          '201': {
            ...one('The item as kept, with its id', r.seed[0]),
            headers: { Location: { schema: { type: 'string' } } },
          },
          '400': bad,
          '409': problem(`An item with this ${r.idField} exists`),
        },
      },
    },
    [item]: {
      get: {
        summary: `Get one of ${r.name}`,
        operationId: `get${id[0]!.toUpperCase()}${id.slice(1)}Item`,
        ...tag,
        parameters: [...inPath, pathParameter(param)],
        responses: { '200': one('The item', r.seed[0]), '404': notFound },
      },
      put: {
        summary: `Replace one of ${r.name}`,
        operationId: `replace${id[0]!.toUpperCase()}${id.slice(1)}Item`,
        ...tag,
        parameters: [...inPath, pathParameter(param)],
        requestBody: body(),
        responses: { '200': one('The item as replaced'), '400': bad, '404': notFound },
      },
      patch: {
        summary: `Change one of ${r.name} (JSON merge patch)`,
        operationId: `patch${id[0]!.toUpperCase()}${id.slice(1)}Item`,
        ...tag,
        parameters: [...inPath, pathParameter(param)],
        requestBody: body('application/merge-patch+json'),
        responses: { '200': one('The item as merged'), '400': bad, '404': notFound },
      },
      delete: {
        summary: `Delete one of ${r.name}`,
        operationId: `delete${id[0]!.toUpperCase()}${id.slice(1)}Item`,
        ...tag,
        parameters: [...inPath, pathParameter(param)],
        responses: { '204': { description: 'Deleted' }, '404': notFound },
      },
    },
  };
}

/**
 * Adds the resources' operations to `paths` (the endpoints' operations, already written), but
 * not those an endpoint answers; an operationId another operation has gets a number.
 */
export function addResourceOperations(
  paths: Record<string, Record<string, unknown>>,
  resources: Resource[],
  endpoints: Endpoint[],
  version: '3.0' | '3.1',
): void {
  const answered = new Set(endpoints.map((e) => endpointKey(e.method, e.path)));
  const usedIds = new Set(
    Object.values(paths).flatMap((ops) =>
      Object.values(ops).map((op) => (op as { operationId?: string }).operationId),
    ),
  );
  for (const r of resources)
    for (const [path, ops] of Object.entries(resourceOperations(r, version)))
      for (const [method, op] of Object.entries(ops)) {
        if (answered.has(endpointKey(method, path))) continue;
        const base = op.operationId as string;
        let operationId = base;
        for (let i = 2; usedIds.has(operationId); i++) operationId = `${base}${i}`;
        usedIds.add(operationId);
        (paths[path] ??= {})[method] = { ...op, operationId };
      }
}
