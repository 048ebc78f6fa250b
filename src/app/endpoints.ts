import { MockdevError, type Wording } from '../core/errors.js';
import { flowsUsing, stepName } from '../core/flows.js';
import { endpointKey, isUnderPathPrefix } from '../core/match/route-key.js';
import type { Endpoint, EndpointInput, EndpointPatch } from '../core/model/endpoint.js';
import type { StoredProject } from '../core/ports.js';
import type { AppContext } from './context.js';
import { applyEndpointPatch, assertRouteFree } from './endpoint-build.js';
import { EndpointList } from './endpoint-merge.js';
import {
  resolveProject,
  resolveProjectOrCwd,
  type OptionalProjectOptions,
  type ResolveOptions,
} from './projects.js';

/**
 * Finds an endpoint by id, by exact name, by case-insensitive name, or by "METHOD /path".
 */
export function findEndpointByRef(state: StoredProject, ref: string): Endpoint {
  const wanted = ref.trim();
  const found = lookupEndpoint(state.endpoints, wanted);
  if (!found) {
    throw new MockdevError('NOT_FOUND', `Endpoint "${wanted}" not found in project "${state.project.name}"`, {
      hint: (say) =>
        `${say.action('listEndpoints', state.project.name)} to see its endpoints (id, name or "METHOD /path")`,
      details: { endpoint: wanted, projectId: state.project.id },
    });
  }
  return found;
}

/** The endpoint a reference names (as findEndpointByRef), or undefined. */
export function lookupEndpoint(eps: Endpoint[], ref: string): Endpoint | undefined {
  const wanted = ref.trim();
  return (
    eps.find((e) => e.id === wanted) ??
    eps.find((e) => e.name === wanted) ??
    single(eps.filter((e) => e.name.toLowerCase() === wanted.toLowerCase())) ??
    byRoute(eps, wanted)
  );
}

const single = <T>(xs: T[]): T | undefined => (xs.length === 1 ? xs[0] : undefined);

function byRoute(eps: Endpoint[], ref: string): Endpoint | undefined {
  const m = /^([A-Za-z]+)\s+(\/\S*)$/.exec(ref);
  if (!m) return undefined;
  const key = endpointKey(m[1]!, m[2]!);
  return eps.find((e) => endpointKey(e.method, e.path) === key);
}

/** The endpoints of a project; with no project given, of the project in the working folder. */
export async function listEndpoints(
  ctx: AppContext,
  projectRef: string | undefined,
  options: { enabledOnly?: boolean; pathPrefix?: string } & OptionalProjectOptions = {},
): Promise<Endpoint[]> {
  const state = await resolveProjectOrCwd(ctx, projectRef, options);
  const prefix = options.pathPrefix === undefined ? undefined : checkPathPrefix(options.pathPrefix);
  return state.endpoints.filter(
    (e) => (!options.enabledOnly || e.enabled) && (prefix === undefined || isUnderPathPrefix(e.path, prefix)),
  );
}

export async function getEndpoint(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  options?: ResolveOptions,
): Promise<Endpoint> {
  return findEndpointByRef(await resolveProject(ctx, projectRef, options), endpointRef);
}

/** What a change of the endpoint list writes: the endpoints, and the project's updatedAt. */
export const withEndpoints = <T>(current: StoredProject, endpoints: Endpoint[], result: T) => ({
  endpoints,
  project: { ...current.project, updatedAt: new Date().toISOString() },
  result,
});

export async function addEndpoint(
  ctx: AppContext,
  projectRef: string,
  input: EndpointInput,
  options?: ResolveOptions,
): Promise<Endpoint> {
  const target = await resolveProject(ctx, projectRef, options);
  return ctx.projects.update(target.key, (current) => {
    const list = new EndpointList(current.endpoints);
    const { endpoint } = list.place(input, 'refuse');
    return withEndpoints(current, list.endpoints, endpoint);
  });
}

export async function updateEndpoint(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  patch: EndpointPatch,
  options?: ResolveOptions,
): Promise<Endpoint> {
  const target = await resolveProject(ctx, projectRef, options);
  return ctx.projects.update(target.key, (stored) => {
    const current = findEndpointByRef(stored, endpointRef);
    const next = applyEndpointPatch(current, patch);
    const sameName = (e: Endpoint) => e.id !== current.id && e.name.toLowerCase() === next.name.toLowerCase();
    if (next.name !== current.name && stored.endpoints.some(sameName)) {
      throw new MockdevError(
        'NAME_TAKEN',
        `An endpoint named "${next.name}" already exists in project "${stored.project.name}"`,
        { hint: 'Choose another name' },
      );
    }
    assertRouteFree(stored.endpoints, next, current.id);
    if (next.kind !== current.kind) assertKindFitsFlows(stored, next);
    return withEndpoints(
      stored,
      stored.endpoints.map((e) => (e.id === current.id ? next : e)),
      next,
    );
  });
}

export async function removeEndpoint(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  options?: ResolveOptions,
): Promise<Endpoint> {
  const target = await resolveProject(ctx, projectRef, options);
  const removed = await ctx.projects.update(target.key, (stored) => {
    const current = findEndpointByRef(stored, endpointRef);
    assertUnusedByFlows(stored, [current]);
    return withEndpoints(
      stored,
      stored.endpoints.filter((e) => e.id !== current.id),
      current,
    );
  });
  // Its recordings go with it (only an endpoint that was a proxy can have any).
  if (removed.kind === 'proxy' || removed.proxy) await ctx.recordings.clearEndpoints([removed.id]);
  return removed;
}

/**
 * An endpoint a flow names (in a trigger or an action) is not removed: the flow would name
 * nothing. CONFLICT naming the flow and the step, and how many more use the endpoints.
 */
function assertUnusedByFlows(stored: StoredProject, removed: Endpoint[]): void {
  const uses = flowsUsing(stored.flows, new Set(removed.map((e) => e.id)));
  const first = uses[0];
  if (!first) return;
  const e = removed.find((r) => r.id === first.endpointId)!;
  const more = uses.length > 1 ? ` (and ${uses.length - 1} more step${uses.length > 2 ? 's' : ''})` : '';
  throw new MockdevError(
    'CONFLICT',
    `Endpoint "${e.method} ${e.path}" is used by ${stepName(first.step, first.index, 'step')} of flow "${first.flow.name}"${more}; nothing was removed`,
    {
      hint: 'Remove that step or the flow first, or make it name another endpoint',
      details: { endpointId: e.id, flowId: first.flow.id, stepId: first.step.id },
    },
  );
}

/** An endpoint a flow's respond (mock) or proxy (proxy) action names keeps the kind it needs. */
function assertKindFitsFlows(stored: StoredProject, next: Endpoint): void {
  for (const flow of stored.flows)
    flow.steps.forEach((step, index) => {
      const a = step.action;
      if (a.type === 'callback' || a.endpointId !== next.id) return;
      if ((a.type === 'respond') === (next.kind === 'mock')) return;
      throw new MockdevError(
        'CONFLICT',
        `Endpoint "${next.method} ${next.path}" cannot become a ${next.kind} endpoint: ${stepName(step, index, 'step')} of flow "${flow.name}" uses it in a ${a.type} action`,
        {
          hint: 'Change or remove that step first',
          details: { endpointId: next.id, flowId: flow.id, stepId: step.id },
        },
      );
    });
}

/** Which endpoints removeEndpoints takes: these ids, or every path under a folder. */
export type EndpointSelection = { ids: string[] } | { pathPrefix: string };

/** A path prefix as a folder of endpoints is named (`/api/users`), trimmed; else INVALID_ARGUMENT. */
function checkPathPrefix(value: string): string {
  const prefix = value.trim();
  if (!prefix.startsWith('/') || /[?#]/.test(prefix)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid path prefix ${JSON.stringify(prefix)}: must be a path such as /api/users`,
      { details: { field: 'pathPrefix', value: prefix } },
    );
  }
  return prefix;
}

/** The endpoints a selection names; all or nothing: an unknown id, or a folder holding none, is NOT_FOUND. */
export function selectEndpoints(state: StoredProject, selection: EndpointSelection): Endpoint[] {
  const where = `project "${state.project.name}"`;
  const listHint = (say: Wording) =>
    `${say.action('listEndpoints', state.project.name)} to see its endpoints`;
  if ('ids' in selection) {
    const ids = [...new Set(selection.ids.map((id) => id.trim()).filter((id) => id !== ''))];
    if (ids.length === 0) throw new MockdevError('INVALID_ARGUMENT', 'No endpoint ids given');
    const unknown = ids.filter((id) => !state.endpoints.some((e) => e.id === id));
    if (unknown.length) {
      throw new MockdevError(
        'NOT_FOUND',
        `Endpoint${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `"${id}"`).join(', ')} not found in ${where}; nothing was removed`,
        { hint: listHint, details: { endpoints: unknown, projectId: state.project.id } },
      );
    }
    return state.endpoints.filter((e) => ids.includes(e.id));
  }
  const prefix = checkPathPrefix(selection.pathPrefix);
  const under = state.endpoints.filter((e) => isUnderPathPrefix(e.path, prefix));
  if (under.length === 0) {
    throw new MockdevError(
      'NOT_FOUND',
      `No endpoint of ${where} is at or under ${prefix}; nothing was removed`,
      {
        hint: listHint,
        details: { pathPrefix: prefix, projectId: state.project.id },
      },
    );
  }
  return under;
}

/**
 * Removes several endpoints in one store update (the UI's multi-delete and "Delete Path"): all
 * of them or, when one is unknown, none. Returns the endpoints removed, in their stored order.
 */
export async function removeEndpoints(
  ctx: AppContext,
  projectRef: string,
  selection: EndpointSelection,
  options?: ResolveOptions,
): Promise<Endpoint[]> {
  const target = await resolveProject(ctx, projectRef, options);
  const removed = await ctx.projects.update(target.key, (stored) => {
    const chosen = new Set(selectEndpoints(stored, selection).map((e) => e.id));
    assertUnusedByFlows(
      stored,
      stored.endpoints.filter((e) => chosen.has(e.id)),
    );
    const kept = stored.endpoints.filter((e) => !chosen.has(e.id));
    return withEndpoints(
      stored,
      kept,
      stored.endpoints.filter((e) => chosen.has(e.id)),
    );
  });
  const proxies = removed.filter((e) => e.kind === 'proxy' || e.proxy).map((e) => e.id);
  if (proxies.length) await ctx.recordings.clearEndpoints(proxies);
  return removed;
}

export async function setEndpointEnabled(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  enabled: boolean,
  options?: ResolveOptions,
): Promise<Endpoint> {
  return updateEndpoint(ctx, projectRef, endpointRef, { enabled }, options);
}
