import * as z from 'zod';
import { ProblemSchema } from '../core/model/problem.js';
import { API_PREFIX } from './handler.js';
import type { Route } from './route.js';

/**
 * The admin API's OpenAPI 3.1 document, generated from the routes and the zod schemas they
 * validate with: what the document says is what the API checks.
 */

type Json = Record<string, unknown>;

/**
 * A zod schema as a 3.1 Schema Object. zod writes shared (`.meta({ id })`) and recursive schemas
 * as `$defs` with `#/$defs/…` (or `#`) references; inside an OpenAPI document `#` is the document
 * itself, so those definitions move to `components.schemas` and the references follow them.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, Json>;
  delete out.$defs;
  const selfRef = JSON.stringify(out).includes('"$ref":"#"');
  if (Object.keys(defs).length === 0 && !selfRef) return out;
  // A named schema (`.meta({ id })`: ids are unique in zod's registry) is shared under its name,
  // by direction (the input and output of one schema can differ); an anonymous one gets its own.
  const fresh = (): string => {
    let i = 1;
    while (`Schema${i}` in components) i++;
    return `Schema${i}`;
  };
  const names = new Map<string, string>();
  const rewrite = (v: unknown, root: string | undefined): unknown => {
    if (Array.isArray(v)) return v.map((x) => rewrite(x, root));
    if (!v || typeof v !== 'object') return v;
    const o: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (k === '$ref' && typeof x === 'string' && (x === '#' || x.startsWith('#/$defs/')))
        o[k] = `#/components/schemas/${x === '#' ? root! : names.get(x.slice('#/$defs/'.length))!}`;
      else o[k] = rewrite(x, root);
    }
    return o;
  };
  const root = selfRef ? fresh() : undefined;
  if (root) components[root] = {};
  const fill: [string, Json][] = [];
  for (const [name, value] of Object.entries(defs)) {
    const unique = name.startsWith('__') ? fresh() : `${name}${io === 'input' ? 'Input' : ''}`;
    names.set(name, unique);
    if (!(unique in components)) {
      components[unique] = {};
      fill.push([unique, value]);
    }
  }
  for (const [unique, value] of fill) components[unique] = rewrite(value, root);
  if (!root) return rewrite(out, root) as Json;
  components[root] = rewrite(out, root);
  return { $ref: `#/components/schemas/${root}` };
}

export function openApiDocument(routes: readonly Route[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Json = {};
  schemas.Problem = jsonSchema(ProblemSchema, 'output', schemas);
  const tags = new Set<string>();
  for (const route of routes) {
    tags.add(route.tag);
    const parameters: Record<string, unknown>[] = [];
    for (const name of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
      parameters.push({
        name,
        in: 'path',
        required: true,
        description: route.params?.[name] ?? name,
        schema: { type: 'string' },
      });
    }
    if (route.query) {
      for (const [name, field] of Object.entries(route.query.shape as Record<string, z.ZodType>)) {
        const schema = jsonSchema(field, 'input', schemas);
        const description = typeof schema.description === 'string' ? schema.description : undefined;
        delete schema.description;
        parameters.push({
          name,
          in: 'query',
          required: !field.safeParse(undefined).success,
          ...(description ? { description } : {}),
          schema,
        });
      }
    }
    const status = route.response.status ?? 200;
    const success: Record<string, unknown> = { description: route.response.description };
    if (route.response.schema && status !== 204)
      success.content = {
        [route.response.contentType ?? 'application/json']: {
          schema: jsonSchema(route.response.schema, 'output', schemas),
        },
      };
    const operation: Record<string, unknown> = {
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      operationId: operationId(route),
      ...(parameters.length ? { parameters } : {}),
      responses: {
        [String(status)]: success,
        default: {
          description: 'An error',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    };
    if (route.body) {
      const schema = jsonSchema(route.body, 'input', schemas);
      operation.requestBody = {
        required: !route.body.safeParse(undefined).success,
        content: Object.fromEntries((route.bodyTypes ?? ['application/json']).map((t) => [t, { schema }])),
      };
    } else if (route.bodyTypes) {
      operation.requestBody = {
        required: true,
        content: Object.fromEntries(route.bodyTypes.map((t) => [t, { schema: {} }])),
      };
    }
    (paths[API_PREFIX + route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'mockdev admin API',
      version,
      description:
        'Every mockdev operation over HTTP, served by `mockdev ui`. JSON in and out; errors are application/problem+json. ' +
        'Requests that change something must send Content-Type: application/json (or the type an operation names).',
    },
    servers: [{ url: '/' }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: 'Only when started with --token' },
      },
    },
  };
}

/** `GET /projects/{project}/endpoints` -> getProjectsProjectEndpoints: unique per method and path. */
function operationId(route: Route): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((s) =>
      s
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()),
    );
  return route.method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}
