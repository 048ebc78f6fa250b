import type { Variation } from './endpoint.js';
import type { Rule } from './rules.js';

/**
 * A variation in words, one way for every adapter: its rules as the CLI writes them (rules.ts's
 * parseRule reads them back) and the fields it takes from its endpoint (variation-response.ts).
 * Pure, and only types imported: the web UI uses it too.
 */

const SIGN_OF: Record<Rule['op'], string> = { equals: '=', regex: '~', exists: '?' };

/** At the start of a value, a backslash before one of these stands for that character alone. */
export const ESCAPED_START = /^\\[=~\\]/;

/** A rule as the CLI writes it (parseRule reads it back): `query.page=2`, `query.q=\=x`. */
export function formatRule(rule: Rule): string {
  if (rule.op === 'exists') return `${rule.source}.${rule.key}?`;
  const value = rule.value ?? '';
  const escape = /^[=~]/.test(value) || (rule.op === 'equals' && ESCAPED_START.test(value));
  return `${rule.source}.${rule.key}${SIGN_OF[rule.op]}${escape ? '\\' : ''}${value}`;
}

/** The fields a variation may leave to its endpoint. */
export const INHERITABLE_FIELDS = ['body', 'contentType', 'headers'] as const;
export type InheritableField = (typeof INHERITABLE_FIELDS)[number];

/** Which fields a variation takes from its endpoint: unset body and content type; headers when it sets none. */
export function inheritedFields(v: Pick<Variation, 'body' | 'contentType' | 'headers'>): InheritableField[] {
  return INHERITABLE_FIELDS.filter((f) =>
    f === 'headers' ? Object.keys(v.headers).length === 0 : v[f] === undefined,
  );
}

/** The fields a variation takes from its endpoint, in words: "body, content type"; "" for none. */
export const inheritedText = (v: Pick<Variation, 'body' | 'contentType' | 'headers'>): string =>
  inheritedFields(v)
    .map((f) => (f === 'contentType' ? 'content type' : f))
    .join(', ');
