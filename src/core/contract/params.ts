import type { ParamSpec } from './operations.js';

/**
 * Parameter values read from a logged request as their `style` and `explode` write them
 * (OpenAPI 3; Swagger 2.0's `collectionFormat` read as the same): arrays split on their
 * separator or gathered from repeated keys, objects from `k,v` pairs, `k=v` pairs, their own
 * query keys (form, exploded) or `name[k]` keys (deepObject). The values stay strings: the
 * validator coerces them to the schema's types. `undefined`: the parameter is absent.
 */

export type QueryValues = Record<string, string | string[]>;

/** What a value could not be read as (a malformed serialization): said as a `style` violation. */
export class StyleError extends Error {}

const list = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

function splitArray(text: string, p: ParamSpec): string[] {
  if (text === '') return [];
  const sep = p.separator === 'multi' ? ',' : p.separator;
  return text.split(sep);
}

/** `k,v,k2,v2` or (exploded) `k=v,k2=v2`, with the separator given. */
function pairs(text: string, explode: boolean, sep: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === '') return out;
  const parts = text.split(sep);
  if (explode) {
    for (const part of parts) {
      const eq = part.indexOf('=');
      if (eq === -1) throw new StyleError(`"${part}" is not a key=value pair`);
      out[part.slice(0, eq)] = part.slice(eq + 1);
    }
    return out;
  }
  if (parts.length % 2) throw new StyleError(`"${text}" is not a list of key,value pairs`);
  for (let i = 0; i < parts.length; i += 2) out[parts[i]!] = parts[i + 1]!;
  return out;
}

/** A path, header or cookie value (one string) read as the parameter's shape. */
function fromText(text: string, p: ParamSpec): unknown {
  let t = text;
  let sep = ',';
  if (p.style === 'label') {
    if (!t.startsWith('.')) throw new StyleError(`"${text}" does not start with "." (label style)`);
    t = t.slice(1);
    if (p.explode) sep = '.';
  } else if (p.style === 'matrix') {
    const head = `;${p.name}=`;
    if (p.shape === 'object' && p.explode) {
      if (!t.startsWith(';')) throw new StyleError(`"${text}" does not start with ";" (matrix style)`);
      return pairs(t.slice(1), true, ';');
    }
    if (!t.startsWith(head) && t !== `;${p.name}`)
      throw new StyleError(`"${text}" does not start with "${head}" (matrix style)`);
    if (p.shape === 'array' && p.explode)
      return t
        .split(';')
        .slice(1)
        .map((s) => s.slice(p.name.length + 1));
    t = t.slice(head.length);
  }
  if (p.json) return parseJson(t);
  if (p.shape === 'array') return p.explode || p.separator === 'multi' ? t.split(sep) : splitArray(t, p);
  if (p.shape === 'object') return pairs(t, p.explode, sep);
  return t;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new StyleError(`"${text.length > 80 ? `${text.slice(0, 80)}…` : text}" is not JSON`);
  }
}

/** A query parameter's value; `claimed` are the keys other parameters name (left to them). */
export function queryValue(query: QueryValues, p: ParamSpec, claimed: Set<string>): unknown {
  if (p.shape === 'object' && p.style === 'deepObject') {
    const out: Record<string, string | string[]> = {};
    const start = `${p.name}[`;
    let found = false;
    for (const key of Object.keys(query)) {
      if (key.startsWith(start) && key.endsWith(']')) {
        out[key.slice(start.length, -1)] = query[key]!;
        found = true;
      }
    }
    return found ? out : undefined;
  }
  if (p.shape === 'object' && p.explode && !p.json) {
    const out: Record<string, string | string[]> = {};
    let found = false;
    const props =
      p.schema && typeof p.schema === 'object' ? (p.schema as { properties?: object }).properties : undefined;
    for (const key of Object.keys(query)) {
      if (claimed.has(key)) continue;
      if (props && !(key in props)) continue;
      out[key] = query[key]!;
      found = true;
    }
    return found ? out : undefined;
  }
  const v = query[p.name];
  if (v === undefined) return undefined;
  if (p.json) return parseJson(list(v).at(-1)!);
  if (p.shape === 'array') {
    if (p.explode || p.separator === 'multi') return list(v);
    return list(v).flatMap((s) => splitArray(s, p));
  }
  if (p.shape === 'object') return pairs(list(v).at(-1)!, false, ',');
  return v;
}

/** A path parameter's value (already percent-decoded by the matcher). */
export const pathValue = (text: string, p: ParamSpec): unknown => fromText(text, p);

/** A header's value (simple style; list items trimmed). */
export function headerValue(text: string, p: ParamSpec): unknown {
  const v = fromText(text, p);
  return Array.isArray(v) ? v.map((s: string) => s.trim()) : v;
}

/** The cookies of a `Cookie` header, by name. */
export function cookiesOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

/** A cookie's value (form style). */
export function cookieValue(text: string, p: ParamSpec): unknown {
  if (p.json) return parseJson(text);
  if (p.shape === 'array') return splitArray(text, p);
  if (p.shape === 'object') return pairs(text, false, ',');
  return text;
}

/** A record's headers by lower-case name (repeated ones as logged, joined). */
export function lowerHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(headers)) {
    const lower = k.toLowerCase();
    out[lower] = lower in out ? `${out[lower]}, ${headers[k]}` : headers[k]!;
  }
  return out;
}
