/** How the CLI shows flows, steps and runs in words and tables. */
import type { Endpoint } from '../core/model/endpoint.js';
import type { Flow, FlowAction, FlowRun, FlowRunStep, FlowStep, FlowTrigger } from '../core/model/flow.js';
import { printFields, printLine, printTable } from './output.js';

/** An endpoint as people name it: `POST /orders`; the id when the project has no such endpoint. */
const endpointText = (endpoints: Endpoint[], id: string): string => {
  const e = endpoints.find((x) => x.id === id);
  return e ? `${e.method} ${e.path}` : id;
};

/** A step as an `after` trigger or a list names it: its label, else `step N`. */
const stepRef = (flow: Flow, id: string): string => {
  const index = flow.steps.findIndex((s) => s.id === id);
  return index === -1 ? id : (flow.steps[index]!.label ?? `step ${index + 1}`);
};

export function triggerText(flow: Flow, endpoints: Endpoint[], t: FlowTrigger): string {
  if (t.type === 'request') return `request ${endpointText(endpoints, t.endpointId)}`;
  if (t.type === 'delay') return `delay ${t.ms} ms`;
  return `after ${stepRef(flow, t.stepId)}${t.delayMs ? ` +${t.delayMs} ms` : ''}`;
}

export function actionText(endpoints: Endpoint[], a: FlowAction): string {
  if (a.type !== 'callback') {
    const e = endpoints.find((x) => x.id === a.endpointId);
    const status = a.type === 'respond' && e ? ` (${e.status})` : '';
    return `${a.type} ${endpointText(endpoints, a.endpointId)}${status}`;
  }
  const extras = [
    Object.keys(a.headers).length ? `${Object.keys(a.headers).length} header(s)` : '',
    a.body !== undefined ? 'body' : '',
    a.retries ? `${a.retries} retries` : '',
  ].filter(Boolean);
  return `callback ${a.method} ${a.url}${extras.length ? ` (${extras.join(', ')})` : ''}`;
}

/** One line for a step: `after accept +2000 ms -> callback POST http://…`. */
export const stepText = (flow: Flow, endpoints: Endpoint[], step: FlowStep): string =>
  `${triggerText(flow, endpoints, step.trigger)} -> ${actionText(endpoints, step.action)}`;

export function printSteps(flow: Flow, endpoints: Endpoint[]): void {
  printTable(
    flow.steps.map((step, index) => ({ step, index })),
    [
      { header: '#', value: (r) => r.index + 1, align: 'right' },
      { header: 'ID', value: (r) => r.step.id },
      { header: 'LABEL', value: (r) => r.step.label },
      { header: 'TRIGGER', value: (r) => triggerText(flow, endpoints, r.step.trigger) },
      { header: 'ACTION', value: (r) => actionText(endpoints, r.step.action), max: 80 },
    ],
    `Flow "${flow.name}" has no steps yet. Add one with: mockdev flow step add <PROJECT> <FLOW> --on ... --respond|--callback|--proxy-through ...`,
  );
}

/** A callback's outcome: `200 (1 attempt, 12 ms)`, `no answer (3 attempts): timed out`. */
export function callbackText(step: FlowRunStep): string {
  const c = step.callback;
  if (!c) return '';
  const attempts = `${c.attempts} attempt${c.attempts === 1 ? '' : 's'}, ${Math.round(c.durationMs)} ms`;
  return `${c.status ?? 'no answer'} (${attempts})${c.error ? `: ${c.error}` : ''}`;
}

const stepLabel = (s: FlowRunStep, i: number): string => s.label ?? `step ${i + 1}`;

/** Runs, one row per step (a run's own columns on its first row), newest run first. */
export function printRuns(runs: FlowRun[], empty: string): void {
  type Row = { run: FlowRun; step: FlowRunStep | undefined; i: number; first: boolean };
  const rows = runs.flatMap((run): Row[] =>
    run.steps.length
      ? run.steps.map((step, i) => ({ run, step, i, first: i === 0 }))
      : [{ run, step: undefined, i: 0, first: true }],
  );
  printTable(
    rows,
    [
      { header: 'RUN', value: (r) => (r.first ? r.run.id : '') },
      { header: 'FLOW', value: (r) => (r.first ? r.run.flowName : ''), max: 30 },
      { header: 'STARTED', value: (r) => (r.first ? r.run.startedAt : '') },
      { header: 'BY', value: (r) => (r.first ? r.run.startedBy : '') },
      { header: 'STATUS', value: (r) => (r.first ? r.run.status : '') },
      { header: 'STEP', value: (r) => (r.step ? stepLabel(r.step, r.i) : '') },
      { header: 'STEP STATUS', value: (r) => r.step?.status },
      { header: 'CALLBACK', value: (r) => (r.step ? callbackText(r.step) : ''), max: 60 },
    ],
    empty,
  );
}

const durationText = (run: FlowRun): string | undefined =>
  run.finishedAt === null
    ? undefined
    : `${((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(1)} s`;

/** One run: its fields, then its steps with what each did. */
export function printRun(run: FlowRun): void {
  printFields([
    ['run', run.id],
    ['flow', `${run.flowName} (${run.flowId})`],
    ['status', run.status],
    ['started by', run.startedBy],
    ['started', run.startedAt],
    ['finished', run.finishedAt],
    ['took', durationText(run)],
    ['request', run.request ? `${run.request.method} ${run.request.url}` : undefined],
  ]);
  if (run.steps.length === 0) return;
  printLine();
  printTable(
    run.steps,
    [
      { header: 'STEP', value: (s) => stepLabel(s, run.steps.indexOf(s)) },
      { header: 'STATUS', value: (s) => s.status },
      {
        header: 'CALLBACK',
        value: (s) => (s.callback ? `${s.callback.method} ${s.callback.url}` : ''),
        max: 60,
      },
      { header: 'RESULT', value: (s) => callbackText(s) || s.reason, max: 60 },
    ],
    '',
  );
}
