/**
 * The flow editor's form as plain data: built from a flow, checked, and turned into what PATCH
 * …/flows/{flow} takes. Problems are keyed by the dotted path the admin API names in a
 * problem's `details.field` (`name`, `steps.1.action.url`), so the form's own and the API's
 * show at the same field. No React here (and imports as Node's: unit tested in flow-form.test.ts).
 */
import type { Endpoint } from '../../../src/core/model/endpoint';
import type { Flow, FlowStep, FlowStepInput } from '../../../src/core/model/flow';
import {
  CALLBACK_RETRIES_MAX,
  CALLBACK_TIMEOUT_MAX_MS,
  DEFAULT_CALLBACK_TIMEOUT_MS,
  FLOW_DELAY_MAX_MS,
} from '../../../src/core/model/limits';
import { headerRows, newRowId, rowsToHeaders, wholeNumber, type HeaderRow } from '../editor/form-model';

export type TriggerType = FlowStep['trigger']['type'];
export type ActionType = FlowStep['action']['type'];

/** The triggers and actions in the words of the SPEC (part 2), in its order. */
export const TRIGGERS: [TriggerType, string][] = [
  ['request', 'When request hits'],
  ['delay', 'After delay'],
  ['after', 'After step'],
];
export const ACTIONS: [ActionType, string][] = [
  ['respond', 'Return mock response'],
  ['callback', 'Send callback (HTTP)'],
  ['proxy', 'Proxy forward'],
];

export interface StepForm {
  /** Stable while edited (new steps have no id yet): what an `after` trigger points at. */
  key: number;
  /** The saved step's id; absent for a step added here. */
  id?: string;
  label: string;
  trigger: TriggerType;
  /** A request trigger's endpoint (id). */
  triggerEndpoint: string;
  /** A delay trigger's ms, or an after trigger's delayMs. */
  delay: string;
  /** The key of the step an after trigger follows; 0: none chosen. */
  after: number;
  action: ActionType;
  /** A respond or proxy action's endpoint (id). */
  actionEndpoint: string;
  method: string;
  url: string;
  headers: HeaderRow[];
  body: string;
  retries: string;
  timeout: string;
}

export interface FlowForm {
  name: string;
  description: string;
  steps: StepForm[];
}

/** Problems by dotted path (`name`, `steps.0.action.url`). */
export type FlowProblems = Record<string, string>;

export function newStep(): StepForm {
  return {
    key: newRowId(),
    label: '',
    trigger: 'request',
    triggerEndpoint: '',
    delay: '0',
    after: 0,
    action: 'callback',
    actionEndpoint: '',
    method: 'POST',
    url: '',
    headers: [],
    body: '',
    retries: '0',
    timeout: String(DEFAULT_CALLBACK_TIMEOUT_MS),
  };
}

export function flowForm(flow: Flow): FlowForm {
  const steps = flow.steps.map((s) => ({ ...newStep(), id: s.id, label: s.label ?? '' }));
  flow.steps.forEach((s, i) => {
    const f = steps[i]!;
    const t = s.trigger;
    f.trigger = t.type;
    if (t.type === 'request') f.triggerEndpoint = t.endpointId;
    if (t.type === 'delay') f.delay = String(t.ms);
    if (t.type === 'after') {
      f.delay = String(t.delayMs);
      f.after = steps.find((o) => o.id === t.stepId)?.key ?? 0;
    }
    const a = s.action;
    f.action = a.type;
    if (a.type === 'callback')
      Object.assign(f, {
        method: a.method,
        url: a.url,
        headers: headerRows(a.headers),
        body: a.body ?? '',
        retries: String(a.retries),
        timeout: String(a.timeoutMs),
      });
    else f.actionEndpoint = a.endpointId;
  });
  return { name: flow.name, description: flow.description, steps };
}

/** How a step is named in menus and messages: its label, else its place. */
export const stepName = (steps: readonly StepForm[], key: number): string => {
  const i = steps.findIndex((s) => s.key === key);
  const label = steps[i]?.label.trim();
  return label || `Step ${i + 1}`;
};

/** An endpoint as menus show it: `METHOD /path`. */
export const endpointName = (e: Pick<Endpoint, 'method' | 'path'>): string => `${e.method} ${e.path}`;

const delayRule = `A whole number of milliseconds from 0 to ${FLOW_DELAY_MAX_MS}`;

/** What the form can tell before asking the API (which checks everything again). */
export function flowProblems(form: FlowForm): FlowProblems {
  const out: FlowProblems = {};
  if (!form.name.trim()) out.name = 'Give the flow a name';
  form.steps.forEach((s, i) => {
    const at = `steps.${i}`;
    if (s.trigger === 'request' && !s.triggerEndpoint)
      out[`${at}.trigger.endpointId`] = 'Choose the endpoint whose requests fire this step';
    if (s.trigger === 'delay' && wholeNumber(s.delay, 0, FLOW_DELAY_MAX_MS) === undefined)
      out[`${at}.trigger.ms`] = delayRule;
    if (s.trigger === 'after') {
      const target = form.steps.find((o) => o.key === s.after);
      if (!target) out[`${at}.trigger.stepId`] = 'Choose the step this one follows';
      else if (!target.id && !target.label.trim())
        out[`${at}.trigger.stepId`] = `Give ${stepName(form.steps, target.key)} a label: it is not saved yet`;
      if (wholeNumber(s.delay, 0, FLOW_DELAY_MAX_MS) === undefined) out[`${at}.trigger.delayMs`] = delayRule;
    }
    if (s.action !== 'callback' && !s.actionEndpoint)
      out[`${at}.action.endpointId`] =
        s.action === 'respond' ? 'Choose the mock endpoint that answers' : 'Choose the proxy endpoint';
    if (s.action === 'callback') {
      if (!s.url.trim()) out[`${at}.action.url`] = 'Give the URL to call, e.g. https://example.com/hook';
      if (wholeNumber(s.retries, 0, CALLBACK_RETRIES_MAX) === undefined)
        out[`${at}.action.retries`] = `A whole number from 0 to ${CALLBACK_RETRIES_MAX}`;
      if (wholeNumber(s.timeout, 1, CALLBACK_TIMEOUT_MAX_MS) === undefined)
        out[`${at}.action.timeoutMs`] = `A whole number of milliseconds from 1 to ${CALLBACK_TIMEOUT_MAX_MS}`;
    }
  });
  return out;
}

/** One step as the API takes it (an `after` target not saved yet is named by its label). */
export function stepInput(step: StepForm, steps: readonly StepForm[]): FlowStepInput {
  const label = step.label.trim();
  const delay = Number(step.delay.trim());
  let trigger: FlowStepInput['trigger'];
  if (step.trigger === 'request') trigger = { type: 'request', endpointId: step.triggerEndpoint };
  else if (step.trigger === 'delay') trigger = { type: 'delay', ms: delay };
  else {
    const target = steps.find((o) => o.key === step.after);
    trigger = { type: 'after', stepId: target?.id ?? target?.label.trim() ?? '', delayMs: delay };
  }
  const action: FlowStepInput['action'] =
    step.action === 'callback'
      ? {
          type: 'callback',
          method: step.method,
          url: step.url.trim(),
          headers: rowsToHeaders(step.headers),
          ...(step.body !== '' ? { body: step.body } : {}),
          retries: Number(step.retries.trim()),
          timeoutMs: Number(step.timeout.trim()),
        }
      : { type: step.action, endpointId: step.actionEndpoint };
  return { ...(step.id ? { id: step.id } : {}), ...(label ? { label } : {}), trigger, action };
}

/** The steps as they would be saved, whatever the rows' keys: to tell whether they changed. */
const savedSteps = (form: FlowForm): string =>
  JSON.stringify(form.steps.map((s) => stepInput(s, form.steps)));

/**
 * The body of PATCH …/flows/{flow}: what differs from `base` (the form as loaded). `steps`
 * replaces them all, so it is sent only when a step changed.
 */
export function flowPatch(base: FlowForm, form: FlowForm): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (form.name.trim() !== base.name) p.name = form.name.trim();
  if (form.description !== base.description) p.description = form.description;
  if (savedSteps(form) !== savedSteps(base)) p.steps = form.steps.map((s) => stepInput(s, form.steps));
  return p;
}

/** Whether the form differs from what was loaded. */
export const flowChanged = (base: FlowForm, form: FlowForm): boolean =>
  Object.keys(flowPatch(base, form)).length > 0;

/** The problem shown at `field`: the form's own, else the API's about that field or one inside it. */
export function problemAt(
  own: FlowProblems,
  api: { field: string; text: string } | undefined,
  field: string,
): string | undefined {
  if (own[field]) return own[field];
  if (api && (api.field === field || api.field.startsWith(`${field}.`))) return api.text;
  return undefined;
}
