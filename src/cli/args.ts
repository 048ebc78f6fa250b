import { MockdevError } from '../core/errors.js';

/**
 * Shared conversions of raw option strings. The rules themselves (ranges, allowed values)
 * live in the core schemas; here we only turn text into the type the schema checks.
 */

/** "3001" -> 3001; anything that is not a whole number is an invalid argument naming the flag. */
export function toInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${value}": must be a whole number`);
  }
  return Number(trimmed);
}

/** Parses `KEY=VALUE` / `Name: value` header options into an object. */
export function toHeaders(
  values: string[] | undefined,
  flag = '--header',
): Record<string, string> | undefined {
  if (!values || values.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const m = /^([^:=]+)[:=](.*)$/.exec(raw);
    if (!m || !m[1]!.trim()) {
      throw new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${raw}": expected "Name: value"`, {
        hint: `Example: ${flag} "X-Request-Id: 42"`,
      });
    }
    headers[m[1]!.trim()] = m[2]!.trim();
  }
  return headers;
}

/** Collects a repeatable option into an array (commander's accumulator). */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];
