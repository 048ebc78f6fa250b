import { MockdevError } from './errors.js';
import { DelaySchema, type Delay } from './model/fields.js';
import { DELAY_MAX_MS } from './model/limits.js';
import { seededRandom, type Random } from './random.js';

export { seededRandom, type Random };

/**
 * Sampling delays and faults (pure: the random source is given, so tests can seed it). The
 * runtime compiles these once per endpoint change (runtime/timing.ts) and calls the result per
 * request.
 */

/** A standard normal number (Box-Muller). */
function normal(random: Random): number {
  const u = 1 - random(); // (0, 1]: log(u) is finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const bounded = (ms: number): number => Math.min(DELAY_MAX_MS, Math.max(0, Math.round(ms)));

/**
 * How a delay is taken per request: a fixed one is its number (nothing to sample); a
 * distribution gives a sampler of whole milliseconds, within 0 and DELAY_MAX_MS.
 */
export function delaySampler(delay: Delay, random: Random = Math.random): number | (() => number) {
  if (typeof delay === 'number') return delay;
  if ('uniform' in delay) {
    const [min, max] = delay.uniform;
    if (min === max) return min;
    return () => bounded(min + random() * (max - min + 1) - 0.5);
  }
  const { median, sigma } = delay.lognormal;
  if (sigma === 0 || median === 0) return median;
  return () => bounded(median * Math.exp(sigma * normal(random)));
}

/**
 * Whether a request gets the fault, for a rate from 0 to 1: "always" (1) and "never" (0) are
 * booleans, so the common cases draw nothing; a rate between gives a chooser.
 */
export function faultChooser(rate: number, random: Random = Math.random): boolean | (() => boolean) {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return () => random() < rate;
}

/** Whether a delay may hold a response back at all (0 does not). */
export const hasDelay = (delay: Delay): boolean => typeof delay !== 'number' || delay > 0;

/** A fault as people read it: `reset`, `drip:1024 (20 % of requests)`. */
export const faultText = (r: { fault?: string; faultRate?: number }): string =>
  r.fault === undefined
    ? 'none'
    : `${r.fault}${r.faultRate !== undefined && r.faultRate < 1 ? ` (${Math.round(r.faultRate * 1000) / 10} % of requests)` : ''}`;

/** A delay as people write it: `250`, `100..400`, `lognormal:200,0.5` (the CLI's form). */
export function formatDelay(delay: Delay): string {
  if (typeof delay === 'number') return `${delay} ms`;
  if ('uniform' in delay) return `${delay.uniform[0]}..${delay.uniform[1]} ms`;
  return `lognormal median ${delay.lognormal.median} ms, sigma ${delay.lognormal.sigma}`;
}

const DELAY_FORMS =
  'use milliseconds (250), a range (100..400) or lognormal:MEDIAN,SIGMA (lognormal:200,0.5)';

/**
 * A delay as written on a command line: `250`, `100..400` (uniform) or `lognormal:200,0.5`;
 * INVALID_ARGUMENT naming `flag` and the forms otherwise.
 */
export function parseDelayText(text: string, flag = '--delay'): Delay {
  const t = text.trim();
  const num = '(\\d+(?:\\.\\d+)?)';
  let candidate: unknown;
  let m: RegExpExecArray | null;
  // A number is checked where it is saved, as it always was ("Invalid delay -5: must not be negative").
  if (/^[+-]?\d+$/.test(t)) return Number(t);
  if ((m = /^(\d+)\s*\.\.\s*(\d+)$/.exec(t))) candidate = { uniform: [Number(m[1]), Number(m[2])] };
  else if ((m = new RegExp(`^lognormal:\\s*${num}\\s*,\\s*${num}$`, 'i').exec(t)))
    candidate = { lognormal: { median: Number(m[1]), sigma: Number(m[2]) } };
  else throw new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${text}": ${DELAY_FORMS}`);
  const parsed = DelaySchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  throw new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${text}": ${parsed.error.issues[0]!.message}`);
}
