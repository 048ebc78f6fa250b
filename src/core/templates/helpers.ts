import { randomUUID } from 'node:crypto';
import type { HelperDelegate, HelperOptions } from 'handlebars';
import { formatDate, UNITS } from './dates.js';
import type { TemplateContext } from './engine.js';
import { fake, FAKE_SHORT, seedFaker } from './fake.js';
import { hbs } from './handlebars.js';
import { renderable, wiremockHelpers } from './helpers-wiremock.js';
import { parseJsonPath, selectJsonPath, type JsonPath } from './json-path.js';
import { RequestPath } from './request-path.js';
import { queryValue } from './query-nested.js';
import { seededRandom } from '../random.js';

import { mockoonHelpers } from './helpers-mockoon.js';
import { resourceHelpers } from './helpers-resources.js';
import { countedBlock, countRepeat, grow, indentedLength, REPEAT_MAX } from './limits.js';

/**
 * The helpers templates may call (docs/templates.md "Helpers"): the request (Mockoon's names),
 * data (uuid, now, int, float, oneOf, repeat, json, fake data) and seeding. Loops and what they
 * write are counted against the render's limits (limits.ts).
 */

// ---- randomness, seeded inside {{#seed}}

let random: () => number = Math.random;
/** A random number in [0, 1): seeded inside {{#seed}}. */
export const rand = (): number => random();
/** Back to unseeded randomness (after a render, whatever it did). */
export const resetRandom = (): void => {
  random = Math.random;
};

/** FNV-1a of a key: the seed of `{{#seed key}}`. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function uuid(): string {
  if (random === Math.random) return randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

// ---- helpers

/** One item of `{{#repeat n comma=true}}`: a comma after all but the last (never two), then a line end. */
function commaItem(item: string, last: boolean): string {
  let s = String(item).trimEnd();
  if (!last && !s.endsWith(',')) s += ',';
  else if (last && s.endsWith(',')) s = s.slice(0, -1);
  return s + '\n';
}

type Hash = Record<string, unknown>;
/** A helper's arguments without Handlebars' options object, and that object. */
export function split(args: unknown[]): [unknown[], HelperOptions] {
  const options = args[args.length - 1] as HelperOptions;
  return [args.slice(0, -1), options];
}
export const num = (v: unknown, fallback: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
};
export const text = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object' && !(v instanceof RequestPath)
        ? JSON.stringify(v)
        : String(v);
export const hasOwn = (o: unknown, k: string): boolean =>
  typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, k);

/**
 * The value at a dotted path (`user.name`, `items.0.id`; `key\.with\.dot` is one key) through
 * own properties only.
 */
export function valueAtPath(value: unknown, path: string): unknown {
  if (path === '' || path === '$') return value;
  let at = value;
  const keys = path.includes('\\.')
    ? path.split(/(?<!\\)\.|\[(\d+)\]/).map((k) => k?.replace(/\\\./g, '.'))
    : path.replace(/^\$\.?/, '').split(/\.|\[(\d+)\]/);
  for (const key of keys.filter(Boolean) as string[]) {
    if (!hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Parsed JSONPaths of `body '$.…'`, kept (a template's paths are few). */
const bodyPaths = new Map<string, JsonPath>();
/** The body at a dotted path, or at a JSONPath (`$.list.[*].id`: a list). */
function bodyPath(body: unknown, path: string): unknown {
  if (!path.startsWith('$')) return valueAtPath(body, path);
  let parsed = bodyPaths.get(path);
  if (!parsed) {
    try {
      parsed = parseJsonPath(path);
    } catch {
      return undefined;
    }
    if (bodyPaths.size < 1000) bodyPaths.set(path, parsed);
  }
  return selectJsonPath(body, parsed);
}
/** What Mockoon's `body`/`queryParam` write: lists and objects as JSON, anything as JSON on `true`. */
function found(v: unknown, stringified: boolean): unknown {
  if (stringified) return JSON.stringify(v) ?? '';
  return renderable(v);
}

/** The render's root context (Mockoon's helpers read the request from it). */
export const root = (options: HelperOptions): TemplateContext =>
  (options.data as { root: TemplateContext }).root;

export const helpers: Record<string, HelperDelegate> = {
  // request (Mockoon names)
  urlParam: (...a: unknown[]) => {
    const [[name], o] = split(a);
    return root(o).params[text(name)] ?? '';
  },
  queryParam: (...a: unknown[]) => {
    const [[name, fallback, stringified], o] = split(a);
    const v = queryValue(root(o).query, text(name));
    return found(v === undefined ? (fallback === undefined ? '' : fallback) : v, stringified === true);
  },
  header: (...a: unknown[]) => {
    const [[name, fallback], o] = split(a);
    return root(o).headers[text(name).toLowerCase()] ?? (fallback === undefined ? '' : fallback);
  },
  // Mockoon's `body`: a dotted path or a JSONPath (`$.…`), the default, and JSON text on `true`.
  body: (...a: unknown[]) => {
    const [[path, fallback, stringified], o] = split(a);
    const b = root(o).body;
    if (path === undefined) return text(b);
    const v = bodyPath(b, text(path));
    return found(v === undefined ? (fallback === undefined ? '' : fallback) : v, stringified === true);
  },
  // Mockoon's `bodyRaw`: the body's text, or the raw value (list, object, …) at a path.
  bodyRaw: (...a: unknown[]) => {
    const [[path, fallback], o] = split(a);
    if (path === undefined) return root(o).bodyRaw;
    const v = valueAtPath(root(o).body, text(path));
    return v === undefined ? (fallback === undefined ? '' : fallback) : v;
  },
  method: (...a: unknown[]) => root(split(a)[1]).method,
  jsonPath: (...a: unknown[]) => {
    const [[value, path]] = split(a);
    let v = value;
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        return '';
      }
    }
    return valueAtPath(v, text(path)) ?? '';
  },
  // data
  uuid: () => uuid(),
  now: (...a: unknown[]) => {
    const [[format], o] = split(a);
    let t = Date.now();
    for (const [unit, ms] of Object.entries(UNITS))
      if (o.hash[unit] !== undefined) t += num(o.hash[unit], 0) * ms;
    return formatDate(new Date(t), typeof format === 'string' ? format : 'iso');
  },
  int: (...a: unknown[]) => {
    const [[min, max], o] = split(a);
    const lo = Math.ceil(num(min ?? (o.hash as Hash).min, 0));
    const hi = Math.floor(num(max ?? (o.hash as Hash).max, lo + 100));
    return lo + Math.floor(random() * (hi - lo + 1));
  },
  float: (...a: unknown[]) => {
    const [[min, max, decimals], o] = split(a);
    const lo = num(min ?? (o.hash as Hash).min, 0);
    const hi = num(max ?? (o.hash as Hash).max, lo + 1);
    const d = Math.min(15, Math.max(0, Math.floor(num(decimals ?? (o.hash as Hash).decimals, 2))));
    return Number((lo + random() * (hi - lo)).toFixed(d));
  },
  oneOf: (...a: unknown[]) => {
    const [args] = split(a);
    // Mockoon: a list and whether to write the item as JSON, or the items themselves.
    const listed = Array.isArray(args[0]) && args.length <= 2;
    const items = listed ? (args[0] as unknown[]) : args;
    if (!items.length) return '';
    const item = items[Math.floor(random() * items.length)];
    return listed && args[1] === true ? JSON.stringify(item) : item;
  },
  repeat: function (this: unknown, ...a: unknown[]) {
    const [[first, second], o] = split(a);
    let count = num(first, 1);
    if (second !== undefined) {
      const lo = num(first, 0);
      count = lo + Math.floor(random() * (num(second, lo) - lo + 1));
    }
    count = Math.max(0, Math.min(REPEAT_MAX, Math.floor(count)));
    if (!o.fn) return '';
    // Mockoon's `comma` (on unless `comma=false` or a `separator` is given): items trimmed at
    // the end, a comma between them, one a line (docs/decisions.md "repeat: comma by default").
    const separator = typeof o.hash.separator === 'string' ? o.hash.separator : undefined;
    const comma = separator === undefined && o.hash.comma !== false;
    grow(comma ? 2 * count : (separator?.length ?? 0) * Math.max(0, count - 1));
    const fn = countedBlock(o.fn, countRepeat);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const data = hbs().createFrame(o.data) as Record<string, unknown>;
      data.index = i;
      data.total = count;
      data.first = i === 0;
      data.last = i === count - 1;
      const item = fn(this, { data });
      out.push(comma ? commaItem(item, i === count - 1) : item);
    }
    return out.join(separator ?? '');
  },
  lowercase: (...a: unknown[]) => text(split(a)[0][0]).toLowerCase(),
  uppercase: (...a: unknown[]) => text(split(a)[0][0]).toUpperCase(),
  json: (...a: unknown[]) => {
    const [[value, indent]] = split(a);
    const compact = JSON.stringify(value ?? null) as string | undefined;
    if (compact === undefined) return compact;
    const space = typeof indent === 'number' && indent >= 1 ? Math.min(Math.floor(indent), 8) : 0;
    // Indented, deeply nested data grows fast: its size is worked out before it is built.
    grow(indentedLength(compact, space));
    return space ? JSON.stringify(value ?? null, null, space) : compact;
  },
  urlEncode: (...a: unknown[]) => encodeURIComponent(text(split(a)[0][0])),
  faker: (...a: unknown[]) => {
    const o = a[a.length - 1] as HelperOptions;
    const args = a.length > 2 ? a.slice(1, -1) : [];
    for (const _ in o.hash) {
      args.push({ ...o.hash });
      break;
    }
    return fake(text(a[0]), args);
  },
  seed: function (this: unknown, ...a: unknown[]) {
    const [[key], o] = split(a);
    if (!o.fn) return '';
    const h = hash(text(key));
    const before = random;
    random = seededRandom(h);
    seedFaker(h);
    try {
      return o.fn(this);
    } finally {
      random = before;
      seedFaker();
    }
  },
};
// Aliases: Mockoon's and common names.
helpers.randomInt = helpers.int!;
helpers.randomFloat = helpers.float!;
helpers.pick = helpers.oneOf!;
for (const [short, method] of Object.entries(FAKE_SHORT)) {
  // A field of the current item wins over fake data: {{#each body.users}}{{email}}{{/each}}.
  helpers[short] = function (this: unknown, ...a: unknown[]) {
    if (a.length === 1 && hasOwn(this, short)) return (this as Record<string, unknown>)[short];
    return fake(method, split(a)[0]);
  };
}

// Mockoon's helpers, then WireMock's (which keep the meaning of a shared name for Mockoon's arguments).
Object.assign(helpers, mockoonHelpers);
Object.assign(helpers, wiremockHelpers(helpers));
// The served project's resources (issue 26), Mockoon's data-bucket helpers among them.
Object.assign(helpers, resourceHelpers);

export const HELPER_NAMES: readonly string[] = Object.keys(helpers);
