import * as z from 'zod';
import {
  addEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  updateEndpoint,
} from '../../app/endpoints.js';
import {
  CapturedRequestSchema,
  EndpointInputSchema,
  EndpointPatchSchema,
  EndpointSchema,
  ProxySettingsSchema,
  VariationSchema,
  type Endpoint,
} from '../../core/model/endpoint.js';
import { HTTP_METHODS } from '../../core/model/fields.js';
import { jsonBodyWarning } from '../../core/model/json-body.js';
import { checkRules, RuleObjectSchema } from '../../core/model/rules.js';
import {
  ADDITIVE,
  DESTRUCTIVE,
  ENDPOINT_ALIASES,
  PROJECT_ALIASES,
  READ_ONLY,
  UPDATE,
  defineTool,
  described,
  endpointIdField,
  projectIdField,
} from './define.js';

const DATA_DIR_ONLY = { dataDirOnly: true } as const;

export const endpointLine = (e: Endpoint) =>
  `${e.method} ${e.path} -> ${e.status} "${e.name}" (id ${e.id})${e.enabled ? '' : ' [disabled]'}`;

const proxy = described(ProxySettingsSchema, {
  target: 'Base URL requests are forwarded to, e.g. https://api.example.com.',
  record: 'Store forwarded responses as recordings (default false).',
  timeoutMs: 'Milliseconds to wait for the target before answering 504 (default 30000).',
});
const rule = described(RuleObjectSchema, {
  source:
    'Where the value comes from: "query" (query parameter), "header" (request header, name case-insensitive), "param" (path parameter such as id of /users/{id}) or "body" (field of a JSON request body).',
  key: 'Parameter or header name, or for "body" a dotted path into the JSON body such as user.id or items.0.sku.',
  op: '"equals": the value is exactly `value` (JSON numbers and booleans compare as their text, e.g. "2", "true"); "regex": the JavaScript regular expression `value` matches it (unanchored); "exists": it is present (no value).',
  value: 'What "equals" compares with, or the regular expression of "regex"; omit for "exists".',
});
const variation = described(VariationSchema, {
  id: 'Variation id, unique within the endpoint; activeVariationId refers to it.',
  name: 'Variation name.',
  status: 'HTTP status code of this variation, 200-599.',
  statusText:
    'Reason phrase sent with this variation\'s status instead of the standard one (e.g. "Gone Fishing"); may be a template. Omitted: the standard one.',
  headers: 'Response headers of this variation, name -> value.',
  body: 'Response body text of this variation.',
  contentType: 'Content-Type of this variation (default application/json).',
  delay: 'Delay before this variation answers, in milliseconds.',
  templating:
    "false: this variation's status text, body and header values are sent as written, {{ included (what imports do with a document's text). Omitted or true: templates render.",
}).extend({
  rules: z
    .array(rule)
    .superRefine(checkRules)
    .optional()
    .describe(
      'When mode is "rules" (the default), this variation answers a request that matches ALL of these rules (the first such variation in list order wins). Omitted or empty: never chosen by rules, only when active or named by the X-Mockdev-Variation request header.',
    ),
});
const captured = described(CapturedRequestSchema, {
  headers: 'Request headers captured for reference, name -> value.',
  query: 'Query parameters captured for reference; repeated keys give arrays.',
  body: 'Request body captured for reference, or null.',
  auth: 'Captured authentication: {type:"basic",username} or {type:"bearer"}, or null. A password or token is never stored.',
});

/** Words for every endpoint field; the rules come from the core schemas. */
const ENDPOINT_FIELDS = {
  name: 'Endpoint name (free text without "/", "\\" or control characters). Default: generated from method and path.',
  method: `HTTP method, one of ${HTTP_METHODS.join(', ')} (case-insensitive).`,
  path: 'URL path such as /api/users or /api/users/{id}; parameters as {id} or :id. No query string. A proxy endpoint may end in /* (e.g. /api/*) to forward the whole subtree.',
  status: 'HTTP status code of the mock response, 200-599.',
  statusText:
    'Reason phrase sent with the status instead of the standard one, e.g. "Created {{params.id}}" (WireMock\'s statusMessage); may be a template. One line of printable ASCII or Latin-1, at most 200 characters. Omitted: the standard one ("201 Created").',
  headers: 'Response headers, an object of name -> value, e.g. {"X-Total-Count": "2"}.',
  body: 'Response body text, e.g. a JSON document as a string.',
  contentType: 'Content-Type of the response (default application/json).',
  templating:
    'false: the status text, body and header values are sent as written, {{ included (what imports do with a document\'s text, Mockoon\'s "disable templating"). Omitted or true: {{…}} templates render.',
  delay: 'Delay before the response is sent, in milliseconds (0-600000).',
  enabled: 'Whether the mock server answers with this endpoint (default true). Set false to disable it.',
  kind: '"mock" answers with the canned response; "proxy" forwards to proxy.target.',
  proxy:
    'Proxy settings, required when kind is "proxy": {target, record, timeoutMs}. The request goes to target (a wildcard path: target + the rest of the path; otherwise target + the request path).',
  variations:
    'Alternative responses, each {id, name, status, statusText, headers, body, contentType, delay, rules}; names unique within the endpoint. Which answers: the one a request names in the X-Mockdev-Variation header (name or id); else the active one (activeVariationId); else by mode.',
  activeVariationId: 'Id of the variation that answers every request instead of selection by mode.',
  mode: 'How a response is picked when no variation is active or named: "rules" (default: the first variation whose rules all match, else the default response), "sequential" (the default response, then each variation in order, round and round) or "random" (any of them, equally likely).',
  request: 'What a cURL import captured of the original request (kept for reference only).',
  openapi:
    'What an OpenAPI import kept of the operation, written back by export_openapi: {operationId, parameters, responseHeaders}.',
} as const;

const endpointInput = described(EndpointInputSchema, ENDPOINT_FIELDS).extend({
  proxy: proxy.optional().describe(ENDPOINT_FIELDS.proxy),
  variations: z.array(variation).default([]).describe(ENDPOINT_FIELDS.variations),
  request: captured.optional().describe(ENDPOINT_FIELDS.request),
});

const endpointPatch = described(EndpointPatchSchema, {
  ...ENDPOINT_FIELDS,
  name: 'New endpoint name.',
  statusText: `${ENDPOINT_FIELDS.statusText} null or "" removes it.`,
  headers:
    'Response headers to add or replace, name -> value (a header of the same name in any case is replaced); a null value removes that header. Headers not named are kept.',
  proxy: `${ENDPOINT_FIELDS.proxy} null removes it.`,
  activeVariationId: `${ENDPOINT_FIELDS.activeVariationId} null goes back to selection by mode.`,
  mode: `${ENDPOINT_FIELDS.mode} null: back to "rules".`,
  request: `${ENDPOINT_FIELDS.request} null removes it.`,
}).extend({
  proxy: proxy.nullable().optional().describe(`${ENDPOINT_FIELDS.proxy} null removes it.`),
  variations: z
    .array(variation)
    .optional()
    .describe(`${ENDPOINT_FIELDS.variations} Replaces the whole list.`),
  request: captured.nullable().optional().describe(`${ENDPOINT_FIELDS.request} null removes it.`),
});

/** Warnings for bodies that are not JSON under a JSON content type (the core's rule), as summary lines. */
function bodyWarnings(e: Endpoint): string {
  const warnings = [
    jsonBodyWarning(e, 'The body'),
    ...e.variations.map((v) => jsonBodyWarning(v, `The body of variation "${v.name}"`)),
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
  input: z.object({ projectId: projectIdField, ...endpointInput.shape }),
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
  input: z.object({ projectId: projectIdField, endpointId: endpointIdField, ...endpointPatch.shape }),
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
