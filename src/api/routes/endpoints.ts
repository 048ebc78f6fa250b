import * as z from 'zod';
import {
  addEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  removeEndpoints,
  updateEndpoint,
} from '../../app/endpoints.js';
import { endpointSnippets } from '../../app/snippets.js';
import { MockdevError } from '../../core/errors.js';
import {
  EndpointInputSchema,
  EndpointPatchSchema,
  EndpointSchema,
  type EndpointInput,
  type EndpointPatch,
} from '../../core/model/endpoint.js';
import { SNIPPET_LANGUAGES } from '../../core/snippets.js';
import { CONTENT_BODY_LIMIT_BYTES } from '../../http/body.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/** `{endpoint}`: what the CLI's ENDPOINT argument accepts. */
export const ENDPOINT_PARAMS = {
  ...PROJECT_PARAM,
  endpoint: 'Endpoint id, or its name or "METHOD /path" URL-encoded',
};

const BASE = '/projects/{project}/endpoints';
const ONE = `${BASE}/{endpoint}`;

const ListQuerySchema = z.object({
  enabledOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: only the endpoints the server answers with'),
  pathPrefix: z
    .string()
    .optional()
    .describe(
      'Only the endpoints at or under this path, as a folder (what `DELETE ?pathPrefix=` would remove): /api/users takes /api/users and /api/users/{id}, never /api/usersettings',
    ),
});

const RemoveQuerySchema = z.object({
  ids: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : v.split(',').map((id) => id.trim())))
    .describe('Comma-separated endpoint ids to remove, e.g. a1,b2,c3'),
  pathPrefix: z
    .string()
    .optional()
    .describe(
      'Remove every endpoint at or under this path, as a folder: /api/users takes /api/users and /api/users/{id}, never /api/usersettings',
    ),
});

const SnippetsSchema = z.object(
  Object.fromEntries(SNIPPET_LANGUAGES.map((l) => [l, z.string()])) as Record<
    (typeof SNIPPET_LANGUAGES)[number],
    z.ZodString
  >,
);

export const endpointRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof ListQuerySchema>>({
    method: 'GET',
    path: BASE,
    tag: 'Endpoints',
    summary: 'List a project’s endpoints (as `mockdev endpoint list --json`)',
    params: PROJECT_PARAM,
    query: ListQuerySchema,
    response: { schema: z.array(EndpointSchema), description: 'The endpoints, in their stored order' },
    handle: ({ ctx, params, query }) =>
      listEndpoints(ctx, params.project!, { enabledOnly: query.enabledOnly, pathPrefix: query.pathPrefix }),
  }),
  defineRoute<EndpointInput>({
    method: 'POST',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: BASE,
    tag: 'Endpoints',
    summary: 'Add an endpoint (as `mockdev endpoint add`)',
    description:
      'Defaults: method GET, status 200, delay 0, enabled, kind mock, content type application/json. Method and path must not clash with another endpoint (409).',
    params: PROJECT_PARAM,
    body: EndpointInputSchema,
    response: { status: 201, schema: EndpointSchema, description: 'The endpoint created' },
    handle: ({ ctx, params, body }) => addEndpoint(ctx, params.project!, body),
  }),
  defineRoute<unknown, z.output<typeof RemoveQuerySchema>>({
    method: 'DELETE',
    path: BASE,
    tag: 'Endpoints',
    summary: 'Remove several endpoints at once: `?ids=a,b,c`, or `?pathPrefix=/api/users` (a folder)',
    description:
      'All or nothing: an unknown id, or a prefix no endpoint is under, removes nothing (404). Give exactly one of ids and pathPrefix.',
    params: PROJECT_PARAM,
    query: RemoveQuerySchema,
    response: { schema: z.array(EndpointSchema), description: 'The endpoints removed' },
    handle: ({ ctx, params, query }) => {
      if ((query.ids === undefined) === (query.pathPrefix === undefined)) {
        throw new MockdevError(
          'INVALID_ARGUMENT',
          `Give exactly one of the "ids" and "pathPrefix" query parameters (${query.ids ? 'both' : 'neither'} given)`,
          { hint: 'e.g. ?ids=a1,b2 or ?pathPrefix=/api/users', details: { field: 'ids' } },
        );
      }
      return removeEndpoints(
        ctx,
        params.project!,
        query.ids ? { ids: query.ids } : { pathPrefix: query.pathPrefix! },
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: ONE,
    tag: 'Endpoints',
    summary: 'One endpoint (as `mockdev endpoint show --json`)',
    params: ENDPOINT_PARAMS,
    response: { schema: EndpointSchema, description: 'The endpoint' },
    handle: ({ ctx, params }) => getEndpoint(ctx, params.project!, params.endpoint!),
  }),
  defineRoute<EndpointPatch>({
    method: 'PATCH',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: ONE,
    tag: 'Endpoints',
    summary: 'Change an endpoint: only the fields given (as `mockdev endpoint update`)',
    description:
      'headers are merged: each named header is added or replaces the one of that name (any case); null removes it. proxy is merged too: the settings given replace theirs, the others are kept. null on proxy, activeVariationId, mode or request removes that field.',
    params: ENDPOINT_PARAMS,
    body: EndpointPatchSchema,
    response: { schema: EndpointSchema, description: 'The endpoint as changed' },
    handle: ({ ctx, params, body }) => updateEndpoint(ctx, params.project!, params.endpoint!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: ONE,
    tag: 'Endpoints',
    summary: 'Remove an endpoint (as `mockdev endpoint remove -f`)',
    params: ENDPOINT_PARAMS,
    response: { schema: EndpointSchema, description: 'The endpoint removed' },
    handle: ({ ctx, params }) => removeEndpoint(ctx, params.project!, params.endpoint!),
  }),
  defineRoute({
    method: 'GET',
    path: `${ONE}/snippets`,
    tag: 'Endpoints',
    summary: 'Copy as code: curl, fetch, axios and Python calls of the endpoint (as `mockdev endpoint code`)',
    description:
      'Each calls the endpoint on its project’s running server (else http://127.0.0.1:<project port>) with example path parameter values, and the captured headers and body of a cURL import (a POST, PUT or PATCH sends {} otherwise).',
    params: ENDPOINT_PARAMS,
    response: { schema: SnippetsSchema, description: 'The snippets, one text per language' },
    handle: async ({ ctx, params }) =>
      (await endpointSnippets(ctx, params.project!, params.endpoint!)).snippets,
  }),
];
