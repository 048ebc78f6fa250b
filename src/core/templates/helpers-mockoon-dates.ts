import type { HelperDelegate } from 'handlebars';
import { formatDate } from './dates.js';
import { rand, split, text } from './helpers.js';

/**
 * Mockoon's date helpers (`dateTimeShift`, `dateFormat`, `isValidDate`, `time`), in UTC. Formats are
 * date-fns-like as Mockoon writes them: the tokens of dates.ts, with `'…'` quoting literal text
 * (`yyyy-MM-dd'T'HH:mm`). Without a format, a date is written in ISO 8601.
 */

/** A format with its quoted parts kept as written and the rest formatted. */
function format(d: Date, pattern: unknown): string {
  if (typeof pattern !== 'string' || pattern === '') return d.toISOString();
  if (!pattern.includes("'")) return formatDate(d, pattern);
  return pattern
    .split("'")
    .map((part, i) => (i % 2 === 1 ? part : part === '' ? '' : formatDate(d, part)))
    .join('');
}

/** A date from a value: a Date, a number (milliseconds) or a text Date can read; else undefined. */
function toDate(value: unknown): Date | undefined {
  const d =
    value instanceof Date
      ? new Date(value.getTime())
      : typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')
        ? new Date(value)
        : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/** The shifts `dateTimeShift` reads, and how each moves a (UTC) date. */
const SHIFTS: [string, (d: Date, n: number) => void][] = [
  ['years', (d, n) => d.setUTCFullYear(d.getUTCFullYear() + n)],
  ['months', (d, n) => d.setUTCMonth(d.getUTCMonth() + n)],
  ['weeks', (d, n) => d.setUTCDate(d.getUTCDate() + 7 * n)],
  ['days', (d, n) => d.setUTCDate(d.getUTCDate() + n)],
  ['hours', (d, n) => d.setUTCHours(d.getUTCHours() + n)],
  ['minutes', (d, n) => d.setUTCMinutes(d.getUTCMinutes() + n)],
  ['seconds', (d, n) => d.setUTCSeconds(d.getUTCSeconds() + n)],
];

export const mockoonDateHelpers: Record<string, HelperDelegate> = {
  dateTimeShift: (...a: unknown[]) => {
    const hash = split(a)[1].hash as Record<string, unknown>;
    const d = hash.date === undefined ? new Date() : toDate(hash.date);
    if (!d) return '';
    for (const [unit, shift] of SHIFTS) {
      const n = Number(text(hash[unit]));
      if (hash[unit] !== undefined && Number.isFinite(n)) shift(d, Math.trunc(n));
    }
    return Number.isNaN(d.getTime()) ? '' : format(d, hash.format);
  },
  dateFormat: (...a: unknown[]) => {
    const [[value, pattern]] = split(a);
    const d = toDate(value);
    return d ? format(d, pattern) : '';
  },
  isValidDate: (...a: unknown[]) => toDate(split(a)[0][0]) !== undefined,
  /** A random time from `from` to `to` (`HH:mm[:ss]`), in a format (default `HH:mm`). */
  time: (...a: unknown[]) => {
    const [[from, to, pattern]] = split(a);
    const lo = toDate(`1970-01-01T${text(from)}Z`);
    const hi = toDate(`1970-01-01T${text(to)}Z`);
    if (!lo || !hi || hi < lo) return '';
    const t = lo.getTime() + Math.floor(rand() * (hi.getTime() - lo.getTime() + 1));
    return format(new Date(t), typeof pattern === 'string' ? pattern : 'HH:mm');
  },
};
