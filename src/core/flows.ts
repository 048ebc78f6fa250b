import { MockdevError } from './errors.js';
import type { Endpoint } from './model/endpoint.js';
import type { Flow, FlowStep } from './model/flow.js';
import { HEADER_NAME_PATTERN, HEADER_NAME_RULE } from './model/limits.js';
import { checkTemplate, isTemplate, problemAfter } from './templates/engine.js';

/**
 * What a flow must be beyond its schema (docs/flows.md "Validation"): checked against the
 * project's endpoints and its other flows whenever a flow is saved, whichever adapter asks.
 * Every failure is one INVALID_ARGUMENT whose `details.field` is the dotted path of the field at
 * fault, relative to the flow (`name`, `steps.1.trigger.stepId`, `steps.0.action.url`).
 * Stored flows name endpoints and `after` steps by id (the app resolves what a user gives first).
 */

export interface FlowCheckContext {
  /** The project's endpoints. */
  endpoints: Endpoint[];
  /** The project's other flows (not the one checked). */
  otherFlows: Flow[];
  /** The flow was given whole (a file, the API with steps): it needs at least one step. */
  whole?: boolean;
}

const invalid = (field: string, message: string, hint?: string): MockdevError =>
  new MockdevError('INVALID_ARGUMENT', message, { ...(hint ? { hint } : {}), details: { field } });

/** How a message names a step: `Step 2 ("notify")`, counted from 1 as people count. */
export const stepName = (step: Pick<FlowStep, 'label'>, index: number, word = 'Step'): string =>
  `${word} ${index + 1}${step.label ? ` ("${step.label}")` : ''}`;

/** How a message names an endpoint: `POST /orders`. */
const route = (e: Endpoint): string => `${e.method} ${e.path}`;

/**
 * Whether a flow is valid; throws the first problem found (INVALID_ARGUMENT with
 * `details.field`). The order is the order a person fixes things in: the name, the steps'
 * identities, their triggers, their actions, then what involves other flows.
 */
export function checkFlow(flow: Flow, context: FlowCheckContext): void {
  if (typeof flow.name !== 'string' || flow.name.trim() === '')
    throw invalid('name', 'A flow needs a name', 'Give it one, e.g. "order-webhook"');
  if (context.whole && flow.steps.length === 0)
    throw invalid(
      'steps',
      `Flow "${flow.name}" has no steps: a flow given whole needs at least one`,
      'Give its steps, or create it without any and add them one by one',
    );
  checkIdentities(flow);
  const endpoints = new Map(context.endpoints.map((e) => [e.id, e]));
  flow.steps.forEach((step, i) => checkTrigger(flow, step, i, endpoints));
  checkCycles(flow);
  flow.steps.forEach((step, i) => checkAction(step, i, endpoints));
  if (flow.enabled) checkAnswering(flow, context, endpoints);
}

/** Unique step ids and labels (labels in any case: a reference by label takes any case). */
function checkIdentities(flow: Flow): void {
  const ids = new Map<string, number>();
  const labels = new Map<string, number>();
  flow.steps.forEach((step, i) => {
    const sameId = ids.get(step.id);
    if (sameId !== undefined)
      throw invalid(
        `steps.${i}.id`,
        `${stepName(step, i)} has the id "${step.id}" of step ${sameId + 1}: step ids must be unique`,
        'Leave the id out and one is made',
      );
    ids.set(step.id, i);
    if (step.label === undefined) return;
    const key = step.label.toLowerCase();
    const sameLabel = labels.get(key);
    if (sameLabel !== undefined)
      throw invalid(
        `steps.${i}.label`,
        `Step ${i + 1} has the label "${step.label}" of step ${sameLabel + 1}: labels must be unique within a flow (in any case)`,
        'Choose another label',
      );
    labels.set(key, i);
  });
}

function checkTrigger(flow: Flow, step: FlowStep, i: number, endpoints: Map<string, Endpoint>): void {
  const t = step.trigger;
  if (t.type === 'request') {
    if (!endpoints.has(t.endpointId))
      throw unknownEndpoint(`steps.${i}.trigger.endpointId`, step, i, t.endpointId, 'its trigger');
    return;
  }
  if (t.type !== 'after') return;
  if (t.stepId === step.id)
    throw invalid(
      `steps.${i}.trigger.stepId`,
      `${stepName(step, i)} waits for itself to complete, so it would never fire`,
      'Make it wait for another step of the flow',
    );
  if (!flow.steps.some((s) => s.id === t.stepId))
    throw invalid(
      `steps.${i}.trigger.stepId`,
      `${stepName(step, i)} waits for step "${t.stepId}", which flow "${flow.name}" does not have`,
      `Name a step of the same flow by its id or label${labelsOf(flow)}`,
    );
}

const labelsOf = (flow: Flow): string => {
  const labels = flow.steps.map((s) => s.label).filter((l) => l !== undefined);
  return labels.length ? ` (its labels: ${labels.join(', ')})` : '';
};

function unknownEndpoint(field: string, step: FlowStep, i: number, ref: string, what: string): MockdevError {
  return new MockdevError(
    'INVALID_ARGUMENT',
    `${stepName(step, i)}: ${what} names endpoint "${ref}", which the project does not have`,
    {
      hint: (say) =>
        `Name one of its endpoints by id, name or "METHOD /path" (${say.action('listEndpoints')})`,
      details: { field },
    },
  );
}

/** No `after` chain leads back to where it started: none of its steps would ever fire. */
function checkCycles(flow: Flow): void {
  const index = new Map(flow.steps.map((s, i) => [s.id, i]));
  const waitsFor = (i: number): number | undefined => {
    const t = flow.steps[i]!.trigger;
    return t.type === 'after' ? index.get(t.stepId) : undefined;
  };
  const done = new Set<number>();
  for (let start = 0; start < flow.steps.length; start++) {
    const path: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !done.has(at) && !path.includes(at)) {
      path.push(at);
      at = waitsFor(at);
    }
    if (at !== undefined && path.includes(at)) {
      const loop = [...path.slice(path.indexOf(at)), at].map((n) => flow.steps[n]!.label ?? `step ${n + 1}`);
      throw invalid(
        `steps.${at}.trigger.stepId`,
        `Steps of flow "${flow.name}" wait for each other in a cycle (${loop.join(' waits for ')}), so none of them would ever fire`,
        'Start the chain with a "request" or "delay" trigger',
      );
    }
    for (const n of path) done.add(n);
  }
}

const ANSWERS = { respond: 'a mock endpoint', proxy: 'a proxy endpoint' } as const;

function checkAction(step: FlowStep, i: number, endpoints: Map<string, Endpoint>): void {
  const a = step.action;
  if (a.type === 'callback') return checkCallback(step, i);
  const field = `steps.${i}.action`;
  if (step.trigger.type !== 'request')
    throw invalid(
      `${field}.type`,
      `${stepName(step, i)}: a "${a.type}" action answers the request that triggered it, so its trigger must be "request", not "${step.trigger.type}"`,
      'Trigger it with a request to an endpoint, or make it a callback',
    );
  const endpoint = endpoints.get(a.endpointId);
  if (!endpoint) throw unknownEndpoint(`${field}.endpointId`, step, i, a.endpointId, `its ${a.type} action`);
  const kind = a.type === 'respond' ? 'mock' : 'proxy';
  if (endpoint.kind !== kind)
    throw invalid(
      `${field}.endpointId`,
      `${stepName(step, i)}: a "${a.type}" action needs ${ANSWERS[a.type]}, and ${route(endpoint)} is a ${endpoint.kind} endpoint`,
      a.type === 'respond'
        ? 'Forward through a proxy endpoint with a "proxy" action instead, or name a mock endpoint'
        : 'Answer with a mock endpoint with a "respond" action instead, or name a proxy endpoint',
    );
}

function checkCallback(step: FlowStep, i: number): void {
  const a = step.action;
  if (a.type !== 'callback') return;
  const field = `steps.${i}.action`;
  const problem = callbackUrlProblem(a.url);
  if (problem)
    throw invalid(
      `${field}.url`,
      `${stepName(step, i)}: invalid callback URL ${JSON.stringify(a.url)}: ${problem}`,
      'Give an absolute http:// or https:// URL, or a template that starts with one or with a variable, e.g. {{env.WEBHOOK_URL}}/orders',
    );
  for (const [name, value] of Object.entries(a.headers)) {
    if (!HEADER_NAME_PATTERN.test(name))
      throw invalid(
        `${field}.headers`,
        `${stepName(step, i)}: invalid callback header name ${JSON.stringify(name)}: ${HEADER_NAME_RULE}`,
      );
    templateCheck(`${field}.headers.${name}`, step, i, `the value of callback header "${name}"`, value);
  }
  if (a.body !== undefined) templateCheck(`${field}.body`, step, i, 'the callback body', a.body);
}

function templateCheck(field: string, step: FlowStep, i: number, what: string, source: string): void {
  const problem = checkTemplate(source);
  if (problem)
    throw invalid(
      field,
      `${stepName(step, i)}: ${problemAfter(`invalid template in ${what}`, problem)}`,
      'Templates use Handlebars syntax, e.g. {{body.order.id}}, {{response.status}}, {{steps.<label>.body.id}} (docs/templates.md)',
    );
}

/**
 * Why a callback URL cannot be called, or undefined. A URL without `{{` must be an absolute
 * http: or https: URL with a host. A template must compile, and its text before the first `{{`
 * must agree with `http://` or `https://` (`https://{{env.HOST}}/hook`, `{{env.WEBHOOK_URL}}`);
 * what it renders to is checked again when it is rendered: the runtime passes the rendered URL
 * with `rendered: true`, which checks it as a plain URL whatever it holds.
 */
export function callbackUrlProblem(url: string, options: { rendered?: boolean } = {}): string | undefined {
  const text = url.trim();
  if (!options.rendered && isTemplate(text)) {
    const problem = checkTemplate(text);
    if (problem) return problemAfter('its template does not compile', problem);
    const start = text.slice(0, text.indexOf('{{')).toLowerCase();
    const agrees = ['http://', 'https://'].some((s) => s.startsWith(start) || start.startsWith(s));
    return agrees ? undefined : `must start with http:// or https:// (or with a template), not "${start}"`;
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'must be an absolute URL such as https://example.com/hook';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `must be an http: or https: URL, not ${parsed.protocol}`;
  return parsed.hostname ? undefined : 'must name a host, e.g. https://example.com/hook';
}

/** The endpoint a step answers requests to (respond/proxy on a request trigger), if it does. */
export function answeredEndpoint(step: FlowStep): string | undefined {
  return step.trigger.type === 'request' && step.action.type !== 'callback'
    ? step.trigger.endpointId
    : undefined;
}

/** At most one answering step per endpoint across the project's enabled flows. */
function checkAnswering(flow: Flow, context: FlowCheckContext, endpoints: Map<string, Endpoint>): void {
  const taken = new Map<string, string>();
  for (const other of context.otherFlows) {
    if (!other.enabled || other.id === flow.id) continue;
    other.steps.forEach((s, n) => {
      const id = answeredEndpoint(s);
      if (id !== undefined && !taken.has(id))
        taken.set(id, `${stepName(s, n, 'step')} of flow "${other.name}"`);
    });
  }
  flow.steps.forEach((step, i) => {
    const id = answeredEndpoint(step);
    if (id === undefined) return;
    const by = taken.get(id);
    if (by !== undefined) {
      const e = endpoints.get(id);
      throw invalid(
        `steps.${i}.trigger.endpointId`,
        `${stepName(step, i)} answers requests to ${e ? route(e) : `endpoint "${id}"`}, which ${by} already answers: one enabled step may answer an endpoint`,
        `Disable or change one of them; the other steps of a flow may still be triggered by it`,
      );
    }
    taken.set(id, `${stepName(step, i, 'step')} of this flow`);
  });
}

/** The steps of a project's flows that name an endpoint (in their trigger or action). */
export function flowsUsing(
  flows: Flow[],
  endpointIds: Set<string>,
): { flow: Flow; step: FlowStep; index: number; endpointId: string }[] {
  const uses: { flow: Flow; step: FlowStep; index: number; endpointId: string }[] = [];
  for (const flow of flows)
    flow.steps.forEach((step, index) => {
      const named = [
        step.trigger.type === 'request' ? step.trigger.endpointId : undefined,
        step.action.type !== 'callback' ? step.action.endpointId : undefined,
      ];
      for (const endpointId of named)
        if (endpointId !== undefined && endpointIds.has(endpointId)) {
          uses.push({ flow, step, index, endpointId });
          break;
        }
    });
  return uses;
}
