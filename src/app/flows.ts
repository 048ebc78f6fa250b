/**
 * Flows' use cases (docs/flows.md): what the CLI, the admin API and the UI call. A flow as given
 * names endpoints by id, name or "METHOD /path" and `after` steps by id or label; it is stored
 * with ids only. Every change is one read-modify-write of the project (ctx.projects.update), so
 * a flow is checked (core/flows.ts) against the endpoints and the other flows as they are when
 * it is written, whoever else writes.
 */
import * as z from 'zod';
import { MockdevError } from '../core/errors.js';
import { checkFlow, stepName } from '../core/flows.js';
import { newId } from '../core/ids.js';
import {
  FlowInputSchema,
  FlowPatchSchema,
  FlowSchema,
  FlowStepInputSchema,
  type Flow,
  type FlowInput,
  type FlowPatch,
  type FlowStep,
  type FlowStepInput,
} from '../core/model/flow.js';
import { FLOW_STEPS_MAX } from '../core/model/limits.js';
import type { Project } from '../core/model/project.js';
import type { StoredProject } from '../core/ports.js';
import { parseInput } from '../core/validate.js';
import type { AppContext } from './context.js';
import { lookupEndpoint } from './endpoints.js';
import { findFlowByRef, findStepByRef, lookupStep } from './flow-refs.js';
import { assertNameFree } from './named-refs.js';
import { assertSomethingToChange, resolveProject, toProject, type ResolveOptions } from './projects.js';

export { getFlowRun, listFlowRuns, startFlowRun, waitFlowRun } from './flow-runs.js';
export { findFlowByRef, findStepByRef } from './flow-refs.js';

/** A project's flows, in order. */
export async function listFlows(
  ctx: AppContext,
  project: string,
  options?: ResolveOptions,
): Promise<{ project: Project; flows: Flow[] }> {
  const stored = await resolveProject(ctx, project, options);
  return { project: toProject(stored), flows: stored.flows };
}

/** One flow by id or name (NOT_FOUND naming the project's flows otherwise). */
export async function getFlow(
  ctx: AppContext,
  project: string,
  flow: string,
  options?: ResolveOptions,
): Promise<Flow> {
  return findFlowByRef(await resolveProject(ctx, project, options), flow);
}

type ParsedStep = z.output<typeof FlowStepInputSchema>;

/** An input step parsed on its own: a problem's field is said relative to the flow (`steps.2.…`). */
function parseStep(step: FlowStepInput, index: number): ParsedStep {
  const at = String(index);
  const schema = z.object({ steps: z.object({ [at]: FlowStepInputSchema }) });
  return parseInput(schema, { steps: { [at]: step } }, 'step').steps[at]!;
}

/**
 * Steps as stored: ids made for those without, endpoints named by id, `after` steps by id. A
 * reference that names nothing is kept as given, for checkFlow to refuse at its field.
 */
function buildSteps(state: StoredProject, inputs: ParsedStep[], before: FlowStep[] = []): FlowStep[] {
  const endpointId = (ref: string) => lookupEndpoint(state.endpoints, ref)?.id ?? ref.trim();
  const steps = inputs.map((s): FlowStep => {
    const t = s.trigger;
    const a = s.action;
    return {
      id: s.id?.trim() || newId(),
      ...(s.label !== undefined ? { label: s.label } : {}),
      trigger: t.type === 'request' ? { ...t, endpointId: endpointId(t.endpointId) } : t,
      action: a.type === 'callback' ? a : { ...a, endpointId: endpointId(a.endpointId) },
    };
  });
  const all = [...before, ...steps];
  return steps.map((s) =>
    s.trigger.type === 'after'
      ? { ...s, trigger: { ...s.trigger, stepId: lookupStep(all, s.trigger.stepId)?.id ?? s.trigger.stepId } }
      : s,
  );
}

/** Checks a flow as it would be written, against the project as it is now. */
function checked(state: StoredProject, flow: Flow, whole: boolean): Flow {
  const next = parseInput(FlowSchema, flow, 'flow');
  const others = state.flows.filter((f) => f.id !== next.id);
  assertNameFree(state, others, next, 'flow');
  checkFlow(next, { endpoints: state.endpoints, otherFlows: others, whole });
  return next;
}

/** What a change of the flows writes: the flows, and the project's updatedAt. */
const withFlows = <T>(current: StoredProject, flows: Flow[], result: T) => ({
  flows,
  project: { ...current.project, updatedAt: new Date().toISOString() },
  result,
});

/** Replaces one flow (by id) in a read-modify-write of its project. */
async function changeFlow<T>(
  ctx: AppContext,
  project: string,
  flowRef: string,
  change: (flow: Flow, state: StoredProject) => { next: Flow | null; result: T },
  options?: ResolveOptions,
): Promise<T> {
  const target = await resolveProject(ctx, project, options);
  return ctx.projects.update(target.key, (current) => {
    const flow = findFlowByRef(current, flowRef);
    const { next, result } = change(flow, current);
    const flows = next
      ? current.flows.map((f) => (f.id === flow.id ? next : f))
      : current.flows.filter((f) => f.id !== flow.id);
    return withFlows(current, flows, result);
  });
}

/**
 * Creates a flow. `whole`: the flow was given whole (a file, the API with steps): it needs at
 * least one step; built step by step (no steps given) it may have none yet. Unset: whole when
 * steps are given.
 */
export async function createFlow(
  ctx: AppContext,
  project: string,
  input: FlowInput,
  options: { whole?: boolean } & ResolveOptions = {},
): Promise<Flow> {
  const parsed = parseInput(FlowInputSchema, input, 'flow');
  const whole = options.whole ?? parsed.steps !== undefined;
  const target = await resolveProject(ctx, project, options);
  return ctx.projects.update(target.key, (current) => {
    const flow = checked(
      current,
      {
        id: newId(),
        name: parsed.name,
        description: parsed.description ?? '',
        enabled: parsed.enabled ?? true,
        steps: buildSteps(current, parsed.steps ?? []),
      },
      whole,
    );
    return withFlows(current, [...current.flows, flow], flow);
  });
}

/** Changes the fields given; `steps` replaces every step (then the flow needs at least one). */
export async function updateFlow(
  ctx: AppContext,
  project: string,
  flow: string,
  patch: FlowPatch,
  options?: ResolveOptions,
): Promise<Flow> {
  const parsed = parseInput(FlowPatchSchema, patch, 'flow');
  assertSomethingToChange(parsed, ['name', 'description', 'enabled', 'steps']);
  return changeFlow(
    ctx,
    project,
    flow,
    (current, state) => {
      const next = checked(
        state,
        {
          ...current,
          ...(parsed.name !== undefined ? { name: parsed.name } : {}),
          ...(parsed.description !== undefined ? { description: parsed.description } : {}),
          ...(parsed.enabled !== undefined ? { enabled: parsed.enabled } : {}),
          ...(parsed.steps !== undefined ? { steps: buildSteps(state, parsed.steps) } : {}),
        },
        parsed.steps !== undefined,
      );
      return { next, result: next };
    },
    options,
  );
}

export async function deleteFlow(
  ctx: AppContext,
  project: string,
  flow: string,
  options?: ResolveOptions,
): Promise<Flow> {
  return changeFlow(ctx, project, flow, (current) => ({ next: null, result: current }), options);
}

/** Enables (checked again: it may now answer an endpoint another flow answers) or disables a flow. */
export async function setFlowEnabled(
  ctx: AppContext,
  project: string,
  flow: string,
  enabled: boolean,
  options?: ResolveOptions,
): Promise<Flow> {
  return changeFlow(
    ctx,
    project,
    flow,
    (current, state) => {
      if (current.enabled === enabled) return { next: current, result: current };
      const next = enabled ? checked(state, { ...current, enabled }, false) : { ...current, enabled };
      return { next, result: next };
    },
    options,
  );
}

/** Adds a step at the end; returns the flow and the step as saved. */
export async function addFlowStep(
  ctx: AppContext,
  project: string,
  flow: string,
  step: FlowStepInput,
  options?: ResolveOptions,
): Promise<{ flow: Flow; step: FlowStep }> {
  return changeFlow(
    ctx,
    project,
    flow,
    (current, state) => {
      if (current.steps.length >= FLOW_STEPS_MAX)
        throw new MockdevError(
          'INVALID_ARGUMENT',
          `Flow "${current.name}" has ${current.steps.length} steps, the most a flow may have`,
          { hint: 'Split it into two flows', details: { field: 'steps' } },
        );
      const input = parseStep(step, current.steps.length);
      const [added] = buildSteps(state, [input], current.steps);
      const next = checked(state, { ...current, steps: [...current.steps, added!] }, false);
      return { next, result: { flow: next, step: next.steps[next.steps.length - 1]! } };
    },
    options,
  );
}

/** Removes a step (by id or label); a step an `after` trigger names is refused, naming it. */
export async function removeFlowStep(
  ctx: AppContext,
  project: string,
  flow: string,
  step: string,
  options?: ResolveOptions,
): Promise<{ flow: Flow; step: FlowStep }> {
  return changeFlow(
    ctx,
    project,
    flow,
    (current) => {
      const target = findStepByRef(current, step);
      const index = current.steps.indexOf(target);
      const waiting = current.steps.findIndex(
        (s) => s.trigger.type === 'after' && s.trigger.stepId === target.id,
      );
      if (waiting !== -1)
        throw new MockdevError(
          'CONFLICT',
          `${stepName(target, index)} of flow "${current.name}" cannot be removed: ${stepName(current.steps[waiting]!, waiting, 'step')} waits for it`,
          {
            hint: 'Remove that step first, or make it wait for another one',
            details: { stepId: target.id, waitingStepId: current.steps[waiting]!.id },
          },
        );
      const next = { ...current, steps: current.steps.filter((s) => s.id !== target.id) };
      return { next, result: { flow: next, step: target } };
    },
    options,
  );
}
