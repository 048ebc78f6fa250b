/**
 * Flows' use cases (docs/flows.md): what the CLI, the admin API and the UI call. SIGNATURES ONLY
 * for now: the implementation lands with the flows work (issue 21) and replaces every body.
 */
import { MockdevError } from '../core/errors.js';
import type { Flow, FlowInput, FlowPatch, FlowRun, FlowStep, FlowStepInput } from '../core/model/flow.js';
import type { Project } from '../core/model/project.js';
import type { AppContext } from './context.js';

const notYet = (): never => {
  throw new MockdevError('INTERNAL', 'flows are not built yet');
};

/** A project's flows, in order. */
export async function listFlows(
  _ctx: AppContext,
  _project: string,
): Promise<{ project: Project; flows: Flow[] }> {
  return notYet();
}

/** One flow by id or name (NOT_FOUND naming the project's flows otherwise). */
export async function getFlow(_ctx: AppContext, _project: string, _flow: string): Promise<Flow> {
  return notYet();
}

/**
 * Creates a flow. `whole`: the flow was given whole (a file, the API with steps): it needs at
 * least one step; built step by step (no steps given) it may have none yet.
 */
export async function createFlow(
  _ctx: AppContext,
  _project: string,
  _input: FlowInput,
  _options: { whole?: boolean } = {},
): Promise<Flow> {
  return notYet();
}

export async function updateFlow(
  _ctx: AppContext,
  _project: string,
  _flow: string,
  _patch: FlowPatch,
): Promise<Flow> {
  return notYet();
}

export async function deleteFlow(_ctx: AppContext, _project: string, _flow: string): Promise<Flow> {
  return notYet();
}

export async function setFlowEnabled(
  _ctx: AppContext,
  _project: string,
  _flow: string,
  _enabled: boolean,
): Promise<Flow> {
  return notYet();
}

/** Adds a step at the end; returns the flow and the step as saved. */
export async function addFlowStep(
  _ctx: AppContext,
  _project: string,
  _flow: string,
  _step: FlowStepInput,
): Promise<{ flow: Flow; step: FlowStep }> {
  return notYet();
}

/** Removes a step (by id or label); a step an `after` trigger names is refused, naming it. */
export async function removeFlowStep(
  _ctx: AppContext,
  _project: string,
  _flow: string,
  _step: string,
): Promise<{ flow: Flow; step: FlowStep }> {
  return notYet();
}

/** A project's recent runs, newest first (of one flow, by id or name, with `flow`). */
export async function listFlowRuns(
  _ctx: AppContext,
  _project: string,
  _query: { flow?: string; limit?: number } = {},
): Promise<FlowRun[]> {
  return notYet();
}

/** One run of the project (NOT_FOUND otherwise). */
export async function getFlowRun(_ctx: AppContext, _project: string, _run: string): Promise<FlowRun> {
  return notYet();
}

/**
 * Starts a run by hand on the project's running server (exit 1 saying to start it when none
 * runs); returns the run as first recorded.
 */
export async function startFlowRun(_ctx: AppContext, _project: string, _flow: string): Promise<FlowRun> {
  return notYet();
}

/** Waits until a run ends or `timeoutMs` passes; `ended` says which. */
export async function waitFlowRun(
  _ctx: AppContext,
  _project: string,
  _run: string,
  _options: { timeoutMs?: number } = {},
): Promise<{ run: FlowRun; ended: boolean }> {
  return notYet();
}
