/**
 * Words across a thread boundary. A hint, and any text worded for an adapter (an import report's
 * advice), may be a function of the adapter's Wording, which cannot be sent to another thread.
 * The other thread words with marks instead (markedWording); the adapter's thread puts its own
 * words in their place (fillMarks). A MockdevError goes across as plain data (errorToData) and
 * comes back with its code, message, details and a hint that is again a function of the Wording
 * (errorFromData). A mark holds a key the caller makes up for each crossing, so that text from a
 * document that happens to look like a mark is never taken for one.
 */
import { MockdevError, type ErrorCode, type Hint, type Wording } from './errors.js';

const OPEN = '\u0001';
const CLOSE = '\u0002';

type Said = ['option' | 'turnOn', string] | ['action', string, string?];

const mark = (key: string, said: Said): string => `${OPEN}${key}${JSON.stringify(said)}${CLOSE}`;

/** A Wording that writes marks (`key` tells them from anything else) for fillMarks to word later. */
export const markedWording = (key: string): Wording => ({
  option: (name) => mark(key, ['option', name]),
  turnOn: (name) => mark(key, ['turnOn', name]),
  action: (name, subject) => mark(key, subject === undefined ? ['action', name] : ['action', name, subject]),
});

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with each mark of `key` worded by `say`. */
function fillText(text: string, key: string, say: Wording): string {
  if (!text.includes(`${OPEN}${key}`)) return text;
  const marks = new RegExp(`\u0001${escapeRegExp(key)}(\\[[^\u0001\u0002]*\\])\u0002`, 'g');
  return text.replace(marks, (whole: string, json: string) => {
    const said = JSON.parse(json) as Said;
    if (said[0] === 'action') return say.action(said[1] as Parameters<Wording['action']>[0], said[2]);
    return say[said[0]](said[1] as Parameters<Wording['option']>[0]);
  });
}

/** Words the marks of `key` in every string of a value (objects and arrays changed in place). */
export function fillMarks<T>(value: T, key: string, say: Wording): T {
  if (typeof value === 'string') return fillText(value, key, say) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    const item = record[k];
    if (typeof item === 'string') {
      const filled = fillText(item, key, say);
      if (filled !== item) record[k] = filled;
    } else if (item !== null && typeof item === 'object') fillMarks(item, key, say);
  }
  return value;
}

/** A MockdevError as plain data, for another thread: its hint worded with marks of `key`. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
  /** Where it was thrown, for a bug's debug log. */
  stack?: string;
}

export function errorToData(e: MockdevError, key: string): ErrorData {
  const hint = typeof e.hint === 'function' ? e.hint(markedWording(key)) : e.hint;
  const cause = e.cause instanceof Error ? e.cause : e;
  return {
    code: e.code,
    message: e.message,
    ...(hint !== undefined ? { hint } : {}),
    // Details are JSON data; a round trip keeps them so whatever a thrower put there.
    ...(e.details ? { details: JSON.parse(JSON.stringify(e.details)) as Record<string, unknown> } : {}),
    ...(cause.stack ? { stack: cause.stack } : {}),
  };
}

/** The MockdevError sent as data, its hint worded by whichever adapter shows it. */
export function errorFromData(data: ErrorData, key: string): MockdevError {
  const { hint } = data;
  const worded: Hint | undefined =
    hint !== undefined && hint.includes(`${OPEN}${key}`) ? (say) => fillText(hint, key, say) : hint;
  const cause = data.stack ? Object.assign(new Error(data.message), { stack: data.stack }) : undefined;
  return new MockdevError(data.code, data.message, { hint: worded, details: data.details, cause });
}
