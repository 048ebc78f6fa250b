import {
  createFlow,
  deleteFlow,
  findFlowByRef,
  listFlowRuns,
  listFlows,
  setFlowEnabled,
  startFlowRun,
  updateFlow,
  waitFlowRun,
} from '../../app/flows.js';
import { resolveProject } from '../../app/projects.js';
import { MockdevError } from '../../core/errors.js';
import type { Flow, FlowInput, FlowPatch, FlowRun } from '../../core/model/flow.js';
import { jsonSyntaxProblem } from '../../core/validate.js';
import { toInt } from '../args.js';
import type { FlowOptions } from '../commands/flow.js';
import { confirmDestructive } from '../confirm.js';
import { printRun, printRuns, printSteps } from '../flow-text.js';
import { currentRun } from '../io.js';
import { note, printFields, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';

const stepCount = (f: Flow): string => `${f.steps.length} step${f.steps.length === 1 ? '' : 's'}`;

export async function list(project: string, opts: FlowOptions): Promise<void> {
  const { project: p, flows } = await listFlows(cliContext(), project);
  if (opts.json) return printJson(flows);
  printTable(
    flows,
    [
      { header: 'ID', value: (f) => f.id },
      { header: 'NAME', value: (f) => f.name },
      { header: 'ENABLED', value: (f) => (f.enabled ? 'yes' : 'no') },
      { header: 'STEPS', value: (f) => f.steps.length, align: 'right' },
      { header: 'DESCRIPTION', value: (f) => f.description, max: 60 },
    ],
    `Project "${p.name}" has no flows. Create one with: mockdev flow create ${JSON.stringify(p.name)} -n NAME`,
  );
}

export async function show(project: string, ref: string, opts: FlowOptions): Promise<void> {
  const state = await resolveProject(cliContext(), project);
  const flow = findFlowByRef(state, ref);
  if (opts.json) return printJson(flow);
  printFields([
    ['id', flow.id],
    ['name', flow.name],
    ['description', flow.description],
    ['enabled', flow.enabled ? 'yes' : 'no'],
    ['steps', flow.steps.length],
  ]);
  printLine();
  printSteps(flow, state.endpoints);
}

/**
 * A --file: a flow object, or a bare array of steps. Read through the context's files (a
 * missing or unreadable one names itself); JSON that does not parse says where.
 */
async function readFlowFile(file: string): Promise<{ flow?: Record<string, unknown>; steps?: unknown[] }> {
  const text = (await cliContext().files.read(file)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid --file "${file}": not JSON (${jsonSyntaxProblem(e)})`,
      {
        details: { field: 'file' },
      },
    );
  }
  if (Array.isArray(value)) return { steps: value };
  if (value !== null && typeof value === 'object') return { flow: value as Record<string, unknown> };
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid --file "${file}": must hold a flow object ({ "name", "steps": [...] }) or an array of steps`,
    { details: { field: 'file' } },
  );
}

/** What the options and the file give, the options winning. */
async function flowFields(opts: FlowOptions): Promise<FlowPatch> {
  const file = opts.file === undefined ? {} : await readFlowFile(opts.file);
  const given = { ...(file.flow ?? {}), ...(file.steps ? { steps: file.steps } : {}) } as FlowPatch;
  return {
    ...given,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
  };
}

export async function create(project: string, opts: FlowOptions): Promise<void> {
  const fields = await flowFields(opts);
  if (fields.name === undefined)
    throw new MockdevError('INVALID_ARGUMENT', 'A flow name is required', {
      hint: opts.file ? 'Give -n NAME, or a "name" in the file' : 'Give -n NAME',
      details: { field: 'name' },
    });
  const input = { ...fields, ...(opts.disabled ? { enabled: false } : {}) } as FlowInput;
  const flow = await createFlow(cliContext(), project, input, { whole: opts.file !== undefined });
  if (opts.json) return printJson(flow);
  printLine(
    `Created flow "${flow.name}" (id ${flow.id}) with ${stepCount(flow)}${flow.enabled ? '' : ', disabled'}`,
  );
}

export async function update(project: string, ref: string, opts: FlowOptions): Promise<void> {
  const flow = await updateFlow(cliContext(), project, ref, await flowFields(opts));
  if (opts.json) return printJson(flow);
  printLine(`Updated flow "${flow.name}" (id ${flow.id}), ${stepCount(flow)}`);
}

export async function remove(project: string, ref: string, opts: FlowOptions): Promise<void> {
  const ctx = cliContext();
  const state = await resolveProject(ctx, project);
  const target = findFlowByRef(state, ref);
  const ok = await confirmDestructive(
    `Delete flow "${target.name}" (${stepCount(target)}) of project "${state.project.name}"?`,
    opts.force,
  );
  if (!ok) return note('Cancelled; nothing was deleted.');
  const flow = await deleteFlow(ctx, state.location, target.id);
  printLine(`Deleted flow "${flow.name}" (id ${flow.id})`);
}

export async function setEnabled(
  project: string,
  ref: string,
  enabled: boolean,
  opts: FlowOptions,
): Promise<void> {
  const flow = await setFlowEnabled(cliContext(), project, ref, enabled);
  if (opts.json) return printJson(flow);
  printLine(`Flow "${flow.name}" is ${enabled ? 'enabled' : 'disabled'}`);
}

export async function runs(project: string, opts: FlowOptions): Promise<void> {
  const list = await listFlowRuns(cliContext(), project, {
    flow: opts.flow,
    limit: toInt(opts.limit, '--limit'),
  });
  if (opts.json) return printJson(list);
  printRuns(
    list,
    opts.flow
      ? `Flow "${opts.flow}" has no runs yet.`
      : 'No flow runs yet. A run starts when a request hits an endpoint a flow is triggered by, or with "mockdev flow run".',
  );
}

/** Prints a run that ended, or did not in time, and exits 0 only when it completed. */
function printEnded(
  run: FlowRun,
  ended: boolean,
  timeoutMs: number | undefined,
  json: boolean | undefined,
): void {
  if (json) printJson(run);
  else printRun(run);
  if (run.status === 'completed') return;
  currentRun().exitCode = 1;
  note(
    ended
      ? `Run ${run.id} of flow "${run.flowName}" ${run.status}`
      : `Run ${run.id} of flow "${run.flowName}" has not ended after ${timeoutMs ?? 30_000} ms`,
  );
}

export async function run(project: string, ref: string, opts: FlowOptions): Promise<void> {
  const timeoutMs = toInt(opts.timeout, '--timeout');
  if (timeoutMs !== undefined && !opts.wait)
    throw new MockdevError('INVALID_ARGUMENT', '--timeout goes with --wait', {
      hint: 'Add --wait, or leave --timeout out',
    });
  const ctx = cliContext();
  const started = await startFlowRun(ctx, project, ref);
  if (!opts.wait) {
    if (opts.json) return printJson(started);
    printLine(`Started run ${started.id} of flow "${started.flowName}"`);
    return note(`Wait for it with: mockdev flow wait ${JSON.stringify(project)} ${started.id}`);
  }
  const { run: ended, ended: done } = await waitFlowRun(ctx, project, started.id, { timeoutMs });
  printEnded(ended, done, timeoutMs, opts.json);
}

export async function wait(project: string, runRef: string, opts: FlowOptions): Promise<void> {
  const timeoutMs = toInt(opts.timeout, '--timeout');
  const { run: ended, ended: done } = await waitFlowRun(cliContext(), project, runRef, { timeoutMs });
  printEnded(ended, done, timeoutMs, opts.json);
}
