import { MockdevError } from '../core/errors.js';

/**
 * Splits a list option's value on unescaped commas: `\,` is a literal comma and `\\` a literal
 * backslash; any other backslash stays as it is. Empty items are dropped.
 */
export function splitList(value: string): string[] {
  const items: string[] = [];
  let item = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const next = value[i + 1];
    if (c === '\\' && (next === ',' || next === '\\')) {
      item += next;
      i++;
    } else if (c === ',') {
      items.push(item);
      item = '';
    } else item += c;
  }
  items.push(item);
  return items.filter((s) => s !== '');
}

/**
 * `--var`/`--secret` values: each `KEY=VALUE[,KEY=VALUE...]` (the first `=` ends the key; the
 * value may hold `=`; commas split pairs unless escaped as `\,`). With `keysAllowed`, an item
 * without `=` is a bare key (`--secret TOKEN` marks a variable as a secret).
 */
export function parsePairs(
  values: string[] | undefined,
  flag: string,
  keysAllowed = false,
): { pairs: Record<string, string>; keys: string[] } {
  const pairs: Record<string, string> = {};
  const keys: string[] = [];
  for (const raw of values ?? []) {
    for (const item of splitList(raw)) {
      const at = item.indexOf('=');
      if (at < 0) {
        if (keysAllowed) {
          keys.push(item.trim());
          continue;
        }
        throw new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${item}": expected KEY=VALUE`, {
          hint: `Example: ${flag} API_URL=https://api.example.com (a comma in a value is written \\,)`,
        });
      }
      pairs[item.slice(0, at).trim()] = item.slice(at + 1);
    }
  }
  return { pairs, keys };
}

/** `--unset A,B --unset C` -> [A, B, C]. */
export const parseKeys = (values: string[] | undefined): string[] =>
  (values ?? []).flatMap(splitList).map((k) => k.trim());
