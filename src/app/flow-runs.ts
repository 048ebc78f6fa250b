/**
 * The runs of flows (docs/flows.md "Runs"): listed and read from the run store, started by hand
 * on the project's running server (through the server registry: the server may be another
 * process), and waited for. Re-exported by app/flows.ts with the other flow use cases.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { FlowRun } from '../core/model/flow.js';
import { FLOW_DELAY_MAX_MS } from '../core/model/limits.js';
import type { AppContext } from './context.js';
import { findFlowByRef } from './flow-refs.js';
import { resolveProject, type ResolveOptions } from './projects.js';
import { wholeNumber } from '../core/validate.js';

/** How many runs `flow runs` lists unless told. */
export const DEFAULT_FLOW_RUN_LIST_LIMIT = 20;
export const MAX_FLOW_RUN_LIST_LIMIT = 10_000;
/** How long `flow wait` waits unless told (30 s). */
export const DEFAULT_FLOW_WAIT_MS = 30_000;
/** How long starting a run waits for the server to record it. */
const RUN_PICKUP_MS = 5_000;
/** How often a waiter reads the run again (runs are readable ~100 ms after a change). */
const POLL_MS = 50;

/** A project's recent runs, newest first (of one flow, by id or name, with `flow`). */
export async function listFlowRuns(
  ctx: AppContext,
  project: string,
  query: { flow?: string; limit?: number } = {},
  options?: ResolveOptions,
): Promise<FlowRun[]> {
  const limit =
    query.limit === undefined
      ? DEFAULT_FLOW_RUN_LIST_LIMIT
      : wholeNumber(query.limit, 'limit', 1, MAX_FLOW_RUN_LIST_LIMIT);
  const stored = await resolveProject(ctx, project, options);
  const flowId = query.flow === undefined ? undefined : findFlowByRef(stored, query.flow).id;
  return ctx.flowRuns.list(stored.project.id, { ...(flowId !== undefined ? { flowId } : {}), limit });
}

/** One run of the project (NOT_FOUND otherwise). */
export async function getFlowRun(
  ctx: AppContext,
  project: string,
  run: string,
  options?: ResolveOptions,
): Promise<FlowRun> {
  const stored = await resolveProject(ctx, project, options);
  const wanted = run.trim();
  const found = wanted === '' ? undefined : await ctx.flowRuns.get(wanted);
  if (found && found.projectId === stored.project.id) return found;
  throw new MockdevError('NOT_FOUND', `Run "${wanted}" not found in project "${stored.project.name}"`, {
    hint: "List the project's flow runs to see their ids (runs are kept as long as the request log keeps requests)",
    details: { run: wanted, projectId: stored.project.id },
  });
}

/**
 * Starts a run by hand on the project's running server (CONFLICT saying to start it when none
 * runs, or when the flow is disabled); returns the run as first recorded.
 */
export async function startFlowRun(
  ctx: AppContext,
  project: string,
  flow: string,
  options?: ResolveOptions,
): Promise<FlowRun> {
  const stored = await resolveProject(ctx, project, options);
  const target = findFlowByRef(stored, flow);
  const name = stored.project.name;
  if (!target.enabled)
    throw new MockdevError('CONFLICT', `Flow "${target.name}" is disabled: a disabled flow starts no run`, {
      hint: 'Enable it first',
      details: { flowId: target.id },
    });
  const notServed = () =>
    new MockdevError(
      'CONFLICT',
      `No server of project "${name}" is running: a run starts on the project's server`,
      {
        hint: `Start it ("mockdev serve ${name}", or Start in the web UI) and try again`,
        details: { projectId: stored.project.id },
      },
    );
  const servers = (await ctx.servers.list()).filter((s) => s.projectId === stored.project.id);
  const server = servers[0];
  if (!server) throw notServed();
  const runId = newId();
  if (!ctx.servers.requestRun(server, { runId, flowId: target.id })) throw notServed();
  const deadline = Date.now() + RUN_PICKUP_MS;
  for (;;) {
    const run = await ctx.flowRuns.get(runId);
    if (run) return run;
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  throw new MockdevError(
    'CONFLICT',
    `The server of project "${name}" (${server.url}, pid ${server.pid}) did not start the run within ${RUN_PICKUP_MS / 1000} s`,
    {
      hint: 'A server started by an older mockdev runs no flows: restart it',
      details: { runId, flowId: target.id },
    },
  );
}

/** Waits until a run ends or `timeoutMs` (default 30 s) passes; `ended` says which. */
export async function waitFlowRun(
  ctx: AppContext,
  project: string,
  run: string,
  options: { timeoutMs?: number } & ResolveOptions = {},
): Promise<{ run: FlowRun; ended: boolean }> {
  const timeoutMs =
    options.timeoutMs === undefined
      ? DEFAULT_FLOW_WAIT_MS
      : wholeNumber(options.timeoutMs, 'timeout', 0, FLOW_DELAY_MAX_MS, ' of milliseconds');
  const deadline = Date.now() + timeoutMs;
  let current = await getFlowRun(ctx, project, run, options);
  while (current.status === 'running') {
    const left = deadline - Date.now();
    if (left <= 0) return { run: current, ended: false };
    await sleep(Math.min(POLL_MS, left));
    current = (await ctx.flowRuns.get(current.id)) ?? current;
  }
  return { run: current, ended: true };
}
