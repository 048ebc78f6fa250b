import type { ContractViolation } from '../model/contract.js';
import type { NodeMeta } from './schema.js';
import { violationsOf, type Checker, type ViolationContext } from './validators.js';

/**
 * Bodies against their media types: the declared type a Content-Type picks (exact, then
 * `application/*`, then `*\/*`), and the body checked by its actual type: JSON (`application/json`,
 * `…+json`) parsed once and validated, `application/x-www-form-urlencoded` read into an object
 * (repeated keys as arrays, strings coerced to the schema's types), `text/*` against a string
 * schema. Other types (multipart, binary) are checked for their media type only.
 */

export interface CompiledMedia {
  /** Declared, lower-case, no parameters: `application/json`, `application/*`, `*\/*`. */
  type: string;
  /** The schema as parsed values meet it (JSON, text). */
  plain?: Checker;
  /** The schema as a form's strings meet it (coerced). */
  form?: Checker;
  /** Pointer of this media type's schema in the operation. */
  prefix: string;
}

/** A Content-Type's media type: lower-case, without parameters. */
export const mediaTypeOf = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const t = header.split(';')[0]!.trim().toLowerCase();
  return t || undefined;
};

/** The declared media type a request's or response's type falls under, the most specific first. */
export function pickMedia(actual: string, media: CompiledMedia[]): CompiledMedia | undefined {
  let range: CompiledMedia | undefined;
  let any: CompiledMedia | undefined;
  const major = actual.slice(0, actual.indexOf('/') + 1);
  for (const m of media) {
    if (m.type === actual) return m;
    if (m.type === '*/*') any ??= m;
    else if (m.type.endsWith('/*') && m.type.slice(0, -1) === major) range ??= m;
  }
  return range ?? any;
}

export const isJsonType = (t: string): boolean => t === 'application/json' || t.endsWith('+json');
export const FORM = 'application/x-www-form-urlencoded';

/** A form body as an object: each key's value, repeated keys as an array. */
export function formObject(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/** The violations of a body of media type `actual` (declared as `media`). */
export function bodyViolations(
  body: string,
  actual: string,
  media: CompiledMedia,
  metaOf: WeakMap<object, NodeMeta>,
  cx: Omit<ViolationContext, 'location' | 'prefix'>,
): ContractViolation[] {
  let value: unknown;
  let checker: Checker | undefined;
  if (isJsonType(actual)) {
    checker = media.plain;
    if (!checker) return [];
    try {
      value = JSON.parse(body);
    } catch (e) {
      return [
        {
          ...cx,
          location: 'body',
          rule: 'body',
          message: `body is not valid JSON (${e instanceof Error ? e.message : 'unreadable'}); the document declares ${media.type}`,
          expected: media.type,
          actual: body.length > 200 ? `${body.slice(0, 200)}…` : body,
          schemaPath: media.prefix,
        },
      ];
    }
  } else if (actual === FORM) {
    checker = media.form;
    value = formObject(body);
  } else if (actual.startsWith('text/')) {
    checker = media.plain;
    value = body;
  }
  if (!checker || checker.validate(value)) return [];
  return violationsOf(checker.validate.errors ?? [], checker, metaOf, {
    ...cx,
    location: 'body',
    prefix: media.prefix,
  });
}
