import { hasOwn, valueAtPath } from './helpers.js';

/**
 * Mockoon's view of a query string (the `qs` package's): `obj[prop]=v` is `{ obj: { prop: v } }`,
 * `list[]=a` and `list[0]=a` are lists. Built from the parsed parameters when a helper asks for
 * a name that is not one of them; keys that would reach a prototype are left out.
 */

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);
type Node = Record<string, unknown> | unknown[];

/** The parameters as nested objects and lists. */
export function nestedQuery(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
    const parts = m ? [m[1]!, ...m[2]!.slice(1, -1).split('][')] : [key];
    if (parts.some((p) => UNSAFE.has(p))) continue;
    let at: Node = out;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      const next = parts[i + 1];
      const child = (): Node => (next === '' || /^\d+$/.test(next ?? '') ? [] : {});
      if (Array.isArray(at)) {
        const index = part === '' ? at.length : Number(part);
        if (!Number.isInteger(index) || index > at.length) break;
        if (last) at[index] ??= value;
        else at = (at[index] ??= child()) as Node;
      } else {
        if (last) {
          if (!hasOwn(at, part)) at[part] = value;
        } else {
          if (!hasOwn(at, part)) at[part] = child();
          at = at[part] as Node;
        }
      }
      if (typeof at !== 'object' || at === null) break;
    }
  }
  return out;
}

/** A parameter by its name as sent, else at a dotted path of the nested view (`obj.prop`). */
export function queryValue(query: Readonly<Record<string, unknown>>, name: string): unknown {
  if (hasOwn(query, name)) return query[name];
  if (!/[.[]/.test(name) && !Object.keys(query).some((k) => k.startsWith(`${name}[`))) return undefined;
  return valueAtPath(nestedQuery(query), name);
}
