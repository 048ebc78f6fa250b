import * as z from 'zod';
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
import { OpenApiOperationSchema } from './openapi-meta.js';
import { RulesSchema, SelectionModeSchema } from './rules.js';

export const EndpointKindSchema = z.enum(['mock', 'proxy']);
export type EndpointKind = z.infer<typeof EndpointKindSchema>;

export const ProxySettingsSchema = z.object({
  /** Base URL the request is forwarded to, e.g. https://api.example.com */
  target: z.string().refine((t) => t.includes('{{') || z.string().url().safeParse(t).success, {
    message:
      'must be an absolute URL such as https://api.example.com (or a template such as {{env.API_URL}})',
  }),
  /** Whether forwarded responses are stored as recordings. */
  record: z.boolean().default(false),
  /**
   * Milliseconds to wait for the target (its response headers, then each pause in its body)
   * before answering 504. Default DEFAULT_PROXY_TIMEOUT_MS (30 s).
   */
  timeoutMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1, 'must be at least 1 ms')
    .max(3_600_000, 'must be at most 3600000 ms (1 hour)')
    .optional(),
});
export type ProxySettings = z.infer<typeof ProxySettingsSchema>;

/** How long a proxy endpoint waits for its target unless proxy.timeoutMs says otherwise. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

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
export const VariationSchema = z.object({
  id: z.string().min(1),
  name: NameSchema,
  status: StatusSchema,
  /** The reason phrase sent with the status (may be a template); absent: the standard one. */
  statusText: StatusTextSchema.optional(),
  headers: HeadersSchema.default({}),
  body: z.string().default(''),
  contentType: ContentTypeSchema.default('application/json'),
  templating: TemplatingSchema.optional(),
  delay: DelaySchema.default(0),
  /** All must match for this variation to answer in mode `rules`; absent or empty: never by rules. */
  rules: RulesSchema.optional(),
});
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
export const CapturedRequestSchema = z.object({
  headers: RequestHeadersSchema.overwrite((h) => maskCredentialHeaders(h)).default({}),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  body: z.string().nullable().default(null),
  auth: CapturedAuthSchema.nullable().default(null),
});
export type CapturedRequest = z.infer<typeof CapturedRequestSchema>;

export const EndpointSchema = z.object({
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
  enabled: z.boolean().default(true),
  kind: EndpointKindSchema.default('mock'),
  proxy: ProxySettingsSchema.optional(),
  variations: VariationListSchema.default([]),
  activeVariationId: z.string().optional(),
  /** How a variation is picked when none is active or named by the request; absent: `rules`. */
  mode: SelectionModeSchema.optional(),
  request: CapturedRequestSchema.optional(),
  /** What an OpenAPI import kept of the operation (operationId, parameters, header definitions). */
  openapi: OpenApiOperationSchema.optional(),
});
export type Endpoint = z.infer<typeof EndpointSchema>;

/** What a caller gives to create an endpoint: everything but the id, with defaults. */
export const EndpointInputSchema = EndpointSchema.omit({ id: true }).extend({
  name: NameSchema.optional(),
  method: MethodSchema.default('GET'),
  status: StatusSchema.default(200),
});
export type EndpointInput = z.input<typeof EndpointInputSchema>;

/** A partial change to an endpoint; `null` on an optional field removes it. */
export const EndpointPatchSchema = z
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
    enabled: z.boolean(),
    kind: EndpointKindSchema,
    proxy: ProxySettingsSchema.nullable(),
    variations: VariationListSchema,
    activeVariationId: z.string().nullable(),
    mode: SelectionModeSchema.nullable(),
    request: CapturedRequestSchema.nullable(),
  })
  .partial();
export type EndpointPatch = z.input<typeof EndpointPatchSchema>;

/** endpoints.json: the endpoints, each following the endpoint rules (a wildcard only on a proxy). */
export const EndpointListSchema = z.array(EndpointSchema).superRefine((list, ctx) => {
  list.forEach((e, i) => {
    const problem = wildcardProblem(e.kind, e.path);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [i, 'path'] });
  });
});
