import { addFlowStep, findFlowByRef, findStepByRef, removeFlowStep } from '../../app/flows.js';
import { resolveProject } from '../../app/projects.js';
import { stepName } from '../../core/flows.js';
import { MockdevError } from '../../core/errors.js';
import type { FlowStepInput } from '../../core/model/flow.js';
import { toHeaders, toInt } from '../args.js';
import type { FlowStepOptions } from '../commands/flow.js';
import { confirmDestructive } from '../confirm.js';
import { stepText } from '../flow-text.js';
import { note, printJson, printLine } from '../output.js';
import { cliContext } from './context.js';

const TRIGGER_FORMS = 'request:<ENDPOINT>, delay:<MS> or after:<STEP>[+<MS>]';
const ACTION_FORMS = '--respond <ENDPOINT>, --callback "<METHOD> <URL>" or --proxy-through <ENDPOINT>';

const bad = (message: string, hint?: string): MockdevError =>
  new MockdevError('INVALID_ARGUMENT', message, hint ? { hint } : {});

/** A whole number of milliseconds in an --on value. */
function ms(text: string, on: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw bad(
      `Invalid --on "${on}": "${text}" is not a whole number of milliseconds`,
      `Use ${TRIGGER_FORMS}`,
    );
  return Number(text.trim());
}

/** `--on request:<ENDPOINT>` | `delay:<MS>` | `after:<STEP>[+<MS>]`. */
export function parseTrigger(on: string): FlowStepInput['trigger'] {
  const m = /^\s*(request|delay|after)\s*:(.*)$/is.exec(on);
  const type = m?.[1]!.toLowerCase();
  const rest = m?.[2]!.trim() ?? '';
  if (m && rest !== '') {
    if (type === 'request') return { type: 'request', endpointId: rest };
    if (type === 'delay') return { type: 'delay', ms: ms(rest, on) };
    const plus = rest.lastIndexOf('+');
    if (plus === -1) return { type: 'after', stepId: rest, delayMs: 0 };
    const stepId = rest.slice(0, plus).trim();
    if (stepId !== '') return { type: 'after', stepId, delayMs: ms(rest.slice(plus + 1), on) };
  }
  throw bad(
    `Invalid --on "${on}": use ${TRIGGER_FORMS}`,
    'E.g. --on "request:POST /orders", --on delay:2000, --on after:accept+500',
  );
}

/** `--callback "<METHOD> <URL>"`. */
function parseCallback(value: string): { method: string; url: string } {
  const m = /^\s*([A-Za-z]+)\s+(\S.*?)\s*$/.exec(value);
  if (!m)
    throw bad(
      `Invalid --callback "${value}": use "<METHOD> <URL>"`,
      'E.g. --callback "POST https://example.com/hook" or --callback "PUT {{env.HOOK_URL}}/orders/{{body.id}}"',
    );
  return { method: m[1]!.toUpperCase(), url: m[2]! };
}

/** The step the options describe: exactly one trigger and one action. */
export function stepFrom(opts: FlowStepOptions): FlowStepInput {
  const triggers = opts.on ?? [];
  if (triggers.length !== 1)
    throw bad(
      triggers.length ? `Give one trigger, not ${triggers.length} (--on)` : 'A step needs a trigger: --on',
      `Use --on ${TRIGGER_FORMS}`,
    );
  const actions = [
    ...(opts.respond ?? []).map((e) => ({ type: 'respond' as const, endpointId: e })),
    ...(opts.proxyThrough ?? []).map((e) => ({ type: 'proxy' as const, endpointId: e })),
    ...(opts.callback ?? []).map((c) => ({ type: 'callback' as const, ...parseCallback(c) })),
  ];
  if (actions.length !== 1)
    throw bad(
      actions.length ? `Give one action, not ${actions.length}` : 'A step needs an action',
      `Use one of ${ACTION_FORMS}`,
    );
  const action = actions[0]!;
  const callbackOnly = [
    opts.header?.length ? '-H' : '',
    opts.body !== undefined ? '-b' : '',
    opts.retries !== undefined ? '--retries' : '',
    opts.timeout !== undefined ? '--timeout' : '',
  ].filter(Boolean);
  if (action.type !== 'callback' && callbackOnly.length)
    throw bad(`${callbackOnly.join(', ')} go${callbackOnly.length === 1 ? 'es' : ''} with --callback only`);
  const headers = toHeaders(opts.header, '-H');
  const retries = toInt(opts.retries, '--retries');
  const timeoutMs = toInt(opts.timeout, '--timeout');
  return {
    ...(opts.label !== undefined ? { label: opts.label } : {}),
    trigger: parseTrigger(triggers[0]!),
    action:
      action.type === 'callback'
        ? {
            ...action,
            method: action.method as never,
            ...(headers ? { headers } : {}),
            ...(opts.body !== undefined ? { body: opts.body } : {}),
            ...(retries !== undefined ? { retries } : {}),
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          }
        : action,
  };
}

export async function add(project: string, ref: string, opts: FlowStepOptions): Promise<void> {
  const ctx = cliContext();
  const input = stepFrom(opts);
  const { flow, step } = await addFlowStep(ctx, project, ref, input);
  if (opts.json) return printJson(step);
  const state = await resolveProject(ctx, project);
  const index = flow.steps.findIndex((s) => s.id === step.id);
  printLine(
    `Added ${stepName(step, index, 'step')} (id ${step.id}) to flow "${flow.name}": ${stepText(flow, state.endpoints, step)}`,
  );
}

export async function remove(
  project: string,
  ref: string,
  stepRef: string,
  opts: FlowStepOptions,
): Promise<void> {
  const ctx = cliContext();
  const state = await resolveProject(ctx, project);
  const flow = findFlowByRef(state, ref);
  const target = findStepByRef(flow, stepRef);
  const index = flow.steps.indexOf(target);
  const ok = await confirmDestructive(
    `Remove ${stepName(target, index, 'step')} of flow "${flow.name}"?`,
    opts.force,
  );
  if (!ok) return note('Cancelled; nothing was removed.');
  const { step } = await removeFlowStep(ctx, state.location, flow.id, target.id);
  if (opts.json) return printJson(step);
  printLine(`Removed ${stepName(step, index, 'step')} (id ${step.id}) of flow "${flow.name}"`);
}
