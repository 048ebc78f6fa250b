import { inheritedFields } from '../../core/model/variation-response.js';
import { endpointKey } from '../../core/match/route-key.js';
import {
  CapturedRequestSchema,
  ProxySettingsSchema,
  type Endpoint,
  type EndpointInput,
  type Variation,
} from '../../core/model/endpoint.js';
import { DelaySchema, HeadersSchema, StatusTextSchema } from '../../core/model/fields.js';

/**
 * The endpoint fields OpenAPI has no word for, written by the export as `x-mockdev-*` extensions
 * of the operation and read back by the import, so that import(export(P)) gives P's endpoints
 * back field by field (docs/import-export.md). Beside the older extensions (status, delay,
 * enabled, proxy, variations, rules, mode: export.ts and import.ts) these are:
 *   - `x-mockdev-path`: the path as written when it is not the `{id}` form (`/users/:id`);
 *   - `x-mockdev-status-text`, `x-mockdev-templating: false`, `x-mockdev-headers` (the exact
 *     headers, when the response's documented headers would not give them back: two responses
 *     sharing a status, a `Content-Type` header);
 *   - `x-mockdev-kind: mock` beside `x-mockdev-proxy` (a proxy made a mock again keeps its
 *     settings), and the proxy's `timeoutMs`;
 *   - `x-mockdev-active-variation`: the active variation's name;
 *   - `x-mockdev-request`: what a cURL import captured;
 *   - `x-mockdev-variation-fields`: by variation name, its status text, delay, templating,
 *     exact headers where those need saying, and `inherits` (`body`, `contentType`: what it
 *     takes from the endpoint; its example shows what it sends, the endpoint's body).
 * Pure.
 */

type Obj = Record<string, unknown>;

/**
 * Marks what the export declares only because OpenAPI wants it (an undeclared path parameter, a
 * header the import kept no definition of; on an operation: an operationId made up from the
 * name): an import does not keep it among the OpenAPI facts.
 */
export const GENERATED = 'x-mockdev-generated';
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether two header maps hold the same names (any case) and values. */
function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const norm = (h: Record<string, string>) =>
    Object.entries(h)
      .map(([k, v]) => `${k.toLowerCase()}\n${v}`)
      .sort()
      .join('\n\n');
  return norm(a) === norm(b);
}

/** The headers an import reads from an exported response: each documented one's example. */
function documentedHeaders(response: Obj | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObj(response) || !isObj(response.headers)) return out;
  for (const [name, h] of Object.entries(response.headers))
    if (isObj(h) && typeof h.example === 'string' && name.toLowerCase() !== 'content-type')
      out[name] = h.example;
  return out;
}

/** Writes the fields of `e` that the rest of the export does not carry onto its operation. */
export function writeMockdevFields(
  e: Endpoint,
  templatePath: string,
  responses: Record<string, Obj>,
  operation: Obj,
): void {
  if (e.path !== templatePath) operation['x-mockdev-path'] = e.path;
  if (e.statusText !== undefined) operation['x-mockdev-status-text'] = e.statusText;
  if (e.templating === false) operation['x-mockdev-templating'] = false;
  if (!sameHeaders(e.headers, documentedHeaders(responses[String(e.status)])))
    operation['x-mockdev-headers'] = e.headers;
  if (e.proxy) {
    operation['x-mockdev-proxy'] = {
      target: e.proxy.target,
      record: e.proxy.record,
      ...(e.proxy.timeoutMs !== undefined ? { timeoutMs: e.proxy.timeoutMs } : {}),
    };
    if (e.kind === 'mock') operation['x-mockdev-kind'] = 'mock';
  }
  const active = e.variations.find((v) => v.id === e.activeVariationId);
  if (active) operation['x-mockdev-active-variation'] = active.name;
  if (e.request) operation['x-mockdev-request'] = e.request;
  const fields: Record<string, Obj> = {};
  for (const v of e.variations) {
    const f: Obj = {};
    if (v.statusText !== undefined) f.statusText = v.statusText;
    if (typeof v.delay === 'number' && v.delay > 0) f.delay = v.delay;
    if (v.templating === false) f.templating = false;
    if (!sameHeaders(v.headers, documentedHeaders(responses[String(v.status)]))) f.headers = v.headers;
    const inherits = inheritedFields(v).filter((name) => name !== 'headers');
    if (inherits.length) f.inherits = inherits;
    if (Object.keys(f).length) fields[v.name] = f;
  }
  if (Object.keys(fields).length) operation['x-mockdev-variation-fields'] = fields;
}

/**
 * Reads what writeMockdevFields wrote into an endpoint input being imported (its variations
 * already built); a value that is not valid is left out.
 */
export function readMockdevFields(op: Obj, base: EndpointInput, variations: Variation[]): void {
  const path = op['x-mockdev-path'];
  if (typeof path === 'string' && endpointKey('GET', path) === endpointKey('GET', base.path))
    base.path = path;
  const statusText = StatusTextSchema.safeParse(op['x-mockdev-status-text']);
  if (statusText.success && statusText.data) base.statusText = statusText.data;
  if (op['x-mockdev-templating'] === false) base.templating = false;
  const headers = HeadersSchema.safeParse(op['x-mockdev-headers']);
  if (isObj(op['x-mockdev-headers']) && headers.success) base.headers = headers.data;
  const proxy = op['x-mockdev-proxy'];
  const timeout = ProxySettingsSchema.shape.timeoutMs.safeParse(isObj(proxy) ? proxy.timeoutMs : undefined);
  if (base.proxy && timeout.success && timeout.data !== undefined) base.proxy.timeoutMs = timeout.data;
  if (base.proxy && op['x-mockdev-kind'] === 'mock') base.kind = 'mock';
  const request = CapturedRequestSchema.safeParse(op['x-mockdev-request']);
  if (op['x-mockdev-request'] !== undefined && request.success) base.request = request.data;
  const fields = op['x-mockdev-variation-fields'];
  if (isObj(fields)) {
    for (const v of variations) {
      const f = fields[v.name];
      if (!isObj(f)) continue;
      const text = StatusTextSchema.safeParse(f.statusText);
      if (text.success && text.data) v.statusText = text.data;
      const delay = DelaySchema.safeParse(f.delay);
      if (f.delay !== undefined && delay.success) v.delay = delay.data;
      if (f.templating === false) v.templating = false;
      const h = HeadersSchema.safeParse(f.headers);
      if (isObj(f.headers) && h.success) v.headers = h.data;
      // What it takes from the endpoint (the example showed the endpoint's body then).
      if (Array.isArray(f.inherits)) {
        if (f.inherits.includes('body')) delete v.body;
        if (f.inherits.includes('contentType')) delete v.contentType;
      }
    }
  }
  const active = variations.find((v) => v.name === op['x-mockdev-active-variation']);
  if (active) base.activeVariationId = active.id;
}
