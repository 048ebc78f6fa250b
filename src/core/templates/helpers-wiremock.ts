import type { HelperDelegate, HelperOptions } from 'handlebars';
import {
  compileLinearCapture,
  compileLinearRegex,
  type LinearCapture,
  type LinearPattern,
} from '../linear-regex.js';
import { formatDate } from './dates.js';
import { formatWireMock, parseDateText, shift } from './dates-wiremock.js';
import { num, rand, root, split, text } from './helpers.js';
import { parseJsonPath, selectJsonPath, type JsonPath } from './json-path.js';
import { FAKE_LENGTH_MAX, grow } from './limits.js';

/**
 * WireMock's response-templating helpers (docs/templates.md "WireMock helpers"), on the same
 * engine and bounds as the others: output counted (limits.ts), sizes capped, patterns on the
 * linear-time engine and compiled once per pattern, own properties only. Names Mockoon has too
 * (`date`, `join`, `array`, `base64`, …) keep Mockoon's meaning, told apart by the arguments.
 */

type Hash = Record<string, unknown>;
type Helper = (this: unknown, ...a: unknown[]) => unknown;

/** The most items `range` gives, and `randomValue`'s longest text. */
export const RANGE_MAX = 10_000;

/** Compiled once per text (a template's literal patterns and paths); a bounded cache. */
function cache<T>(make: (key: string) => T): (key: string) => T {
  const map = new Map<string, T>();
  return (key) => {
    let hit = map.get(key);
    if (hit === undefined) {
      hit = make(key);
      if (map.size >= 256) map.clear();
      map.set(key, hit);
    }
    return hit;
  };
}
const capture = cache<LinearCapture>(compileLinearCapture);
const whole = cache<LinearPattern>((p) => compileLinearRegex(`^(?:${p})$`));
const jsonPaths = cache<JsonPath>(parseJsonPath);

/** Names a helper may assign (`regexExtract … 'parts'`): not one the context already has. */
function assign(o: HelperOptions, name: unknown, value: unknown): '' {
  const ctx = root(o) as unknown as Record<string, unknown>;
  const key = text(name);
  if (!/^[A-Za-z_][\w]*$/.test(key) || key in ctx)
    throw new Error(`cannot assign to ${JSON.stringify(key)}: use a new name of letters, digits and _`);
  ctx[key] = value;
  return '';
}

/** A value rendered by Handlebars as WireMock renders it: lists and objects as JSON. */
export function renderable(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Date) return v;
  const copy: unknown = Array.isArray(v) ? v.slice() : { ...v };
  Object.defineProperty(copy, 'toString', { value: () => JSON.stringify(v), enumerable: false });
  return copy;
}

/**
 * A form field WireMock gives several values: it renders as its first, `.[1]` is the second,
 * `.first` and `.last` the ends.
 */
function manyValues(values: string[]): string[] {
  const copy = values.slice();
  Object.defineProperty(copy, 'toString', { value: () => values[0], enumerable: false });
  Object.defineProperty(copy, 'first', { value: values[0], enumerable: false });
  Object.defineProperty(copy, 'last', { value: values[values.length - 1], enumerable: false });
  return copy;
}

const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
/** A block's text (`{{#trim}}…{{/trim}}`) or the first argument. */
const input = (self: unknown, args: unknown[], o: HelperOptions): string =>
  args.length === 0 && o.fn ? o.fn(self) : text(args[0]);
const counted = (s: string): string => {
  grow(s.length);
  return s;
};
/** A block helper's branch (`{{#contains a b}}yes{{else}}no{{/contains}}`) or the boolean. */
const branch = (self: unknown, o: HelperOptions, yes: boolean): unknown =>
  o.fn ? (yes ? o.fn(self) : o.inverse(self)) : yes;

const toDate = (v: unknown): Date => (v instanceof Date ? v : parseDateText(text(v)));

export const ALPHABETS: Record<string, string> = {
  ALPHANUMERIC: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ALPHABETIC: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  NUMERIC: '0123456789',
  ALPHANUMERIC_AND_SYMBOLS:
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_=+[]{};:,.<>/?~',
  HEXADECIMAL: '0123456789abcdef',
};

/**
 * WireMock's helpers; `ours` holds the helpers they extend (`now`, `randomInt`, `urlEncode`),
 * called when the arguments are not WireMock's.
 */
export function wiremockHelpers(ours: Record<string, HelperDelegate>): Record<string, HelperDelegate> {
  const base = { ...ours };
  const call = (name: string, self: unknown, a: unknown[]) => (base[name] as Helper).apply(self, a);
  const h: Record<string, Helper> = {
    jsonPath: (...a) => {
      // WireMock's `default=`, or Mockoon's default as a third argument.
      const [[value, path, fallback], o] = split(a);
      const otherwise = (o.hash as Hash).default ?? fallback ?? '';
      // The request's body text is read as the body parsed once per request (ahead, in slices,
      // when large), not parsed again here.
      const ctx = root(o);
      let doc = typeof value === 'string' && value.length > 0 && value === ctx.bodyRaw ? ctx.body : value;
      if (typeof doc === 'string') {
        try {
          doc = JSON.parse(doc);
        } catch {
          return otherwise;
        }
      }
      const v = selectJsonPath(doc, jsonPaths(text(path)));
      return v === undefined ? otherwise : renderable(v);
    },
    now: function (...a) {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      if (
        args.length > 0 ||
        (hash.offset === undefined && hash.format === undefined && hash.timezone === undefined)
      )
        return call('now', this, a);
      return formatWireMock(shift(new Date(), hash.offset), hash.format, hash.timezone);
    },
    date: (...a) => {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      if (args.length >= 2) {
        // Mockoon: a random date between two, in a format.
        const lo = toDate(args[0]).getTime();
        const hi = toDate(args[1]).getTime();
        const d = new Date(lo + Math.floor(rand() * (hi - lo + 1)));
        return typeof args[2] === 'string' ? formatDate(d, args[2]) : d.toISOString();
      }
      return formatWireMock(shift(toDate(args[0]), hash.offset), hash.format, hash.timezone);
    },
    parseDate: (...a) => {
      const [[value], o] = split(a);
      return parseDateText(text(value), (o.hash as Hash).format);
    },
    randomValue: (...a) => {
      const hash = split(a)[1].hash as Hash;
      const type = text(hash.type ?? 'ALPHANUMERIC').toUpperCase();
      let out: string;
      if (type === 'UUID') out = (base.uuid as Helper)() as string;
      else {
        const alphabet = ALPHABETS[type];
        if (!alphabet)
          throw new Error(
            `randomValue: type ${JSON.stringify(type)} is not one of ${Object.keys(ALPHABETS).join(', ')}, UUID`,
          );
        const length = Math.floor(num(hash.length, 36));
        if (!(length >= 0 && length <= FAKE_LENGTH_MAX))
          throw new Error(
            `randomValue: a length of ${String(hash.length)} is outside 0 to ${FAKE_LENGTH_MAX}`,
          );
        grow(length);
        out = '';
        for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
      }
      return hash.uppercase === true || hash.uppercase === 'true' ? out.toUpperCase() : out;
    },
    randomInt: function (...a) {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      if (args.length > 0 || (hash.lower === undefined && hash.upper === undefined))
        return call('randomInt', this, a);
      // WireMock: lower included, upper excluded.
      const lo = Math.ceil(num(hash.lower, 0));
      const hi = Math.floor(num(hash.upper, lo + 2 ** 31));
      return hi <= lo ? lo : lo + Math.floor(rand() * (hi - lo));
    },
    randomDecimal: (...a) => {
      const hash = split(a)[1].hash as Hash;
      const lo = num(hash.lower, 0);
      const hi = num(hash.upper, lo + 1);
      return lo + rand() * (hi - lo);
    },
    regexExtract: (...a) => {
      const [[value, pattern, name], o] = split(a);
      const m = capture(text(pattern)).exec(text(value));
      if (!m) return (o.hash as Hash).default ?? '';
      if (name === undefined) return m[0] ?? '';
      return assign(o, name, m.length > 1 ? m.slice(1) : [m[0]]);
    },
    matches: function (...a) {
      const [[value, pattern], o] = split(a);
      return branch(this, o, whole(text(pattern)).test(text(value)));
    },
    contains: function (...a) {
      const [[value, item], o] = split(a);
      const yes = Array.isArray(value) ? value.includes(item) : text(value).includes(text(item));
      return branch(this, o, yes);
    },
    size: (...a) => {
      const v = split(a)[0][0];
      if (typeof v === 'string' || Array.isArray(v)) return v.length;
      return typeof v === 'object' && v !== null ? Object.keys(v).length : 0;
    },
    math: (...a) => {
      const [[x, op, y]] = split(a);
      const l = num(x, NaN);
      const r = num(y, NaN);
      if (Number.isNaN(l) || Number.isNaN(r))
        throw new Error(`math: ${text(x)} ${text(op)} ${text(y)} is not arithmetic on two numbers`);
      switch (op) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          return l / r;
        case '%':
          return l % r;
        default:
          throw new Error(`math: the operator ${JSON.stringify(text(op))} is not one of + - * / %`);
      }
    },
    val: (...a) => {
      const [[value], o] = split(a);
      const hash = o.hash as Hash;
      const v = value === undefined || value === null || value === '' ? (hash.or ?? hash.default) : value;
      return hash.assign !== undefined ? assign(o, hash.assign, v) : (v ?? '');
    },
    // Mockoon's meaning wins: a plain list (rendered `1,two`), as Mockoon renders it.
    array: (...a) => split(a)[0],
    pickRandom: (...a) => {
      const [args, o] = split(a);
      const items = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
      const count = (o.hash as Hash).count;
      if (count === undefined) return items.length ? items[Math.floor(rand() * items.length)] : '';
      const pool = items.slice();
      const picked: unknown[] = [];
      for (let n = Math.min(pool.length, Math.max(0, Math.floor(num(count, 1)))); n > 0; n--)
        picked.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
      return renderable(picked);
    },
    range: (...a) => {
      const [[from, to]] = split(a);
      const lo = Math.ceil(num(from, 0));
      const hi = Math.floor(num(to, lo));
      if (hi - lo + 1 > RANGE_MAX)
        throw new Error(`range: more than ${RANGE_MAX} numbers from ${lo} to ${hi}`);
      grow(Math.max(0, hi - lo + 1));
      const out: number[] = [];
      for (let i = lo; i <= hi; i++) out.push(i);
      return renderable(out);
    },
    join: function (...a) {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      let sep: string;
      let items: unknown[];
      if (Array.isArray(args[0])) {
        // Mockoon: the array, then the separator (',' by default).
        items = args[0] as unknown[];
        sep = args[1] === undefined ? ',' : text(args[1]);
      } else {
        sep = text(args[0]);
        items = args.length === 2 && list(args[1]) ? (args[1] as unknown[]) : args.slice(1);
      }
      const parts = items.map((x) =>
        (o.fn as unknown) ? o.fn(x, { data: o.data, blockParams: [x] }) : text(x),
      );
      return counted(text(hash.prefix) + parts.join(sep) + text(hash.suffix));
    },
    arrayAdd: (...a) => {
      const [[arr, item], o] = split(a);
      const out = (list(arr) ?? []).slice();
      const at = position(o, out.length, out.length);
      out.splice(at, 0, item);
      return renderable(out);
    },
    arrayRemove: (...a) => {
      const [[arr], o] = split(a);
      const out = (list(arr) ?? []).slice();
      out.splice(position(o, out.length - 1, out.length - 1), 1);
      return renderable(out);
    },
    base64: function (...a) {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      const value = input(this, args, o);
      if (hash.decode === true || hash.decode === 'true')
        return counted(Buffer.from(value, 'base64').toString('utf8'));
      const out = Buffer.from(value, 'utf8').toString('base64');
      return counted(hash.padding === false || hash.padding === 'false' ? out.replace(/=+$/, '') : out);
    },
    urlEncode: function (...a) {
      const [args, o] = split(a);
      const hash = o.hash as Hash;
      const value = input(this, args, o);
      if (hash.decode !== true && hash.decode !== 'true') return encodeURIComponent(value);
      try {
        return decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        return value;
      }
    },
    trim: function (...a) {
      const [args, o] = split(a);
      return input(this, args, o).trim();
    },
    abbreviate: (...a) => {
      const [[value, width]] = split(a);
      const s = text(value);
      const max = Math.max(4, Math.floor(num(width, s.length)));
      return s.length <= max ? s : `${s.slice(0, max - 3)}...`;
    },
    formData: (...a) => {
      const [[body, name], o] = split(a);
      const decode = (o.hash as Hash).urlDecode === true || (o.hash as Hash).urlDecode === 'true';
      const fields = new Map<string, string[]>();
      for (const pair of text(body).split('&')) {
        if (!pair) continue;
        const eq = pair.indexOf('=');
        let k = eq === -1 ? pair : pair.slice(0, eq);
        let v = eq === -1 ? '' : pair.slice(eq + 1);
        if (decode)
          try {
            k = decodeURIComponent(k.replace(/\+/g, ' '));
            v = decodeURIComponent(v.replace(/\+/g, ' '));
          } catch {
            // kept as sent
          }
        if (k === '__proto__') continue;
        const values = fields.get(k);
        if (values) values.push(v);
        else fields.set(k, [v]);
      }
      const form: Record<string, unknown> = {};
      for (const [k, values] of fields) form[k] = values.length === 1 ? values[0] : manyValues(values);
      return name === undefined ? renderable(form) : assign(o, name, form);
    },
    parseJson: function (...a) {
      const [args, o] = split(a);
      const block = (o.fn as unknown) !== undefined;
      const source = block ? o.fn(this) : text(args[0]);
      const name = block ? args[0] : args[1];
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch {
        throw new Error('parseJson: the text is not JSON');
      }
      return name === undefined ? renderable(value) : assign(o, name, value);
    },
    toJson: (...a) => counted(JSON.stringify(split(a)[0][0] ?? null) ?? 'null'),
  };
  // WireMock's own name for its separator-first join.
  h.arrayJoin = h.join!;
  return h as Record<string, HelperDelegate>;
}

/** `position=` of arrayAdd/arrayRemove: a number, `start` or `end` (the default). */
function position(o: HelperOptions, end: number, fallback: number): number {
  const p = (o.hash as Hash).position;
  if (p === undefined || p === 'end') return Math.max(0, fallback);
  if (p === 'start') return 0;
  const n = Math.floor(num(p, NaN));
  if (!(n >= 0 && n <= Math.max(0, end)))
    throw new Error(`position ${text(p)} is outside the array (0 to ${Math.max(0, end)}, start or end)`);
  return n;
}
