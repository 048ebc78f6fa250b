import type { Endpoint } from '../../core/model/endpoint.js';
import type { CallbackAction, Flow, FlowTrigger } from '../../core/model/flow.js';
import type { NewRequestRecord } from '../../core/ports.js';
import { compileTemplate, isTemplate, mentionsFaker, type Template } from '../../core/templates/engine.js';
import type { CompiledEndpoint } from '../compile.js';
import type { Exchange } from '../exchange.js';

/**
 * Flows compiled for serving, once per (re)load (docs/flows.md, "At run time"): each enabled flow's
 * steps with their callback templates compiled, and per endpoint what flows do to its requests:
 * the endpoint whose responses answer them (a `respond` or `proxy` step), and the flows whose
 * `request` trigger names it (each starts a run after the response was sent and logged).
 */

/** A text of a callback: as written, or a template compiled once. */
export type Text = string | Template;

export interface CompiledCallback {
  type: 'callback';
  /** One of the model's methods (never a template). */
  method: string;
  url: Text;
  headers: [string, Text][];
  body: Text | undefined;
  timeoutMs: number;
  retries: number;
  /** A template that does not compile: the step fails with this line when it fires. */
  problem?: string;
}

export type CompiledAction = { type: 'respond' | 'proxy'; endpointId: string } | CompiledCallback;

export interface CompiledStep {
  id: string;
  label: string | null;
  /** How templates and reasons name it: its label, else its id. */
  name: string;
  trigger: FlowTrigger;
  action: CompiledAction;
  /** The steps whose `after` trigger names this one (their indices). */
  next: number[];
}

export interface CompiledFlow {
  id: string;
  name: string;
  enabled: boolean;
  steps: CompiledStep[];
  /** A `request` trigger names an endpoint: requests start its runs (and a hand), never the server. */
  onRequest: boolean;
}

/** Every text of a flow that may be a template: its callbacks' URL, header values and body. */
export function flowTemplateTexts(flows: readonly Flow[]): string[] {
  const texts: string[] = [];
  for (const f of flows)
    for (const s of f.steps)
      if (s.action.type === 'callback') {
        const a = s.action;
        texts.push(a.url, ...Object.values(a.headers), ...(a.body !== undefined ? [a.body] : []));
      }
  return texts;
}

/** Whether a callback template of these flows uses fake data (the library is loaded first). */
export const flowsMentionFaker = (flows: readonly Flow[]): boolean =>
  flowTemplateTexts(flows).some(mentionsFaker);

function compileCallback(a: CallbackAction, trackSecrets: boolean): CompiledCallback {
  const base = { type: 'callback' as const, timeoutMs: a.timeoutMs, retries: a.retries };
  let at = 'url';
  try {
    const text = (t: string): Text => (isTemplate(t) ? compileTemplate(t, { trackSecrets }) : t);
    const method = a.method;
    const url = text(a.url.trim());
    const headers: [string, Text][] = [];
    for (const [k, v] of Object.entries(a.headers)) {
      at = `header ${k}`;
      headers.push([k, text(v)]);
    }
    at = 'body';
    const body = a.body === undefined ? undefined : text(a.body);
    return { ...base, method, url, headers, body };
  } catch (e) {
    const problem = `the callback's ${at} is not a valid template: ${e instanceof Error ? e.message : String(e)}`;
    return { ...base, method: a.method, url: a.url, headers: [], body: undefined, problem };
  }
}

/** Compiles one flow's steps (a flow saved without validation is taken as far as it can be). */
export function compileFlow(flow: Flow, trackSecrets: boolean): CompiledFlow {
  const index = new Map(flow.steps.map((s, i) => [s.id, i]));
  const steps: CompiledStep[] = flow.steps.map((s) => ({
    id: s.id,
    label: s.label ?? null,
    name: s.label ?? s.id,
    trigger: s.trigger,
    action:
      s.action.type === 'callback'
        ? compileCallback(s.action, trackSecrets)
        : { type: s.action.type, endpointId: s.action.endpointId },
    next: [],
  }));
  steps.forEach((s, i) => {
    if (s.trigger.type !== 'after') return;
    const before = index.get(s.trigger.stepId);
    if (before !== undefined && before !== i) steps[before]!.next.push(i);
  });
  return {
    id: flow.id,
    name: flow.name,
    enabled: flow.enabled,
    steps,
    onRequest: steps.some((s) => s.trigger.type === 'request'),
  };
}

/** What starts the runs of a request: the flows, the endpoint it reached, the request and its record. */
export type StartRuns = (
  flows: readonly CompiledFlow[],
  endpoint: CompiledEndpoint,
  ex: Exchange,
  record: NewRequestRecord,
) => void;

/**
 * The endpoints as flows change them: one a `respond`/`proxy` step names answers with that
 * endpoint's responses (compiled again at its path, so that path parameters and a proxy's
 * wildcard read the request as it came), and one a `request` trigger names starts runs. Every
 * other endpoint is returned as it was: its requests take exactly the path they took before.
 */
export function wireFlows(
  flows: readonly CompiledFlow[],
  endpoints: CompiledEndpoint[],
  compileAs: (e: Endpoint) => CompiledEndpoint,
  start: StartRuns,
  warn: (message: string) => void,
): CompiledEndpoint[] {
  const starters = new Map<string, CompiledFlow[]>();
  const answering = new Map<string, { flow: CompiledFlow; endpointId: string }>();
  for (const flow of flows) {
    if (!flow.enabled) continue;
    for (const step of flow.steps) {
      if (step.trigger.type !== 'request') continue;
      const id = step.trigger.endpointId;
      const list = starters.get(id) ?? [];
      if (!list.includes(flow)) list.push(flow);
      starters.set(id, list);
      if (step.action.type !== 'callback' && !answering.has(id))
        answering.set(id, { flow, endpointId: step.action.endpointId });
    }
  }
  if (starters.size === 0) return endpoints;
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  return endpoints.map((e) => {
    const flowsOf = starters.get(e.id);
    if (flowsOf === undefined) return e;
    let wired: CompiledEndpoint = { ...e };
    const answer = answering.get(e.id);
    const by = answer && byId.get(answer.endpointId);
    if (answer && !by)
      warn(
        `Flow "${answer.flow.name}": the endpoint that should answer ${e.method} ${e.path} (${answer.endpointId}) does not exist; the endpoint answers itself`,
      );
    if (by) {
      const as = compileAs({ ...by.endpoint, method: e.endpoint.method, path: e.endpoint.path });
      wired = {
        id: e.id,
        method: e.method,
        path: e.path,
        enabled: e.enabled,
        endpoint: e.endpoint,
        choose: as.choose,
      };
      if (as.streamsBody) wired.streamsBody = true;
      if (as.readsJson) wired.readsJson = true;
    }
    const self = wired;
    wired.startRuns = (ex, record) => start(flowsOf, self, ex, record);
    return wired;
  });
}
