import type * as z from 'zod';
import { MockdevError } from './errors.js';

/**
 * Parses `value` with `schema`; on failure throws one INVALID_ARGUMENT error whose message
 * names the field and the rule, e.g. `Invalid port "80": must be from 1024 to 65535`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'value'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new MockdevError('INVALID_ARGUMENT', `Invalid ${describeIssue(issue, value, what)}`, {
    details: {
      field: issue.path.length ? issue.path.join('.') : what,
      issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

/** A record key's own message ("may contain only…") rather than zod's "Invalid key in record". */
export const issueMessage = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;

/** A value as an error shows it: JSON, cut at 60 characters. */
const shown = (given: unknown): string => {
  const text = JSON.stringify(given);
  return text === undefined ? '' : ` ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
};

/** The value at an issue's path in what was parsed. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    value,
  );
}

/**
 * One issue said for people, after "Invalid ": the field, the value given and the rule, e.g.
 * `port 80: must be from 1024 to 65535`, `header name "X Evil": may contain only …`.
 */
export function describeIssue(issue: z.core.$ZodIssue, value: unknown, what = 'value'): string {
  const path = issue.path.map(String);
  const given = valueAt(value, issue.path);
  const parent = path.slice(0, -1).join('.');
  const last = path[path.length - 1];
  if (/(^|\.)headers$/.test(parent) && last !== undefined) {
    const where = parent === 'headers' ? '' : ` (${parent})`;
    if (issue.code === 'invalid_key')
      return `header name${where} ${JSON.stringify(last)}: ${issueMessage(issue)}`;
    return `value of header "${last}"${where}${shown(given)}: ${issueMessage(issue)}`;
  }
  return `${path.length ? path.join('.') : what}${shown(given)}: ${issueMessage(issue)}`;
}
