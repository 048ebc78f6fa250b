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
  const field = issue.path.length ? issue.path.join('.') : what;
  const given = issue.path.reduce<unknown>(
    (v, k) =>
      v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined,
    value,
  );
  const shown = given === undefined ? '' : ` ${JSON.stringify(given)}`;
  throw new MockdevError('INVALID_ARGUMENT', `Invalid ${field}${shown}: ${issue.message}`, {
    details: {
      field,
      issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}
