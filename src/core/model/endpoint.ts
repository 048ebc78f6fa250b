import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { maskCredentialHeaders } from './credentials.js';
import {
  ContentTypeSchema,
  DelaySchema,
  HeaderNameSchema,
  HeadersSchema,
  HeaderValueSchema,
  MethodSchema,
  NameSchema,
  PathSchema,
  RequestHeadersSchema,
  StatusSchema,
  StatusTextSchema,
} from './fields.js';
import { wildcardProblem } from '../match/router.js';
import { proxyTargetProblem } from '../proxy/target.js';
import { PROXY_TIMEOUT_MAX_MS, PROXY_TIMEOUT_MIN_MS } from './limits.js';
import { described } from './describe.js';
import {
  CAPTURED_REQUEST_DOCS,
  ENDPOINT_DOCS,
  ENDPOINT_PATCH_DOCS,
  PROXY_DOCS,
  PROXY_PATCH_DOCS,
  VARIATION_DOCS,
} from './descriptions.js';
import { OpenApiOperationSchema } from './openapi-meta.js';
import { SelectionModeSchema, StoredRulesSchema } from './rules.js';
import { FaultRateSchema, FaultSchema } from './fault.js';

export const EndpointKindSchema = z.enum(['mock', 'proxy']);
export type EndpointKind = z.infer<typeof EndpointKindSchema>;

/** A proxy target as given to be saved: an http: or https: URL, or a template (core/proxy/target.ts). */
const ProxyTargetSchema = z.string().superRefine((t, ctx) => {
  const problem = proxyTargetProblem(t);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: t });
});

const proxySettingsFields = z.object({
  /** Base URL the request is forwarded to, e.g. https://api.example.com */
  target: ProxyTargetSchema,
  /** Whether forwarded responses are stored as recordings. */
  record: z.boolean().default(false),
  /**
   * Milliseconds to wait for the target (its response headers, then each pause in its body)
   * before answering 504. Default DEFAULT_PROXY_TIMEOUT_MS (30 s).
   */
  timeoutMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(PROXY_TIMEOUT_MIN_MS, `must be at least ${PROXY_TIMEOUT_MIN_MS} ms`)
    .max(PROXY_TIMEOUT_MAX_MS, `must be at most ${PROXY_TIMEOUT_MAX_MS} ms (1 hour)`)
    .optional(),
});
export const ProxySettingsSchema = described(proxySettingsFields, PROXY_DOCS);
export type ProxySettings = z.infer<typeof ProxySettingsSchema>;

/**
 * Proxy settings as stored: any target text loads (a hand edit, an earlier mockdev); one that
 * cannot be forwarded to answers a problem without sending anything (runtime/proxy.ts).
 */
export const StoredProxySettingsSchema = ProxySettingsSchema.extend({
  target: z.string().describe(ProxySettingsSchema.shape.target.description ?? PROXY_DOCS.target.text),
});

export { DEFAULT_PROXY_TIMEOUT_MS } from './limits.js';

/**
 * Whether a response's status text, body and header values are templates (docs/templates.md).
 * `false`: they are sent as written, `{{` included; this is what an import gives text that comes
 * from a document or a command (data, not a template) unless told to keep templates. Absent:
 * templates render. Stored only when false (`true` removes the key).
 */
export const TemplatingSchema = z.boolean();

/**
 * An alternative response of an endpoint. Which one answers (runtime/variations.ts): the one a
 * request names in X-Mockdev-Variation, else the active one, else per the endpoint's `mode`.
 */
const variationFields = z.object({
  id: z.string().min(1),
  name: NameSchema,
  status: StatusSchema,
  /** The reason phrase sent with the status (may be a template); absent: the standard one. */
  statusText: StatusTextSchema.optional(),
  /** Sent over the endpoint's headers (same name, any case: this one); none: the endpoint's alone. */
  headers: HeadersSchema.default({}),
  /** Absent: the endpoint's body, at run time (DECISIONS "Trust and data"). */
  body: z.string().optional(),
  /** Absent: the endpoint's content type, at run time. */
  contentType: ContentTypeSchema.optional(),
  templating: TemplatingSchema.optional(),
  delay: DelaySchema.default(0),
  /** A fault instead of a plain answer (core/model/fault.ts); its own, like the delay. */
  fault: FaultSchema.optional(),
  /** The share of requests that get the fault; absent: 1 (every one). */
  faultRate: FaultRateSchema.optional(),
  /** All must match for this variation to answer in mode `rules`; absent or empty: never by rules. */
  rules: StoredRulesSchema.optional(),
});
export const VariationSchema = described(variationFields, VARIATION_DOCS);
export type Variation = z.infer<typeof VariationSchema>;

/** An endpoint's variations: names unique (case-insensitive), as are ids. */
export const VariationListSchema = z.array(VariationSchema).superRefine((variations, ctx) => {
  const names = new Set<string>();
  const ids = new Set<string>();
  variations.forEach((v, i) => {
    if (names.has(v.name.toLowerCase()))
      ctx.addIssue({
        code: 'custom',
        message: 'another variation has this name',
        path: [i, 'name'],
        input: v.name,
      });
    if (ids.has(v.id))
      ctx.addIssue({
        code: 'custom',
        message: 'another variation has this id',
        path: [i, 'id'],
        input: v.id,
      });
    names.add(v.name.toLowerCase());
    ids.add(v.id);
  });
});

export const BasicAuthSchema = z.object({
  type: z.literal('basic'),
  username: z.string(),
  password: z.string(),
});
export const BearerAuthSchema = z.object({ type: z.literal('bearer'), token: z.string() });
export const AuthSchema = z.discriminatedUnion('type', [BasicAuthSchema, BearerAuthSchema]);
export type Auth = z.infer<typeof AuthSchema>;

/**
 * The credential a stored endpoint keeps: its kind and user name, never the password or token
 * (SPEC 5.4). Files written before this hold them; they are dropped when read.
 */
export const CapturedAuthSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('basic'), username: z.string() }),
  z.object({ type: z.literal('bearer') }),
]);
export type CapturedAuth = z.infer<typeof CapturedAuthSchema>;

/** What a cURL import captured of the original request, kept for reference (credentials masked). */
const capturedRequestFields = z.object({
  headers: RequestHeadersSchema.overwrite((h) => maskCredentialHeaders(h)).default({}),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  body: z.string().nullable().default(null),
  auth: CapturedAuthSchema.nullable().default(null),
});
export const CapturedRequestSchema = described(capturedRequestFields, CAPTURED_REQUEST_DOCS);
export type CapturedRequest = z.infer<typeof CapturedRequestSchema>;

const endpointFields = z.object({
  id: z.string().min(1),
  name: NameSchema,
  method: MethodSchema,
  path: PathSchema,
  status: StatusSchema,
  /** The reason phrase sent with the status (may be a template); absent: the standard one. */
  statusText: StatusTextSchema.optional(),
  headers: HeadersSchema.default({}),
  body: z.string().default(''),
  contentType: ContentTypeSchema.default('application/json'),
  templating: TemplatingSchema.optional(),
  /** Milliseconds before the response is sent. */
  delay: DelaySchema.default(0),
  /** A fault instead of a plain answer (core/model/fault.ts). */
  fault: FaultSchema.optional(),
  /** The share of requests that get the fault; absent: 1 (every one). */
  faultRate: FaultRateSchema.optional(),
  enabled: z.boolean().default(true),
  kind: EndpointKindSchema.default('mock'),
  proxy: StoredProxySettingsSchema.optional(),
  variations: VariationListSchema.default([]),
  activeVariationId: z.string().optional(),
  /** How a variation is picked when none is active or named by the request; absent: `rules`. */
  mode: SelectionModeSchema.optional(),
  request: CapturedRequestSchema.optional(),
  /** What an OpenAPI import kept of the operation (operationId, parameters, header definitions). */
  openapi: OpenApiOperationSchema.optional(),
});
export const EndpointSchema = described(endpointFields, ENDPOINT_DOCS);
export type Endpoint = z.infer<typeof EndpointSchema>;

/** What a caller gives to create an endpoint: everything but the id, with defaults. */
export const EndpointInputSchema = described(
  EndpointSchema.omit({ id: true }).extend({
    // Saving checks the target (http: or https:); the stored shape takes any (StoredProxySettingsSchema).
    proxy: ProxySettingsSchema.optional(),
    name: NameSchema.optional(),
    method: MethodSchema.default('GET'),
    status: StatusSchema.default(200),
  }),
  ENDPOINT_DOCS,
);
export type EndpointInput = z.input<typeof EndpointInputSchema>;

/**
 * A change to an endpoint's proxy settings, merged into the stored ones: each field given
 * replaces its value, the others are kept (`timeoutMs: null`: back to the default). A target is
 * needed only when the endpoint has no proxy settings yet.
 */
const proxySettingsPatchFields = z.object({
  target: proxySettingsFields.shape.target.optional(),
  record: z.boolean().optional(),
  timeoutMs: proxySettingsFields.shape.timeoutMs.nullable(),
});
export const ProxySettingsPatchSchema = described(proxySettingsPatchFields, PROXY_PATCH_DOCS);
export type ProxySettingsPatch = z.input<typeof ProxySettingsPatchSchema>;

/**
 * A change of the proxy settings, whoever sends it (CLI, MCP, admin API, UI): the fields given
 * replace the stored ones, the others are kept; `timeoutMs: null` goes back to the default. The
 * result needs a target: the one given, or the one stored.
 */
export function mergeProxySettings(
  endpoint: Pick<Endpoint, 'name' | 'proxy'>,
  change: z.output<typeof ProxySettingsPatchSchema>,
): ProxySettings {
  const target = change.target ?? endpoint.proxy?.target;
  if (target === undefined) {
    throw new MockdevError('INVALID_ARGUMENT', `Endpoint "${endpoint.name}" has no proxy target yet`, {
      hint: 'Give proxy.target with the other proxy settings, e.g. https://api.example.com',
      details: { field: 'proxy.target' },
    });
  }
  const { timeoutMs, ...earlier } = endpoint.proxy ?? { record: false };
  const timeout = change.timeoutMs === undefined ? timeoutMs : (change.timeoutMs ?? undefined);
  return {
    ...earlier,
    target,
    record: change.record ?? earlier.record,
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
  };
}

/** A partial change to an endpoint; `null` on an optional field removes it. */
const endpointPatchFields = z
  .object({
    name: NameSchema,
    method: MethodSchema,
    path: PathSchema,
    status: StatusSchema,
    /** `null` or `""` removes it (the standard reason phrase again). */
    statusText: StatusTextSchema.nullable(),
    /** Merged into the endpoint's headers (names case-insensitive); `null` removes that header. */
    headers: z.record(HeaderNameSchema, HeaderValueSchema.nullable()),
    body: z.string(),
    contentType: ContentTypeSchema,
    /** true: templates render again (the key is removed); false: sent as written. */
    templating: TemplatingSchema,
    delay: DelaySchema,
    /** `null` removes it (no fault). */
    fault: FaultSchema.nullable(),
    /** `null` removes it (every request gets the fault). */
    faultRate: FaultRateSchema.nullable(),
    enabled: z.boolean(),
    kind: EndpointKindSchema,
    proxy: ProxySettingsPatchSchema.nullable(),
    variations: VariationListSchema,
    activeVariationId: z.string().nullable(),
    mode: SelectionModeSchema.nullable(),
    request: CapturedRequestSchema.nullable(),
  })
  .partial();
export const EndpointPatchSchema = described(endpointPatchFields, ENDPOINT_PATCH_DOCS);
export type EndpointPatch = z.input<typeof EndpointPatchSchema>;

/** endpoints.json: the endpoints, each following the endpoint rules (a wildcard only on a proxy). */
export const EndpointListSchema = z.array(EndpointSchema).superRefine((list, ctx) => {
  list.forEach((e, i) => {
    const problem = wildcardProblem(e.kind, e.path);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [i, 'path'] });
  });
});
