import type { HelperDelegate } from 'handlebars';
import { createRequire } from 'node:module';
import { split, text } from './helpers.js';

/**
 * Mockoon's `jmesPath` helper: `{{jmesPath value 'expression' 'default'}}`, the value a JMESPath
 * expression selects (package `jmespath`, loaded on first use), or the default (empty when
 * none) when it selects nothing or the expression is invalid. The data is copied into objects
 * without a prototype first, so no expression reaches `constructor` or `__proto__`.
 */

type Search = (data: unknown, expression: string) => unknown;
let search: Search | undefined;
const engine = (): Search =>
  (search ??= (createRequire(import.meta.url)('jmespath') as { search: Search }).search);

/** The value as plain JSON data, each object without a prototype. */
function plain(value: unknown): unknown {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) return null;
  return JSON.parse(json, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.assign(Object.create(null) as object, v)
      : v,
  );
}

export const jmesPathHelpers: Record<string, HelperDelegate> = {
  jmesPath: (...a: unknown[]) => {
    const [[value, expression, fallback]] = split(a);
    const otherwise = fallback === undefined ? '' : fallback;
    if (expression === undefined) return otherwise;
    let data = value;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        return otherwise;
      }
    }
    try {
      const found = engine()(plain(data), text(expression));
      return found === null || found === undefined ? otherwise : found;
    } catch {
      return otherwise;
    }
  },
};
