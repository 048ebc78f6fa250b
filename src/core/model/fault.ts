import * as z from 'zod';
import { DRIP_MAX_BYTES_PER_SECOND } from './limits.js';

/**
 * Faults an endpoint or a variation can answer with instead of a plain response (docs/faults.md):
 * `reset` (a TCP reset, no answer), `empty` (the connection closes, nothing sent), `garbage`
 * (random bytes that are not HTTP, then close), `drip:<bytes-per-second>` (the answer, sent
 * slowly in chunks). `faultRate` (0 to 1, default 1) is the share of requests that get it.
 */

export const FAULT_KINDS = ['reset', 'empty', 'garbage', 'drip'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ParsedFault {
  kind: FaultKind;
  /** For `drip`: how many bytes of the answer are sent per second. */
  bytesPerSecond?: number;
}

export const FAULT_RULE = `must be reset, empty, garbage or drip:<bytes-per-second> (e.g. drip:1024, at most ${DRIP_MAX_BYTES_PER_SECOND})`;

/** A fault as text, read; null when it is not one (FAULT_RULE says what is). */
export function parseFault(text: string): ParsedFault | null {
  const t = text.trim().toLowerCase();
  if (t === 'reset' || t === 'empty' || t === 'garbage') return { kind: t };
  const drip = /^drip:([1-9]\d{0,9})$/.exec(t);
  if (drip === null) return null;
  const bytesPerSecond = Number(drip[1]);
  return bytesPerSecond <= DRIP_MAX_BYTES_PER_SECOND ? { kind: 'drip', bytesPerSecond } : null;
}

/** The fault as stored: its text, trimmed and lower-case (`drip:2048`). */
export const FaultSchema = z
  .string({ error: FAULT_RULE })
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.string().regex(/^(reset|empty|garbage|drip:[1-9]\d{0,9})$/, FAULT_RULE))
  .refine((s) => parseFault(s) !== null, FAULT_RULE);
export type Fault = z.infer<typeof FaultSchema>;

/** The share of requests that get the fault: 0 (none) to 1 (every one, the default). */
export const FaultRateSchema = z
  .number({ error: 'must be a number from 0 to 1' })
  .min(0, 'must be from 0 to 1')
  .max(1, 'must be from 0 to 1');
