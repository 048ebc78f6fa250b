import {
  DEFAULT_CONTENT_TYPE,
  DEFAULT_PROJECT_PORT,
  DEFAULT_PROXY_TIMEOUT_MS,
  DELAY_MAX_MS,
  HTTP_METHODS,
  NAME_MAX,
  PORT_MAX,
  PORT_MIN,
  PROXY_TIMEOUT_MAX_MS,
  PROXY_TIMEOUT_MIN_MS,
  STATUS_MAX,
  STATUS_MIN,
  STATUS_TEXT_MAX,
} from './limits.js';

/**
 * What each field of the model means, in words for people and assistants. The schemas carry
 * them (`described` in describe.ts), so the MCP tools' input schemas and the admin API's
 * OpenAPI document show them; the CLI's option help takes the same words (cli/help.ts). Plain
 * text and no zod: the CLI reads this at start.
 */

/** A field's words: what it is, and what it is when a new resource leaves it out. */
export interface FieldDoc {
  text: string;
  default?: string;
}

export type FieldDocs = Readonly<Record<string, FieldDoc>>;

/** The same words without the defaults (a change leaves out what it does not change). */
export const withoutDefaults = <D extends FieldDocs>(docs: D): { [K in keyof D]: FieldDoc } =>
  Object.fromEntries(Object.entries(docs).map(([k, d]) => [k, { text: d.text }])) as {
    [K in keyof D]: FieldDoc;
  };

const NAME_RULE = `free text up to ${NAME_MAX} characters, without "/", "\\" or control characters`;

export const PROXY_DOCS = {
  target: {
    text: 'Base URL requests are forwarded to, e.g. https://api.example.com (or a template such as {{env.API_URL}})',
  },
  record: { text: 'Store forwarded responses as recordings', default: 'false' },
  timeoutMs: {
    text: `Milliseconds to wait for the target (its response headers, then each pause in its body) before answering 504, ${PROXY_TIMEOUT_MIN_MS}-${PROXY_TIMEOUT_MAX_MS}`,
    default: String(DEFAULT_PROXY_TIMEOUT_MS),
  },
} as const satisfies FieldDocs;

/** A change to the proxy settings: merged into the stored ones. */
export const PROXY_PATCH_DOCS = {
  target: { text: `${PROXY_DOCS.target.text}; needed only when the endpoint has no target yet` },
  record: { text: PROXY_DOCS.record.text },
  timeoutMs: {
    text: `${PROXY_DOCS.timeoutMs.text}; null: back to the default (${DEFAULT_PROXY_TIMEOUT_MS})`,
  },
} as const satisfies FieldDocs;

export const RULE_DOCS = {
  source: {
    text: 'Where the value comes from: "query" (query parameter), "header" (request header, name case-insensitive), "param" (path parameter such as id of /users/{id}) or "body" (field of a JSON request body)',
  },
  key: {
    text: 'Parameter or header name, or for "body" a dotted path into the JSON body such as user.id or items.0.sku',
  },
  op: {
    text: '"equals": the value is exactly `value` (JSON numbers and booleans compare as their text, e.g. "2", "true"); "regex": the regular expression `value` matches it (unanchored; JavaScript syntax without backreferences or lookaround, run in linear time; (?i) for any case); "exists": it is present (no value)',
  },
  value: { text: 'What "equals" compares with, or the regular expression of "regex"; omit for "exists"' },
} as const satisfies FieldDocs;

/** A rule as the CLI writes it (parseRule in rules.ts reads it for every adapter). */
export const RULE_TEXT_DOC: FieldDoc = {
  text: 'A rule as text, <source>.<key><op><value>: source query, header, param or body (a dotted path into a JSON body); op = (equals), ~ (regex) or ? (exists, no value), no other; e.g. query.page=2, header.x-role~^adm, body.user.id?; a value that starts with = or ~ takes a backslash: query.q=\\=x',
};

export const CAPTURED_REQUEST_DOCS = {
  headers: { text: 'Request headers captured for reference, name -> value' },
  query: { text: 'Query parameters captured for reference; repeated keys give arrays' },
  body: { text: 'Request body captured for reference, or null' },
  auth: {
    text: 'Captured authentication: {type:"basic",username} or {type:"bearer"}, or null. A password or token is never stored',
  },
} as const satisfies FieldDocs;

/** The delay distributions (core/model/fields.ts DelaySchema), in words. */
const DELAY_DISTRIBUTIONS =
  'a distribution sampled per request: {"uniform": [min, max]} or {"lognormal": {"median": ms, "sigma": s}} (sigma 0-5), capped at 10 minutes';
const FAULT_TEXT =
  'A fault instead of a plain answer: "reset" (TCP reset, no answer), "empty" (the connection closes, nothing sent), "garbage" (random bytes that are not HTTP, then close) or "drip:<bytes-per-second>" (the answer sent slowly, in chunks)';
const FAULT_RATE_TEXT = 'The share of requests that get the fault, 0-1 (0.2: one in five, at random)';

export const VARIATION_DOCS = {
  id: { text: 'Variation id, unique within the endpoint; activeVariationId refers to it' },
  name: { text: `Variation name, ${NAME_RULE}; unique within the endpoint (case-insensitive)` },
  status: { text: `HTTP status code of this variation, ${STATUS_MIN}-${STATUS_MAX}` },
  statusText: {
    text: `Reason phrase sent with this variation's status instead of the standard one (e.g. "Gone Fishing"); may be a template. One line of printable ASCII or Latin-1, at most ${STATUS_TEXT_MAX} characters`,
    default: 'the standard one',
  },
  headers: {
    text: "Response headers of this variation, name -> value, sent over the endpoint's headers (one of the same name, any case, replaces the endpoint's)",
    default: "the endpoint's alone",
  },
  body: {
    text: 'Response body text of this variation; may be a template. An explicit "" sends an empty body',
    default: "the endpoint's, whatever it is when a request comes",
  },
  contentType: {
    text: 'Content-Type of this variation',
    default: "the endpoint's, whatever it is when a request comes",
  },
  delay: {
    text: `Delay before this variation answers: milliseconds 0-${DELAY_MAX_MS}, or ${DELAY_DISTRIBUTIONS}`,
    default: '0',
  },
  fault: { text: FAULT_TEXT, default: 'none' },
  faultRate: { text: FAULT_RATE_TEXT, default: '1' },
  templating: {
    text: "false: this variation's status text, body and header values are sent as written, {{ included (what imports do with a document's text). true: {{…}} templates render",
    default: 'true',
  },
  rules: {
    text: 'When mode is "rules" (the default), this variation answers a request that matches ALL of these rules (the first such variation in list order wins). Omitted or empty: never chosen by rules, only when active or named by the X-Mockdev-Variation request header',
  },
} as const satisfies FieldDocs;

/** A new variation (addVariation): what it is when a field is left out. */
export const VARIATION_INPUT_DOCS = {
  ...VARIATION_DOCS,
  status: { text: VARIATION_DOCS.status.text, default: "the endpoint's" },
} as const satisfies FieldDocs;

/** A change to a variation (updateVariation): only the fields given change. */
export const VARIATION_PATCH_DOCS = {
  ...withoutDefaults(VARIATION_DOCS),
  statusText: { text: `${VARIATION_DOCS.statusText.text}; "" removes it (the standard one again)` },
  headers: {
    text: 'Response headers to add or replace, name -> value (names case-insensitive); a null value removes that header. Headers not named are kept',
  },
  rules: { text: `${VARIATION_DOCS.rules.text}. Replaces the list ([] clears it)` },
  inherit: {
    text: "Fields to take from the endpoint again, dropping the variation's own: body, contentType, headers (a null body or contentType does the same)",
  },
} as const satisfies FieldDocs;

export const ENDPOINT_DOCS = {
  id: { text: 'Endpoint id, unique within the project' },
  name: { text: `Endpoint name, ${NAME_RULE}`, default: 'generated from method and path' },
  method: { text: `HTTP method, one of ${HTTP_METHODS.join(', ')}, in any case`, default: 'GET' },
  path: {
    text: 'URL path such as /api/users or /api/users/{id}; parameters as {id} or :id; no query string. A proxy endpoint may end in /* (e.g. /api/*) to forward the whole subtree',
  },
  status: { text: `HTTP status code of the response, ${STATUS_MIN}-${STATUS_MAX}`, default: '200' },
  statusText: {
    text: `Reason phrase sent with the status instead of the standard one, e.g. "Created {{params.id}}" (WireMock's statusMessage); may be a template. One line of printable ASCII or Latin-1, at most ${STATUS_TEXT_MAX} characters`,
    default: 'the standard one, e.g. "201 Created"',
  },
  headers: { text: 'Response headers, an object of name -> value, e.g. {"X-Total-Count": "2"}' },
  body: { text: 'Response body text, e.g. a JSON document as a string; may be a template', default: 'empty' },
  contentType: { text: 'Content-Type of the response', default: DEFAULT_CONTENT_TYPE },
  delay: {
    text: `Delay before the response is sent: milliseconds 0-${DELAY_MAX_MS}, or ${DELAY_DISTRIBUTIONS}`,
    default: '0',
  },
  fault: { text: FAULT_TEXT, default: 'none' },
  faultRate: { text: FAULT_RATE_TEXT, default: '1' },
  templating: {
    text: 'false: the status text, body and header values are sent as written, {{ included (what imports do with a document\'s text, Mockoon\'s "disable templating"). true: {{…}} templates render',
    default: 'true',
  },
  enabled: {
    text: 'Whether the mock server answers with this endpoint; false disables it',
    default: 'true',
  },
  kind: {
    text: '"mock" answers with the endpoint\'s own response; "proxy" forwards the request to proxy.target',
    default: 'mock',
  },
  proxy: {
    text: 'Proxy settings, required when kind is "proxy": {target, record, timeoutMs}. The request goes to target (a wildcard path: target + the rest of the path; otherwise target + the request path)',
  },
  variations: {
    text: 'Alternative responses, each {id, name, status, statusText, headers, body, contentType, delay, rules}; names unique within the endpoint. Which answers: the one a request names in the X-Mockdev-Variation header (name or id); else the active one (activeVariationId); else by mode',
  },
  activeVariationId: { text: 'Id of the variation that answers every request instead of selection by mode' },
  mode: {
    text: 'How a response is picked when no variation is active or named: "rules" (the first variation whose rules all match, else the default response), "sequential" (the default response, then each variation in order, round and round) or "random" (any of them, equally likely)',
    default: 'rules',
  },
  request: { text: 'What a cURL import captured of the original request (kept for reference only)' },
  openapi: {
    text: 'What an OpenAPI import kept of the operation, written back by an OpenAPI export: {operationId, parameters, responseHeaders}',
  },
} as const satisfies FieldDocs;

const removes = (doc: FieldDoc, what = 'removes it'): FieldDoc => ({ text: `${doc.text}. null ${what}` });

/** A change to an endpoint: only the fields given change; null removes an optional one. */
export const ENDPOINT_PATCH_DOCS = {
  ...withoutDefaults(ENDPOINT_DOCS),
  statusText: { text: `${ENDPOINT_DOCS.statusText.text}. null or "" removes it (the standard one again)` },
  headers: {
    text: 'Response headers to add or replace, name -> value (a header of the same name in any case is replaced); a null value removes that header. Headers not named are kept',
  },
  proxy: {
    text: 'Proxy settings to change, merged into the stored ones: the fields given replace theirs, the others are kept (e.g. {"record": true}). null removes them',
  },
  variations: { text: `${ENDPOINT_DOCS.variations.text}. Replaces the whole list` },
  activeVariationId: removes(ENDPOINT_DOCS.activeVariationId, 'goes back to selection by mode'),
  mode: removes(ENDPOINT_DOCS.mode, 'goes back to "rules"'),
  request: removes(ENDPOINT_DOCS.request),
  fault: removes(ENDPOINT_DOCS.fault, 'removes it (no fault)'),
  faultRate: removes(ENDPOINT_DOCS.faultRate, 'goes back to 1'),
} as const satisfies FieldDocs;

export const PROJECT_DOCS = {
  name: {
    text: `Project name, ${NAME_RULE}; unique among the projects of the data directory (case-insensitive)`,
  },
  description: { text: 'Free-text description of the project', default: 'empty' },
  port: {
    text: `Port the project's mock server listens on, ${PORT_MIN}-${PORT_MAX}`,
    default: `the lowest free one from the defaultPort setting (${DEFAULT_PROJECT_PORT}) up`,
  },
  tls: {
    text: 'Serve the mock server over HTTPS (HTTP/1.1 and HTTP/2) with the certificate "mockdev tls generate" made, when serve is given no certificate of its own',
    default: 'false (HTTP)',
  },
} as const satisfies FieldDocs;

export const ENVIRONMENT_DOCS = {
  name: { text: 'Environment name, unique in its project or among the global environments' },
  project: {
    text: 'The project it belongs to',
    default: 'none, a global environment that every project may use',
  },
  variables: { text: 'Plain variables, KEY -> value, e.g. { "API_URL": "https://…" }' },
  secrets: { text: 'Secrets with their values (masked in every answer)' },
  secretKeys: { text: 'Keys of `variables` to keep as secrets' },
  unset: { text: 'Variables to remove (before the others are set)' },
} as const satisfies FieldDocs;
