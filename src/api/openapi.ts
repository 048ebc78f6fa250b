import * as z from 'zod';
import { API_PREFIX } from './handler.js';
import type { Route } from './route.js';

/**
 * The admin API's OpenAPI 3.1 document, generated from the routes and the zod schemas they
 * validate with: what the document says is what the API checks.
 */

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> => {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
};

const PROBLEM = {
  type: 'object',
  description: 'An error (RFC 9457): `code` and `status` come from mockdev’s error catalogue',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What was wrong and how to fix it' },
    code: { type: 'string', description: 'INVALID_ARGUMENT, PROJECT_NOT_FOUND, NOT_FOUND, CONFLICT, …' },
    details: { type: 'object' },
  },
};

export function openApiDocument(routes: readonly Route[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
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
        const schema = jsonSchema(field, 'input');
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
          schema: jsonSchema(route.response.schema, 'output'),
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
      const schema = jsonSchema(route.body, 'input');
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
      schemas: { Problem: PROBLEM },
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
