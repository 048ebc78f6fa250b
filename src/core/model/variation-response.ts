import * as z from 'zod';
import { VariationSchema, type Endpoint, type Variation } from './endpoint.js';
import { INHERITABLE_FIELDS, inheritedFields } from './variation-text.js';

export {
  INHERITABLE_FIELDS,
  inheritedFields,
  inheritedText,
  type InheritableField,
} from './variation-text.js';

/**
 * What a variation answers with (DECISIONS "Trust and data": a variation's unset fields are the
 * endpoint's). Its status, status text, delay, fault and rules are its own; its body and content type
 * are the endpoint's when it sets none, read when the endpoints are compiled (so a change of the
 * endpoint's body changes what the variation sends); its headers are sent over the endpoint's,
 * as Mockoon sends a route response's headers over the environment's: the endpoint's headers,
 * each replaced by the variation's header of the same name (any case), then the variation's
 * others. A content type the variation sets also replaces a `Content-Type` header the endpoint
 * sets (the variation's own field wins over what it inherits).
 */

/** The fields a response is built from. */
export type ResponseFields = Pick<
  Endpoint,
  | 'status'
  | 'statusText'
  | 'headers'
  | 'body'
  | 'contentType'
  | 'delay'
  | 'fault'
  | 'faultRate'
  | 'templating'
>;

/** The headers a variation sends: the endpoint's, with the variation's over them. */
export function variationHeaders(
  endpoint: Pick<Endpoint, 'headers'>,
  v: Pick<Variation, 'headers' | 'contentType'>,
): Record<string, string> {
  const own = Object.keys(v.headers);
  if (own.length === 0 && v.contentType === undefined) return endpoint.headers;
  const replaced = new Set(own.map((k) => k.toLowerCase()));
  if (v.contentType !== undefined) replaced.add('content-type');
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(endpoint.headers))
    if (!replaced.has(k.toLowerCase())) out[k] = value;
  return Object.assign(out, v.headers);
}

/**
 * What a variation answers with: its own fields, the endpoint's where it sets none. Templating:
 * the variation's own, except that text it takes from an endpoint whose templating is off (an
 * imported body, say) is never rendered: if any such text has `{{`, the whole response is sent
 * as written (a variation's own template beside it is then sent as written too).
 */
export function variationResponse(
  endpoint: Pick<Endpoint, 'headers' | 'body' | 'contentType' | 'templating'>,
  v: Variation,
): ResponseFields {
  const headers = variationHeaders(endpoint, v);
  const body = v.body ?? endpoint.body;
  const literalFromEndpoint =
    endpoint.templating === false &&
    ((v.body === undefined && body.includes('{{')) ||
      Object.entries(endpoint.headers).some(([k, value]) => headers[k] === value && value.includes('{{')));
  const templating = literalFromEndpoint ? false : v.templating;
  return {
    status: v.status,
    ...(v.statusText !== undefined ? { statusText: v.statusText } : {}),
    headers,
    body,
    contentType: v.contentType ?? endpoint.contentType,
    delay: v.delay,
    ...(v.fault !== undefined ? { fault: v.fault } : {}),
    ...(v.faultRate !== undefined ? { faultRate: v.faultRate } : {}),
    ...(templating !== undefined ? { templating } : {}),
  };
}

/** A variation as lists and the admin API show it: the stored fields and what it inherits. */
export const VariationViewSchema = VariationSchema.extend({
  inherits: z
    .array(z.enum(INHERITABLE_FIELDS))
    .describe(
      "The fields taken from the endpoint: body and contentType when the variation sets none; headers when it sets none (its own headers are sent over the endpoint's)",
    ),
});
export type VariationView = z.infer<typeof VariationViewSchema>;

export const variationView = (v: Variation): VariationView => ({ ...v, inherits: inheritedFields(v) });
