import * as z from 'zod';
import {
  addEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  updateEndpoint,
} from '../../app/endpoints.js';
import {
  EndpointInputSchema,
  EndpointPatchSchema,
  EndpointSchema,
  type Endpoint,
} from '../../core/model/endpoint.js';
import { jsonBodyWarning, variationJsonBodyWarning } from '../../core/model/json-body.js';
import {
  ADDITIVE,
  DESTRUCTIVE,
  ENDPOINT_ALIASES,
  PROJECT_ALIASES,
  READ_ONLY,
  UPDATE,
  defineTool,
  endpointIdField,
  projectIdField,
} from './define.js';

const DATA_DIR_ONLY = { dataDirOnly: true } as const;

export const endpointLine = (e: Endpoint) =>
  `${e.method} ${e.path} -> ${e.status} "${e.name}" (id ${e.id})${e.enabled ? '' : ' [disabled]'}`;

/** Warnings for bodies that are not JSON under a JSON content type (the core's rule), as summary lines. */
function bodyWarnings(e: Endpoint): string {
  const warnings = [
    jsonBodyWarning(e, 'The body'),
    ...e.variations.map((v) => variationJsonBodyWarning(e, v, `The body of variation "${v.name}"`)),
  ].filter((w): w is string => w !== null);
  return warnings.map((w) => `\nwarning: ${w} (a mock may send broken JSON on purpose).`).join('');
}

const ENDPOINT_REF_ALIASES = { ...PROJECT_ALIASES, ...ENDPOINT_ALIASES, id: 'endpointId' };

export const listEndpointsTool = defineTool({
  name: 'list_endpoints',
  title: 'List endpoints',
  category: 'endpoint',
  description:
    'List the mock endpoints of a project (method, path, status, response, enabled). Use enabledOnly to see only the endpoints the server answers with.',
  input: z.object({
    projectId: projectIdField,
    enabledOnly: z.boolean().default(false).describe('Only list enabled endpoints (default false).'),
  }),
  output: z.object({
    endpoints: z.array(EndpointSchema).describe('Endpoints of the project, in their stored order.'),
  }),
  hints: READ_ONLY,
  aliases: { ...PROJECT_ALIASES, id: 'projectId', enabled_only: 'enabledOnly' },
  async run(ctx, args) {
    const endpoints = await listEndpoints(ctx, args.projectId, {
      enabledOnly: args.enabledOnly,
      ...DATA_DIR_ONLY,
    });
    const summary = endpoints.length
      ? `${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}:\n${endpoints.map((e) => `- ${endpointLine(e)}`).join('\n')}`
      : args.enabledOnly
        ? 'No enabled endpoints. Call with enabledOnly false to see the disabled ones.'
        : 'No endpoints. Add one with create_endpoint or import_openapi.';
    return { summary, data: { endpoints } };
  },
});

export const createEndpointTool = defineTool({
  name: 'create_endpoint',
  title: 'Create endpoint',
  category: 'endpoint',
  description:
    'Add a mock endpoint to a project: the mock server then answers METHOD path with the given status, headers and body. ' +
    'Defaults: method GET, status 200, delay 0, enabled, content type application/json. ' +
    'Method + path must not clash with an existing endpoint ({id} and :id count as the same).',
  // The fields' words are the core's (core/model/descriptions.ts), as in the admin API and the CLI.
  input: z.object({ projectId: projectIdField, ...EndpointInputSchema.shape }),
  output: EndpointSchema,
  hints: ADDITIVE,
  aliases: { ...PROJECT_ALIASES, statusCode: 'status', content_type: 'contentType', response: 'body' },
  async run(ctx, { projectId, ...input }) {
    const endpoint = await addEndpoint(ctx, projectId, input, DATA_DIR_ONLY);
    return {
      summary: `Created endpoint ${endpointLine(endpoint)}.${bodyWarnings(endpoint)}`,
      data: endpoint,
    };
  },
});

export const getEndpointTool = defineTool({
  name: 'get_endpoint',
  title: 'Get endpoint',
  category: 'endpoint',
  description: 'Show one endpoint of a project with its full response definition.',
  input: z.object({ projectId: projectIdField, endpointId: endpointIdField }),
  output: EndpointSchema,
  hints: READ_ONLY,
  aliases: ENDPOINT_REF_ALIASES,
  async run(ctx, args) {
    const endpoint = await getEndpoint(ctx, args.projectId, args.endpointId, DATA_DIR_ONLY);
    return { summary: endpointLine(endpoint), data: endpoint };
  },
});

export const updateEndpointTool = defineTool({
  name: 'update_endpoint',
  title: 'Update endpoint',
  category: 'endpoint',
  description:
    'Change fields of an endpoint: give only the fields to change (e.g. {"status": 500} or {"enabled": false}); the others keep their values. ' +
    'Changes take effect on the next request, without restarting the mock server.',
  input: z.object({ projectId: projectIdField, endpointId: endpointIdField, ...EndpointPatchSchema.shape }),
  output: EndpointSchema,
  hints: UPDATE,
  aliases: { ...ENDPOINT_REF_ALIASES, statusCode: 'status', content_type: 'contentType' },
  async run(ctx, { projectId, endpointId, ...patch }) {
    const endpoint = await updateEndpoint(ctx, projectId, endpointId, patch, DATA_DIR_ONLY);
    const touched = ['body', 'contentType', 'variations'].some((k) => k in patch);
    return {
      summary: `Updated endpoint ${endpointLine(endpoint)}.${touched ? bodyWarnings(endpoint) : ''}`,
      data: endpoint,
    };
  },
});

export const deleteEndpointTool = defineTool({
  name: 'delete_endpoint',
  title: 'Delete endpoint',
  category: 'endpoint',
  description: 'Remove an endpoint from a project. This cannot be undone. Returns the removed endpoint.',
  input: z.object({ projectId: projectIdField, endpointId: endpointIdField }),
  output: EndpointSchema,
  hints: DESTRUCTIVE,
  aliases: ENDPOINT_REF_ALIASES,
  async run(ctx, args) {
    const endpoint = await removeEndpoint(ctx, args.projectId, args.endpointId, DATA_DIR_ONLY);
    return { summary: `Deleted endpoint ${endpointLine(endpoint)}.`, data: endpoint };
  },
});

export const ENDPOINT_TOOLS = [
  listEndpointsTool,
  createEndpointTool,
  getEndpointTool,
  updateEndpointTool,
  deleteEndpointTool,
];
