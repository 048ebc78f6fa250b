import type * as z from 'zod';
import { MockdevError, type Wording } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { endpointKey, isUnderPathPrefix } from '../core/match/route-key.js';
import { pathParamNames, wildcardProblem } from '../core/match/router.js';
import {
  EndpointInputSchema,
  EndpointPatchSchema,
  EndpointSchema,
  mergeProxySettings,
  type Endpoint,
  type EndpointInput,
  type EndpointPatch,
} from '../core/model/endpoint.js';
import { suggestEndpointName, uniqueName } from '../core/naming.js';
import { assertTemplate } from '../core/templates/engine.js';
import { parseInput } from '../core/validate.js';
import type { StoredProject } from '../core/ports.js';
import type { AppContext } from './context.js';
import {
  assertSomethingToChange,
  resolveProject,
  resolveProjectOrCwd,
  type OptionalProjectOptions,
  type ResolveOptions,
} from './projects.js';

const describe = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path}`;

/** Refuses an endpoint whose method + path (with any parameter names) is already taken. */
export function assertRouteFree(
  endpoints: Endpoint[],
  candidate: Pick<Endpoint, 'method' | 'path'>,
  exceptId?: string,
): void {
  const key = endpointKey(candidate.method, candidate.path);
  const clash = endpoints.find((e) => e.id !== exceptId && endpointKey(e.method, e.path) === key);
  if (clash) {
    throw new MockdevError(
      'CONFLICT',
      `${describe(candidate)} clashes with endpoint "${clash.name}" (${describe(clash)}, id ${clash.id})`,
      {
        hint: 'Update or remove the existing endpoint, or use another method or path',
        details: { existingId: clash.id },
      },
    );
  }
}

/** Validates an input and gives it an id and a unique name; no duplicate check. */
export function buildEndpoint(input: EndpointInput, existing: Endpoint[]): Endpoint {
  const parsed = parseInput(EndpointInputSchema, input, 'endpoint');
  const name = uniqueName(
    parsed.name ?? suggestEndpointName(parsed.method, parsed.path),
    existing.map((e) => e.name),
  );
  return finishEndpoint(parsed, name);
}

/**
 * Validates an input and gives it an id and a name unique among `names` (lower-cased, as a
 * set, so that thousands of endpoints stay linear); `names` is not changed.
 */
export function buildNamedEndpoint(input: EndpointInput, names: Set<string>): Endpoint {
  const parsed = parseInput(EndpointInputSchema, input, 'endpoint');
  const wanted = parsed.name ?? suggestEndpointName(parsed.method, parsed.path);
  return finishEndpoint(parsed, names.has(wanted.toLowerCase()) ? uniqueName(wanted, names) : wanted);
}

/** The endpoint of a validated input: an id, its name, the proxy rule. */
function finishEndpoint(parsed: z.output<typeof EndpointInputSchema>, name: string): Endpoint {
  if (parsed.kind === 'proxy' && !parsed.proxy) {
    throw new MockdevError('INVALID_ARGUMENT', 'A proxy endpoint needs a proxy target', {
      hint: 'Give proxy.target, e.g. https://api.example.com',
    });
  }
  assertWildcardAllowed(parsed);
  assertRulesFitPath(parsed);
  assertTemplates(parsed);
  return EndpointSchema.parse(withoutEmptyStatusTexts({ ...parsed, id: newId(), name }));
}

/**
 * An empty status text means the standard reason phrase: it is left out (of the endpoint and of
 * each variation), so the stored JSON has `statusText` only when one is set.
 */
function withoutEmptyStatusTexts<T extends { statusText?: unknown; variations?: unknown }>(e: T): T {
  const drop = <R extends { statusText?: unknown }>(r: R): R => {
    if (r.statusText !== '') return r;
    const copy = { ...r };
    delete copy.statusText;
    return copy;
  };
  const out = drop(e);
  return Array.isArray(out.variations)
    ? { ...out, variations: (out.variations as { statusText?: unknown }[]).map(drop) }
    : out;
}

/**
 * Every template of an endpoint compiles (status text, body, header values, proxy target, the
 * same of each variation): one that does not is refused with its line and column
 * (docs/templates.md).
 */
export function assertTemplates(
  e: Pick<Endpoint, 'statusText' | 'body' | 'headers' | 'proxy' | 'variations'>,
): void {
  const check = (r: Pick<Endpoint, 'statusText' | 'body' | 'headers'>, where: string) => {
    if (r.statusText) assertTemplate(r.statusText, `${where}statusText`);
    assertTemplate(r.body, `${where}body`);
    for (const [name, value] of Object.entries(r.headers)) assertTemplate(value, `${where}header "${name}"`);
  };
  check(e, '');
  if (e.proxy) assertTemplate(e.proxy.target, 'proxy.target');
  for (const v of e.variations) check(v, `variation "${v.name}" `);
}

/** Only a proxy endpoint's path may end in `/*` (it forwards the whole subtree). */
function assertWildcardAllowed(e: Pick<Endpoint, 'kind' | 'path'>): void {
  const problem = wildcardProblem(e.kind, e.path);
  if (problem) {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid path ${JSON.stringify(e.path)}: ${problem}`, {
      details: { field: 'path', value: e.path },
    });
  }
}

/** A variation rule on a path parameter names one the path has (else it could never match). */
function assertRulesFitPath(e: Pick<Endpoint, 'method' | 'path' | 'variations'>): void {
  const params = pathParamNames(e.path);
  for (const v of e.variations) {
    const rule = v.rules?.find((r) => r.source === 'param' && !params.includes(r.key));
    if (!rule) continue;
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Variation "${v.name}" has a rule on path parameter "${rule.key}", which ${e.method} ${e.path} does not have`,
      {
        hint: params.length ? `Its parameters: ${params.join(', ')}` : 'Its path has no parameters',
        details: { field: 'rules', value: rule.key },
      },
    );
  }
}

/** Builds a list of new endpoints, refusing duplicates among them. */
export function buildEndpoints(inputs: EndpointInput[]): Endpoint[] {
  const out: Endpoint[] = [];
  const keys = new Set<string>();
  const names = new Set<string>();
  for (const input of inputs) {
    // Checking against sets keeps large imports (thousands of operations) linear.
    const endpoint = buildNamedEndpoint(input, names);
    const key = endpointKey(endpoint.method, endpoint.path);
    if (keys.has(key)) assertRouteFree(out, endpoint);
    keys.add(key);
    names.add(endpoint.name.toLowerCase());
    out.push(endpoint);
  }
  return out;
}

/**
 * Finds an endpoint by id, by exact name, by case-insensitive name, or by "METHOD /path".
 */
export function findEndpointByRef(state: StoredProject, ref: string): Endpoint {
  const wanted = ref.trim();
  const eps = state.endpoints;
  const found =
    eps.find((e) => e.id === wanted) ??
    eps.find((e) => e.name === wanted) ??
    single(eps.filter((e) => e.name.toLowerCase() === wanted.toLowerCase())) ??
    byRoute(eps, wanted);
  if (!found) {
    throw new MockdevError('NOT_FOUND', `Endpoint "${wanted}" not found in project "${state.project.name}"`, {
      hint: (say) =>
        `${say.action('listEndpoints', state.project.name)} to see its endpoints (id, name or "METHOD /path")`,
      details: { endpoint: wanted, projectId: state.project.id },
    });
  }
  return found;
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
    const endpoint = buildEndpoint(input, current.endpoints);
    assertRouteFree(current.endpoints, endpoint);
    return withEndpoints(current, [...current.endpoints, endpoint], endpoint);
  });
}

/** Applies a patch to an endpoint found by ref; `null` removes an optional field. */
export function applyEndpointPatch(endpoint: Endpoint, patch: EndpointPatch): Endpoint {
  const parsed = parseInput(EndpointPatchSchema, patch, 'endpoint');
  assertSomethingToChange(parsed, Object.keys(EndpointPatchSchema.shape));
  const merged: Record<string, unknown> = { ...endpoint };
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (key === 'headers') merged.headers = mergeHeaders(endpoint, parsed.headers!);
    else if (key === 'proxy' && value !== null) merged.proxy = mergeProxySettings(endpoint, parsed.proxy!);
    else if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const next = EndpointSchema.parse(withoutEmptyStatusTexts(merged));
  if (next.kind === 'proxy' && !next.proxy) {
    throw new MockdevError('INVALID_ARGUMENT', 'A proxy endpoint needs a proxy target', {
      hint: 'Give proxy.target, e.g. https://api.example.com',
    });
  }
  assertWildcardAllowed(next);
  assertRulesFitPath(next);
  assertTemplates(next);
  if (next.activeVariationId && !next.variations.some((v) => v.id === next.activeVariationId)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Variation "${next.activeVariationId}" does not exist on endpoint "${next.name}"`,
      {
        hint: `Use one of: ${next.variations.map((v) => v.id).join(', ') || '(no variations)'}`,
      },
    );
  }
  return next;
}

/**
 * A header change: each named header is added, or replaces the one of the same name (in any
 * case) where it stood; `null` removes it, and naming a header the endpoint lacks is an error.
 */
export function mergeHeaders(
  endpoint: Pick<Endpoint, 'name' | 'headers'>,
  changes: Record<string, string | null>,
): Record<string, string> {
  const entries = Object.entries(endpoint.headers);
  for (const [name, value] of Object.entries(changes)) {
    const at = entries.findIndex(([k]) => k.toLowerCase() === name.toLowerCase());
    if (value !== null) {
      if (at === -1) entries.push([name, value]);
      else entries[at] = [name, value];
    } else if (at !== -1) {
      entries.splice(at, 1);
    } else {
      const names = entries.map(([k]) => k);
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Endpoint "${endpoint.name}" has no header "${name}" to remove`,
        { hint: names.length ? `Its headers: ${names.join(', ')}` : 'It has no headers' },
      );
    }
  }
  return Object.fromEntries(entries);
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
