import type { HelperDelegate, HelperOptions } from 'handlebars';
import { hbs } from './handlebars.js';
import { hasOwn, num, rand, root, split, text, uuid, valueAtPath } from './helpers.js';
import { grow, indentedLength } from './limits.js';
import { mockoonCodecHelpers } from './helpers-mockoon-codec.js';
import { anyOf } from './conditions.js';
import { nestedQuery, queryValue } from './query-nested.js';
import { mockoonDateHelpers } from './helpers-mockoon-dates.js';
import { jmesPathHelpers } from './helpers-jmespath.js';

/**
 * Mockoon's template helpers (docs/templates.md "Mockoon helpers"), with Mockoon's argument
 * order, defaults and output: comparisons and logic, math, strings, arrays and objects,
 * request-scoped variables, `switch`/`case`. Every text a helper builds is counted against the
 * render's output limit before it is built (limits.ts `grow`); paths read own properties only.
 */

type Fn = (this: unknown, ...a: unknown[]) => unknown;
const args = (a: unknown[]): unknown[] => split(a)[0];
/** Mockoon's numbers: a number, or a text that reads as one; anything else is NaN. */
const number = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
/** A finite result, or empty (Mockoon writes nothing for a failed computation). */
const finite = (n: number): number | '' => (Number.isFinite(n) ? n : '');
/** Handlebars' truthiness (an empty array is falsy, as in `{{#if}}`). */
const truthy = (v: unknown): boolean => (Array.isArray(v) ? v.length > 0 : Boolean(v));
/** The most digits `toFixed` and the most characters `padStart`/`padEnd` are asked for. */
const DIGITS_MAX = 100;

function compare(test: (a: number, b: number) => boolean): Fn {
  return (...a) => {
    const [[x, y]] = split(a);
    const n1 = number(x);
    const n2 = number(y);
    return !Number.isNaN(n1) && !Number.isNaN(n2) && test(n1, n2);
  };
}

/** `add`, `subtract`, … : the first number, then each further one applied (a non-number skipped). */
function arithmetic(apply: (acc: number, n: number) => number): Fn {
  return (...a) => {
    const values = args(a).map(number);
    if (values.length === 0 || Number.isNaN(values[0]!)) return '';
    let acc = values[0]!;
    for (const n of values.slice(1)) if (!Number.isNaN(n)) acc = apply(acc, n);
    return finite(acc);
  };
}

function rounding(round: (n: number) => number): Fn {
  return (...a) => {
    const n = number(args(a)[0]);
    return Number.isNaN(n) ? '' : finite(round(n));
  };
}

function pad(side: 'start' | 'end'): Fn {
  return (...a) => {
    const [[value, length, fill]] = split(a);
    const s = text(value);
    const to = Math.min(Math.max(0, Math.floor(num(length, 0))), s.length + DIGITS_MAX * 100);
    const f = typeof fill === 'string' && fill !== '' ? fill : ' ';
    if (to > s.length) grow(to - s.length);
    return side === 'start' ? s.padStart(to, f) : s.padEnd(to, f);
  };
}

/** `replace` (the first occurrence) and `replaceAll`: plain text, no patterns. */
function replacing(all: boolean): Fn {
  return (...a) => {
    const [[value, search, replacement]] = split(a);
    const s = text(value);
    const from = text(search);
    if (from === '' || !s.includes(from)) return s;
    const to = text(replacement);
    if (!all) return s.replace(from, () => to);
    const parts = s.split(from);
    if (to.length > from.length) grow((parts.length - 1) * (to.length - from.length));
    return parts.join(to);
  };
}

type Hash = Record<string, unknown>;

/** A JSON text as its value (`{{objectPath (bodyRaw) 'key'}}`); anything else as it is. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
/** `sort`/`sortBy` order: numbers as numbers, anything else as text. */
const order = (x: unknown, y: unknown): number =>
  typeof x === 'number' && typeof y === 'number' ? x - y : text(x) < text(y) ? -1 : text(x) > text(y) ? 1 : 0;
const descending = (o: unknown): boolean => typeof o === 'string' && o.toLowerCase() === 'desc';

/** A JSON text, counted against the output limit before it is built. */
function stringify(value: unknown, indent: number): string {
  const compact = JSON.stringify(value) as string | undefined;
  if (compact === undefined) return '';
  grow(indentedLength(compact, indent));
  return indent ? JSON.stringify(value, null, indent) : compact;
}

/** An own-property object of key/value pairs (a `__proto__` key stays a plain key). */
const plainObject = (entries: Iterable<[string, unknown]>): Hash => Object.fromEntries(entries);

// ---- request-scoped variables (`setVar`/`getVar`): one render's, cleared when it ends

const VARS_MAX = 1000;
const vars = new Map<string, unknown>();
/** Forgets the variables of the render that ended. */
export const resetVars = (): void => vars.clear();

/** `switch`'s state, in the frame of its block (`case` and `default` read it). */
const SWITCH = '__switch';
interface SwitchState {
  value: unknown;
  found: boolean;
}
const switchOf = (o: HelperOptions): SwitchState | undefined =>
  hasOwn(o.data, SWITCH) ? ((o.data as Hash)[SWITCH] as SwitchState) : undefined;

/** A MongoDB ObjectId: 4 bytes of seconds, 5 random, a 3-byte counter (Mockoon's `objectId`). */
let objectIdCounter = Math.floor(Math.random() * 0xffffff);
function objectId(seed: unknown): string {
  if (typeof seed === 'string' && /^[0-9a-fA-F]{24}$/.test(seed)) return seed.toLowerCase();
  const seconds = typeof seed === 'number' ? Math.floor(seed) : Math.floor(Date.now() / 1000);
  const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);
  let out = hex(seconds, 8);
  for (let i = 0; i < 5; i++) out += hex(Math.floor(rand() * 256), 2);
  objectIdCounter = (objectIdCounter + 1) % 0x1000000;
  return out + hex(objectIdCounter, 6);
}

export const mockoonHelpers: Record<string, HelperDelegate> = {
  // comparisons and logic
  eq: (...a: unknown[]) => {
    const [[x, y]] = split(a);
    return typeof x === typeof y && x === y;
  },
  gt: compare((x, y) => x > y),
  gte: compare((x, y) => x >= y),
  lt: compare((x, y) => x < y),
  lte: compare((x, y) => x <= y),
  and: (...a: unknown[]) => args(a).every(truthy),
  or: (...a: unknown[]) => args(a).some(truthy),
  not: (...a: unknown[]) => !truthy(args(a)[0]),
  // math
  add: arithmetic((x, y) => x + y),
  subtract: arithmetic((x, y) => x - y),
  multiply: arithmetic((x, y) => x * y),
  divide: arithmetic((x, y) => x / y),
  modulo: arithmetic((x, y) => x % y),
  ceil: rounding(Math.ceil),
  floor: rounding(Math.floor),
  round: rounding(Math.round),
  toFixed: (...a: unknown[]) => {
    const [[value, digits]] = split(a);
    const n = number(value);
    if (!Number.isFinite(n)) return '';
    return n.toFixed(Math.min(DIGITS_MAX, Math.max(0, Math.floor(num(digits, 0)))));
  },
  parseInt: (...a: unknown[]) => {
    const n = parseInt(text(args(a)[0]), 10);
    return Number.isNaN(n) ? '' : n;
  },
  // strings
  includes: (...a: unknown[]) => {
    const [[value, search]] = split(a);
    if (Array.isArray(value)) return value.includes(search);
    return typeof value === 'string' || typeof value === 'number'
      ? text(value).includes(text(search))
      : false;
  },
  indexOf: (...a: unknown[]) => {
    const [[value, search, position]] = split(a);
    return text(value).indexOf(text(search), num(position, 0));
  },
  substr: (...a: unknown[]) => {
    const [[value, from, length]] = split(a);
    const s = text(value);
    const start = Math.floor(num(from, 0));
    const at = start < 0 ? Math.max(0, s.length + start) : start;
    return length === undefined ? s.slice(at) : s.slice(at, at + Math.max(0, Math.floor(num(length, 0))));
  },
  split: (...a: unknown[]) => {
    const [[value, separator]] = split(a);
    if (typeof value !== 'string' || value === '') return '';
    return value.split(typeof separator === 'string' && separator !== '' ? separator : ' ');
  },
  concat: (...a: unknown[]) => {
    const values = args(a);
    // Lists join into one list (Mockoon); anything else into one text.
    if (values.length > 0 && values.every(Array.isArray)) return (values as unknown[][]).flat();
    const parts = values.map(text);
    grow(parts.reduce((n, p) => n + p.length, 0));
    return parts.join('');
  },
  padStart: pad('start'),
  padEnd: pad('end'),
  replace: replacing(false),
  replaceAll: replacing(true),
  newline: () => '\n',
  stringify: (...a: unknown[]) => stringify(args(a)[0], 2),
  jsonParse: (...a: unknown[]) => {
    try {
      return JSON.parse(text(args(a)[0])) as unknown;
    } catch {
      return '';
    }
  },
  // arrays and objects
  len: (...a: unknown[]) => {
    const v = args(a)[0];
    return typeof v === 'string' || Array.isArray(v) ? v.length : 0;
  },
  someOf: (...a: unknown[]) => {
    const [[items, min, max, asArray]] = split(a);
    const all = list(items);
    if (!all) return '';
    const pool = all.slice();
    const lo = Math.max(0, Math.floor(num(min, 1)));
    const hi = Math.min(pool.length, Math.max(lo, Math.floor(num(max, lo))));
    const count = Math.min(pool.length, lo + Math.floor(rand() * (hi - lo + 1)));
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(rand() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const picked = pool.slice(0, count);
    return asArray === true ? stringify(picked, 0) : picked;
  },
  slice: (...a: unknown[]) => {
    const [[items, from, to]] = split(a);
    const all = list(items);
    if (!all) return '';
    return typeof to === 'number' ? all.slice(num(from, 0), to) : all.slice(num(from, 0));
  },
  reverse: (...a: unknown[]) => {
    const v = args(a)[0];
    if (Array.isArray(v)) return v.slice().reverse();
    return typeof v === 'string' ? [...v].reverse().join('') : '';
  },
  sort: (...a: unknown[]) => {
    const [[items, direction]] = split(a);
    const all = list(items);
    if (!all) return '';
    const sorted = all.slice().sort(order);
    return descending(direction) ? sorted.reverse() : sorted;
  },
  sortBy: (...a: unknown[]) => {
    const [[items, path, direction]] = split(a);
    const all = list(items);
    if (!all) return '';
    const key = text(path);
    const sorted = all.slice().sort((x, y) => order(valueAtPath(x, key), valueAtPath(y, key)));
    return descending(direction) ? sorted.reverse() : sorted;
  },
  filter: (...a: unknown[]) => {
    const [[items, ...conditions]] = split(a);
    const all = list(items);
    if (!all) return '';
    return conditions.length ? all.filter((item) => anyOf(item, conditions)) : all;
  },
  find: (...a: unknown[]) => {
    const [[items, ...conditions]] = split(a);
    return list(items)?.find((item) => anyOf(item, conditions)) ?? '';
  },
  object: (...a: unknown[]) => plainObject(Object.entries(split(a)[1].hash as Hash)),
  objectMerge: (...a: unknown[]) =>
    plainObject(args(a).flatMap((o) => (typeof o === 'object' && o !== null ? Object.entries(o) : []))),
  objectPath: (...a: unknown[]) => {
    const [[value, path, fallback]] = split(a);
    const v = valueAtPath(parsed(value), text(path));
    return v === undefined ? (fallback ?? '') : v;
  },
  // request-scoped variables
  setVar: (...a: unknown[]) => {
    const [[name, value], o] = split(a);
    if (typeof name !== 'string' || name === '') return '';
    if (!vars.has(name) && vars.size >= VARS_MAX)
      throw new Error(`setVar: more than ${VARS_MAX} variables in one response`);
    vars.set(name, value);
    // Also `{{@name}}` in the rest of the block, as in Mockoon.
    if (o.data)
      Object.defineProperty(o.data, name, { value, writable: true, enumerable: true, configurable: true });
    return '';
  },
  getVar: (...a: unknown[]) => {
    const [[name, path]] = split(a);
    const v = vars.get(text(name));
    const at = path === undefined ? v : valueAtPath(v, text(path));
    return at === undefined ? '' : at;
  },
  // switch / case / default
  switch: function (this: unknown, ...a: unknown[]) {
    const [[value], o] = split(a);
    if (!o.fn) return '';
    const data = hbs().createFrame(o.data) as Hash;
    data[SWITCH] = { value, found: false } satisfies SwitchState;
    return o.fn(this, { data });
  },
  case: function (this: unknown, ...a: unknown[]) {
    const [values, o] = split(a);
    const state = switchOf(o);
    if (!o.fn || !state || state.found || !values.some((v) => v === state.value)) return '';
    state.found = true;
    return o.fn(this);
  },
  default: function (this: unknown, ...a: unknown[]) {
    const o = split(a)[1];
    const state = switchOf(o);
    if (!o.fn || (state && state.found)) return '';
    return o.fn(this);
  },
  // data
  guid: () => uuid(),
  objectId: (...a: unknown[]) => objectId(args(a)[0]),
  boolean: () => rand() < 0.5,
  // request
  queryParams: (...a: unknown[]) => nestedQuery(root(split(a)[1]).query),
  urlParams: (...a: unknown[]) => plainObject(Object.entries(root(split(a)[1]).params)),
  queryParamRaw: (...a: unknown[]) => {
    const [[name, fallback], o] = split(a);
    const query = root(o).query;
    if (name === undefined) return nestedQuery(query);
    const v = queryValue(query, text(name));
    return v === undefined ? (fallback === undefined ? '' : fallback) : v;
  },
  cookie: (...a: unknown[]) => {
    const [[name, fallback], o] = split(a);
    const wanted = text(name);
    for (const pair of (root(o).headers.cookie ?? '').split(';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim() === wanted) return pair.slice(eq + 1).trim();
    }
    return fallback === undefined ? '' : fallback;
  },
  hostname: (...a: unknown[]) => root(split(a)[1]).hostname ?? '',
  ip: (...a: unknown[]) => root(split(a)[1]).ip ?? '',
  ...mockoonDateHelpers,
  ...mockoonCodecHelpers,
  ...jmesPathHelpers,
};

// Handlebars.java's conditional helpers (WireMock) also work as blocks:
// `{{#eq a b}}same{{else}}different{{/eq}}`.
for (const name of ['eq', 'gt', 'gte', 'lt', 'lte', 'and', 'or', 'not']) {
  const test = mockoonHelpers[name] as Fn;
  mockoonHelpers[name] = function (this: unknown, ...a: unknown[]) {
    const o = a[a.length - 1] as HelperOptions;
    const yes = test.apply(this, a);
    if (!(o.fn as unknown)) return yes;
    return truthy(yes) ? o.fn(this) : o.inverse(this);
  };
}

/**
 * As for the short fake-data names: called alone outside a block, a field of the current item
 * wins ({{#each body.servers}}{{ip}}{{/each}} gives each server's `ip`). Wraps the set in place.
 */
export function fieldsFirst(set: Record<string, HelperDelegate>): void {
  for (const [name, helper] of Object.entries(set))
    set[name] = function (this: unknown, ...a: unknown[]) {
      if (a.length === 1 && !(a[0] as HelperOptions).fn && hasOwn(this, name)) return (this as Hash)[name];
      return (helper as Fn).apply(this, a);
    };
}
fieldsFirst(mockoonHelpers);

/**
 * Positional arguments a helper keeps marked when the template tracks secrets (marks.ts):
 * `setVar` stores its value as given, so what `getVar` writes later is still marked;
 * `setGlobalVar` is given it marked to refuse it (helpers-resources.ts).
 */
export const KEEP_MARKS: Readonly<Record<string, readonly number[]>> = { setVar: [1], setGlobalVar: [1] };

/**
 * Mockoon helpers that need a feature not built yet: refused at save with the reason, never
 * saved to render empty.
 */
export const NOT_YET: Readonly<Record<string, string>> = {
  dataBucket:
    "a data bucket: buckets are resources here, read with {{resource 'NAME'}} or {{dataRaw 'NAME'}} (issue 26: resources)",
};
