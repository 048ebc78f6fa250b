import { MockdevError } from '../core/errors.js';
import { parseRequestFilters, type RequestFilters, type RequestRecord } from '../core/model/request.js';
import {
  parseStatsMinutes,
  statsWindow,
  type RequestStats,
  type RequestStatsFilters,
} from '../core/model/request-stats.js';
import {
  parseCountFilters,
  parseWaitBounds,
  type RequestCountInput,
  type RequestWaitInput,
  type RequestWaitResult,
} from '../core/model/request-wait.js';
import type { AppContext } from './context.js';
import {
  reachOf,
  resolveProject,
  resolveProjectOrCwd,
  type OptionalProjectOptions,
  type ResolveOptions,
} from './projects.js';

/** Request log use cases (CLI `requests …`, MCP request tools), over the request log store. */

const notFound = (ids: string[]): MockdevError =>
  new MockdevError(
    'NOT_FOUND',
    `Request${ids.length > 1 ? 's' : ''} ${ids.map((id) => `"${id}"`).join(', ')} not found`,
    {
      hint: (say) => `${say.action('listRequests')} to see their ids`,
      details: { ids },
    },
  );

/**
 * With `dataDirOnly` (the MCP server's rule), requests logged for projects outside the data
 * directory do not exist for the caller: they are reported as not found.
 */
async function assertReachable(ctx: AppContext, ids: string[], options?: ResolveOptions): Promise<void> {
  if (!reachOf(ctx, options).dataDirOnly) return;
  const inside = new Map<string, boolean>(); // per project of the requests: looked up once
  const hidden: string[] = [];
  for (const id of ids) {
    const record = await ctx.requests.get(id);
    if (!record) continue;
    const { projectId } = record;
    if (!inside.has(projectId)) {
      const found = await ctx.projects.find(projectId, { dataDirOnly: true }); // by id or name
      const byId = found.some((p) => p.project.id === projectId);
      inside.set(projectId, byId);
    }
    if (!inside.get(projectId)) hidden.push(id);
  }
  if (hidden.length) throw notFound(hidden);
}

/**
 * Newest first. Filters: limit (default 50), method, status (`404`, `4xx`, `200,201`), starred,
 * path (a text the path contains).
 * With no project given, the project in the working folder.
 */
export async function listRequests(
  ctx: AppContext,
  projectRef: string | undefined,
  filters: RequestFilters = {},
  options?: OptionalProjectOptions,
): Promise<RequestRecord[]> {
  const parsed = parseRequestFilters(filters);
  const stored = await resolveProjectOrCwd(ctx, projectRef, options);
  return ctx.requests.list(stored.project.id, parsed);
}

/** What the request log's charts take: the list's filters (no limit) and how many minutes back. */
export type RequestStatsInput = Omit<RequestFilters, 'limit'> & {
  /** From 1 to 1440; default 15. */
  minutes?: number;
  /** The clock's now, in ms since the epoch (default: Date.now()). */
  now?: number;
};

/**
 * The request log's charts for a project (the web UI's request log): the requests of the last
 * `minutes` that pass the filters, per second by status class in 60 buckets, and their latency
 * histogram with p50/p95/p99 (core/model/request-stats.ts), computed by the request log store.
 */
export async function requestStats(
  ctx: AppContext,
  projectRef: string,
  input: RequestStatsInput = {},
  options?: ResolveOptions,
): Promise<RequestStats> {
  const { minutes, now, ...filters } = input;
  const window = statsWindow(now ?? Date.now(), parseStatsMinutes(minutes));
  const { limit: _limit, ...parsed } = parseRequestFilters(filters);
  const stored = await resolveProject(ctx, projectRef, options);
  return ctx.requests.stats(stored.project.id, parsed, window);
}

export async function getRequest(
  ctx: AppContext,
  id: string,
  options?: ResolveOptions,
): Promise<RequestRecord> {
  await assertReachable(ctx, [id], options);
  const found = await ctx.requests.get(id);
  if (!found) throw notFound([id]);
  return found;
}

export async function starRequest(
  ctx: AppContext,
  id: string,
  starred: boolean,
  options?: ResolveOptions,
): Promise<RequestRecord> {
  await assertReachable(ctx, [id], options);
  const found = await ctx.requests.setStarred(id, starred);
  if (!found) throw notFound([id]);
  return found;
}

/** Deletes all the ids or none: an unknown id is a NOT_FOUND naming it. */
export async function deleteRequests(
  ctx: AppContext,
  ids: string[],
  options?: ResolveOptions,
): Promise<{ deleted: string[] }> {
  if (ids.length === 0) throw new MockdevError('INVALID_ARGUMENT', 'Give at least one request id');
  const unique = [...new Set(ids.map((id) => id.trim()))];
  await assertReachable(ctx, unique, options);
  const result = await ctx.requests.deleteIds(unique);
  if (result.missing.length) throw notFound(result.missing);
  return { deleted: result.deleted };
}

/** Deletes every logged request of a project (starred ones too). */
export async function clearRequests(
  ctx: AppContext,
  projectRef: string,
  options?: ResolveOptions,
): Promise<{ deleted: number }> {
  const stored = await resolveProject(ctx, projectRef, options);
  return { deleted: await ctx.requests.clear(stored.project.id) };
}

/**
 * How many of a project's logged requests pass the list's filters (after the request `since`,
 * when given). With no project given, the project in the working folder.
 */
export async function countRequests(
  ctx: AppContext,
  projectRef: string | undefined,
  input: RequestCountInput = {},
  options?: OptionalProjectOptions,
): Promise<{ count: number }> {
  const filters = parseCountFilters(input);
  const stored = await resolveProjectOrCwd(ctx, projectRef, options);
  return { count: await ctx.requests.count(stored.project.id, filters) };
}

/**
 * Waits until `count` (default 1) logged requests of the project pass the filters, counting
 * those after the request `since` when given, or those already logged without it; or until
 * `timeoutMs` (default 10 s) or `signal` ends the wait. It follows the log as servers write it
 * (RequestLogStore.watchWrites), reading the count again at each write. `done` says whether the
 * count was reached; `records` are the matching requests, oldest first, at most `count`: the
 * first ones after `since`, or the newest ones without it.
 */
export async function waitForRequests(
  ctx: AppContext,
  projectRef: string | undefined,
  input: RequestWaitInput = {},
  options: OptionalProjectOptions & { signal?: AbortSignal } = {},
): Promise<RequestWaitResult> {
  const { count: _count, timeoutMs: _timeout, ...countInput } = input;
  const filters = parseCountFilters(countInput);
  const { wanted, timeoutMs } = parseWaitBounds(input);
  const stored = await resolveProjectOrCwd(ctx, projectRef, options);
  const projectId = stored.project.id;
  const count = await followCount(ctx, projectId, filters, wanted, timeoutMs, options.signal);
  const fromSince = filters.after !== undefined;
  const records = await ctx.requests.list(projectId, {
    ...filters,
    limit: wanted,
    oldestFirst: fromSince,
  });
  return { done: count >= wanted, wanted, count, records: fromSince ? records : records.reverse() };
}

/**
 * Reads the count at once, then again each time a server writes to the log (one read at a
 * time: writes heard during a read make one more read after it); resolves with the last count
 * read once it reaches `wanted`, or at the deadline (after the read under way) or the abort.
 */
function followCount(
  ctx: AppContext,
  projectId: string,
  filters: RequestStatsFilters,
  wanted: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let last = 0;
    let reading = false;
    let again = false;
    let expired = false;
    let finished = false;
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      writes.close();
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(last);
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = (): void => finish();
    const read = (): void => {
      if (finished) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      again = false;
      ctx.requests.count(projectId, filters).then(
        (n) => {
          reading = false;
          last = n;
          if (n >= wanted || expired) finish();
          else if (again) read();
        },
        (e: unknown) => finish(e),
      );
    };
    const writes = ctx.requests.watchWrites(read);
    // At the deadline a read under way still counts (`timeout` 0: one look at the log).
    const deadline = setTimeout(() => (reading ? (expired = true) : finish()), timeoutMs);
    signal?.addEventListener('abort', onAbort);
    if (signal?.aborted) return finish();
    read();
  });
}
