/**
 * The delay and fault part of the endpoint and variation forms (docs/faults.md) as plain data:
 * a fixed delay, a uniform range or a lognormal (median, sigma); a fault and its rate. Built from
 * the stored fields, checked within the core's limits, and turned into what the admin API takes.
 */
import type { Delay } from '../../../src/core/model/fields';
import { DELAY_MAX_MS, DELAY_SIGMA_MAX, DRIP_MAX_BYTES_PER_SECOND } from '../../../src/core/model/limits';

export const DELAY_KINDS = [
  ['fixed', 'Fixed'],
  ['uniform', 'Uniform (from – to)'],
  ['lognormal', 'Lognormal (median, spread)'],
] as const;
export type DelayKind = (typeof DELAY_KINDS)[number][0];

export const FAULT_CHOICES = [
  ['', 'None'],
  ['reset', 'Reset (TCP reset, no answer)'],
  ['empty', 'Empty (closed, nothing sent)'],
  ['garbage', 'Garbage (bytes that are not HTTP)'],
  ['drip', 'Drip (the answer sent slowly)'],
] as const;
export type FaultChoice = (typeof FAULT_CHOICES)[number][0];

export interface TimingValues {
  delayKind: DelayKind;
  /** A fixed delay, in ms. */
  delay: string;
  delayMin: string;
  delayMax: string;
  delayMedian: string;
  delaySigma: string;
  fault: FaultChoice;
  /** Drip: bytes per second. */
  dripRate: string;
  /** 0 to 1; empty: 1 (every request). */
  faultRate: string;
}

export type TimingProblems = Partial<Record<'delay' | 'fault' | 'faultRate', string>>;

/** The form's values of a stored delay and fault (none given: no delay, no fault). */
export function timingValues(r?: { delay: Delay; fault?: string; faultRate?: number }): TimingValues {
  const d = r?.delay ?? 0;
  const drip = /^drip:(\d+)$/.exec(r?.fault ?? '');
  return {
    delayKind: typeof d === 'number' ? 'fixed' : 'uniform' in d ? 'uniform' : 'lognormal',
    delay: typeof d === 'number' ? String(d) : '0',
    delayMin: typeof d === 'object' && 'uniform' in d ? String(d.uniform[0]) : '',
    delayMax: typeof d === 'object' && 'uniform' in d ? String(d.uniform[1]) : '',
    delayMedian: typeof d === 'object' && 'lognormal' in d ? String(d.lognormal.median) : '',
    delaySigma: typeof d === 'object' && 'lognormal' in d ? String(d.lognormal.sigma) : '0.5',
    fault: drip ? 'drip' : ((r?.fault ?? '') as FaultChoice),
    dripRate: drip ? drip[1]! : '1024',
    faultRate: r?.faultRate !== undefined ? String(r.faultRate) : '',
  };
}

const whole = (text: string, min: number, max: number): number | undefined => {
  if (!/^\s*\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
};
const decimal = (text: string, min: number, max: number): number | undefined => {
  if (!/^\s*\d*\.?\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
};

const MS = `a whole number of milliseconds from 0 to ${DELAY_MAX_MS}`;

/** What the form can tell before asking the API (the API checks everything again). */
export function timingProblems(v: TimingValues): TimingProblems {
  const out: TimingProblems = {};
  if (v.delayKind === 'fixed' && whole(v.delay, 0, DELAY_MAX_MS) === undefined)
    out.delay = `A whole number of milliseconds from 0 to ${DELAY_MAX_MS}`;
  if (v.delayKind === 'uniform') {
    const [min, max] = [whole(v.delayMin, 0, DELAY_MAX_MS), whole(v.delayMax, 0, DELAY_MAX_MS)];
    if (min === undefined || max === undefined) out.delay = `From and to: each ${MS}`;
    else if (min > max) out.delay = 'From must not be above to';
  }
  if (v.delayKind === 'lognormal') {
    if (whole(v.delayMedian, 0, DELAY_MAX_MS) === undefined) out.delay = `The median: ${MS}`;
    else if (decimal(v.delaySigma, 0, DELAY_SIGMA_MAX) === undefined)
      out.delay = `The spread (sigma): a number from 0 to ${DELAY_SIGMA_MAX}`;
  }
  if (v.fault === 'drip' && whole(v.dripRate, 1, DRIP_MAX_BYTES_PER_SECOND) === undefined)
    out.fault = `Bytes per second: a whole number from 1 to ${DRIP_MAX_BYTES_PER_SECOND}`;
  if (v.fault !== '' && v.faultRate.trim() && decimal(v.faultRate, 0, 1) === undefined)
    out.faultRate = 'A number from 0 to 1 (empty: every request)';
  return out;
}

/** The delay of checked values. */
export function delayOf(v: TimingValues): Delay {
  if (v.delayKind === 'uniform') return { uniform: [Number(v.delayMin), Number(v.delayMax)] };
  if (v.delayKind === 'lognormal')
    return { lognormal: { median: Number(v.delayMedian), sigma: Number(v.delaySigma) } };
  return Number(v.delay);
}

const faultOf = (v: TimingValues): string | undefined =>
  v.fault === '' ? undefined : v.fault === 'drip' ? `drip:${Number(v.dripRate)}` : v.fault;
const rateOf = (v: TimingValues): number | undefined =>
  v.fault === '' || !v.faultRate.trim() ? undefined : Number(v.faultRate);

/** The fields of a new endpoint or variation. */
export function timingInput(v: TimingValues): Record<string, unknown> {
  const fault = faultOf(v);
  const rate = rateOf(v);
  return {
    delay: delayOf(v),
    ...(fault !== undefined ? { fault } : {}),
    ...(rate !== undefined ? { faultRate: rate } : {}),
  };
}

/** What changed from `base` (the form as loaded): `null` removes a fault or its rate. */
export function timingPatch(base: TimingValues, form: TimingValues): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (JSON.stringify(delayOf(form)) !== JSON.stringify(delayOf(base))) p.delay = delayOf(form);
  if (faultOf(form) !== faultOf(base)) p.fault = faultOf(form) ?? null;
  if (rateOf(form) !== rateOf(base)) p.faultRate = rateOf(form) ?? null;
  return p;
}
