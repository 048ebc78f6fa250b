import { randomInt } from 'node:crypto';
import type { HelperOptions } from 'handlebars';
import { SECRET_MASK } from '../model/credentials.js';
import { OutputLimitError } from './limits.js';

/**
 * Secret-derived output, tracked while a template renders (docs/decisions.md "Secrets in
 * rendered responses"). The environment's secret values enter the render marked: wrapped in
 * tokens of private-use characters with a per-process nonce, which no client data can forge and
 * no case change alters. A helper given a marked value (or an object holding one) gets it
 * unmarked and marks its whole output; `json` keeps marks where they are, so a secret's escaped
 * form is marked exactly. After the render, the client's copy drops the tokens and the log's copy
 * replaces each marked span with the mask: the same render, never a second one, and no search
 * for the secret's text.
 */

const NONCE = Array.from({ length: 4 }, () => String.fromCharCode(0xe100 + randomInt(0x1700))).join('');
/** Opens a secret-derived text. */
const OPEN = `\uE000${NONCE}`;
/** Opens a secret-derived number or boolean (its text follows: it is restored when read). */
const OPEN_NUMBER = `\uE001${NONCE}`;
const OPEN_BOOLEAN = `\uE002${NONCE}`;
const CLOSE = `\uE003${NONCE}`;
const TOKEN = new RegExp(`[\uE000-\uE003]${NONCE}`, 'g');

/** Whether a text holds a marked span (a cheap test before any other work). */
export const hasMarks = (text: string): boolean => text.includes(NONCE);

/** A secret value, marked (an empty one stays empty: it shows nothing and stays falsy). */
export const markText = (text: string): string => (text === '' ? text : OPEN + text + CLOSE);

/** The text as the client gets it: the tokens removed. */
export const stripMarks = (text: string): string => (hasMarks(text) ? text.replace(TOKEN, '') : text);

/**
 * The text as the log keeps it: each marked span replaced with `mask`; what is left holds no
 * marks (a close without its open is dropped), so it needs no stripMarks after.
 */
export function maskMarks(text: string, mask: string = SECRET_MASK): string {
  if (!hasMarks(text)) return text;
  let out = '';
  let at = 0;
  let depth = 0;
  for (const m of text.matchAll(TOKEN)) {
    const i = m.index;
    if (m[0] !== CLOSE) {
      if (depth++ === 0) out += text.slice(at, i) + mask;
    } else if (depth === 0) {
      out += text.slice(at, i); // a close without an open: dropped
      at = i + CLOSE.length;
    } else if (--depth === 0) at = i + CLOSE.length;
  }
  // An open without its close: everything after it stays masked.
  return depth > 0 ? out : out + text.slice(at);
}

/** Marked objects and the unmarked ones they stand for: a helper is given the latter. */
const originals = new WeakMap<object, object>();

/** Marks a value derived from a secret: texts, numbers and booleans; objects leaf by leaf. */
export function markValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return markText(stripMarks(value));
  if (typeof value === 'number') return OPEN_NUMBER + String(value) + CLOSE;
  if (typeof value === 'boolean') return OPEN_BOOLEAN + String(value) + CLOSE;
  if (typeof value === 'bigint') return markText(String(value));
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [k, v] of Object.entries(value)) (copy as Record<string, unknown>)[k] = markValue(v, depth + 1);
  originals.set(copy, value);
  return copy;
}

/** The environment as a render with secrets sees it: each secret's value marked. */
export function markSecrets(env: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const secret = new Set(secrets.filter((s) => s !== ''));
  const marked: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) marked[k] = secret.has(v) ? markText(v) : v;
  originals.set(marked, env);
  return marked;
}

/** Tells the helpers what a context holding marked values stands for (its own properties unmarked). */
export function registerOriginal(marked: object, original: object): void {
  originals.set(marked, original);
}

let tainted = false;

/** A value as a helper gets it: unmarked (a whole marked number or boolean restored). */
function unmark(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!hasMarks(value)) return value;
    tainted = true;
    if (value.endsWith(CLOSE) && value.indexOf(CLOSE) === value.length - CLOSE.length) {
      const inner = value.slice(OPEN.length, -CLOSE.length);
      if (value.startsWith(OPEN_NUMBER)) return Number(inner);
      if (value.startsWith(OPEN_BOOLEAN)) return inner === 'true';
    }
    return stripMarks(value);
  }
  if (typeof value === 'object' && value !== null) {
    const original = originals.get(value);
    if (original !== undefined) {
      tainted = true;
      return original;
    }
  }
  return value;
}

/** A condition as Handlebars' `if` and `unless` test it: a secret-derived `false` or `0` stays falsy. */
export function unmarkCondition(value: unknown): unknown {
  if (typeof value !== 'string' || !(value.startsWith(OPEN_NUMBER) || value.startsWith(OPEN_BOOLEAN)))
    return value;
  const restored = unmark(value);
  return typeof restored === 'string' ? value : restored;
}

/** `with`'s context: a secret-derived `false` renders the else block, as `false` does. */
export const unmarkWith = (value: unknown): unknown =>
  value === `${OPEN_BOOLEAN}false${CLOSE}` ? false : value;

type Helper = (this: unknown, ...args: unknown[]) => unknown;

/**
 * A helper that tracks secrets: its arguments and named arguments unmarked; when any was marked,
 * its whole output is marked and a failure does not quote what it was given. `keep` names the
 * positional arguments passed on as they are (`json`'s value keeps its marks in place).
 */
export function trackingHelper(name: string, helper: Helper, keep: readonly number[] = []): Helper {
  return function (this: unknown, ...a: unknown[]) {
    const n = a.length - 1;
    tainted = false;
    const args = a.slice();
    for (let i = 0; i < n; i++) if (!keep.includes(i)) args[i] = unmark(a[i]);
    let options = a[n] as HelperOptions;
    let hash: Record<string, unknown> | undefined;
    for (const key in options.hash) {
      const value = (options.hash as Record<string, unknown>)[key];
      const plain = unmark(value);
      if (plain !== value) (hash ??= { ...(options.hash as Record<string, unknown>) })[key] = plain;
    }
    if (hash) options = { ...options, hash };
    args[n] = options;
    const marked = tainted;
    let out: unknown;
    try {
      out = helper.apply(this, args);
    } catch (e) {
      if (!marked || e instanceof OutputLimitError) throw e;
      throw new Error(`${name} failed on a value derived from a secret (its message is not shown)`);
    }
    if (!marked) return out;
    return markValue(out);
  };
}

/** `json`'s output with secret numbers and booleans written as such (unquoted), still marked. */
export function markedJson(json: string | undefined): string | undefined {
  if (json === undefined || (!json.includes(OPEN_NUMBER) && !json.includes(OPEN_BOOLEAN))) return json;
  return json.replace(
    new RegExp(`"(?:${OPEN_NUMBER}|${OPEN_BOOLEAN})([^"]*)${CLOSE}"`, 'g'),
    (_, value: string) => OPEN + value + CLOSE,
  );
}
