import type { Command } from 'commander';
import { MockdevError } from '../core/errors.js';
import { parseDelayText } from '../core/latency.js';
import type { Delay } from '../core/model/fields.js';
import { FAULT_RULE, FaultRateSchema, parseFault } from '../core/model/fault.js';
import type { FieldDoc } from '../core/model/descriptions.js';
import { fieldHelp } from './help.js';

/**
 * The delay and fault options endpoint and variation add/update share (docs/faults.md):
 * `--delay 250 | 100..400 | lognormal:200,0.5`, `--fault reset|empty|garbage|drip:BPS`,
 * `--fault-rate 0.2`, `--no-fault`.
 */
export interface TimingOptions {
  delay?: string;
  /** The fault's text; false: `--no-fault`. */
  fault?: string | false;
  faultRate?: string;
}

export function timingOptions(
  cmd: Command,
  docs: { delay: FieldDoc; fault: FieldDoc; faultRate: FieldDoc },
  forUpdate: boolean,
): Command {
  const help = (doc: FieldDoc, more?: string) => fieldHelp(doc, { default: !forUpdate, more });
  return cmd
    .option('--delay <DELAY>', help(docs.delay, 'on the command line: 250, 100..400 or lognormal:200,0.5'))
    .option('--fault <FAULT>', help(docs.fault))
    .option('--fault-rate <RATE>', help(docs.faultRate))
    .option('--no-fault', forUpdate ? 'remove the fault (and its rate)' : 'no fault (the default)');
}

/** The fields the options give; unset ones are left out. `--no-fault` removes the fault and its rate. */
export function timingFields(opts: TimingOptions): {
  delay?: Delay;
  fault?: string | null;
  faultRate?: number | null;
} {
  const out: { delay?: Delay; fault?: string | null; faultRate?: number | null } = {};
  if (opts.delay !== undefined) out.delay = parseDelayText(opts.delay);
  if (opts.fault === false) {
    if (opts.faultRate !== undefined)
      throw new MockdevError('INVALID_ARGUMENT', 'Give --fault-rate with a fault, not with --no-fault');
    return { ...out, fault: null, faultRate: null };
  }
  if (opts.fault !== undefined) {
    if (parseFault(opts.fault) === null)
      throw new MockdevError('INVALID_ARGUMENT', `Invalid --fault "${opts.fault}": ${FAULT_RULE}`);
    out.fault = opts.fault;
  }
  if (opts.faultRate !== undefined) {
    const text = opts.faultRate.trim();
    const rate = FaultRateSchema.safeParse(/^\d*\.?\d+$/.test(text) ? Number(text) : NaN);
    if (!rate.success)
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Invalid --fault-rate "${opts.faultRate}": must be a number from 0 to 1 (e.g. 0.2: one request in five)`,
      );
    out.faultRate = rate.data;
  }
  return out;
}
