import { MockdevError } from '../core/errors.js';
import { parseRequestFilters, type RequestFilters, type RequestRecord } from '../core/model/request.js';
import { dataPaths } from '../store/data-dir.js';
import { RequestLog } from '../store/request-log.js';
import type { AppContext } from './context.js';
import { listProjects, resolveProject, type ResolveOptions } from './projects.js';

/**
 * Request log use cases (CLI `requests …`, MCP request tools). Each call opens the shared
 * SQLite log, does its work and closes it, so it is safe while servers write to it.
 */

function withLog<T>(ctx: AppContext, fn: (log: RequestLog) => T): T {
  const log = new RequestLog(dataPaths(ctx.dataDir).requestLog);
  try {
    return fn(log);
  } finally {
    log.close();
  }
}

const notFound = (ids: string[]): MockdevError =>
  new MockdevError(
    'NOT_FOUND',
    `Request${ids.length > 1 ? 's' : ''} ${ids.map((id) => `"${id}"`).join(', ')} not found`,
    {
      hint: "List the project's requests (mockdev requests list, or the list_requests tool) to see their ids",
      details: { ids },
    },
  );

/**
 * With `dataDirOnly` (the MCP server's rule), requests logged for projects outside the data
 * directory do not exist for the caller: they are reported as not found.
 */
async function assertReachable(ctx: AppContext, ids: string[], options?: ResolveOptions): Promise<void> {
  if (!options?.dataDirOnly) return;
  const reachable = new Set((await listProjects(ctx)).map((p) => p.id));
  const records = withLog(ctx, (log) => ids.map((id) => log.get(id)));
  const hidden = ids.filter((_, i) => records[i] && !reachable.has(records[i]!.projectId));
  if (hidden.length) throw notFound(hidden);
}

/** Newest first. Filters: limit (default 50), method, status (`404`, `4xx`, `200,201`), starred. */
export async function listRequests(
  ctx: AppContext,
  projectRef: string,
  filters: RequestFilters = {},
  options?: ResolveOptions,
): Promise<RequestRecord[]> {
  const parsed = parseRequestFilters(filters);
  const state = await resolveProject(ctx, projectRef, options);
  return withLog(ctx, (log) => log.list(state.project.id, parsed));
}

export async function getRequest(
  ctx: AppContext,
  id: string,
  options?: ResolveOptions,
): Promise<RequestRecord> {
  await assertReachable(ctx, [id], options);
  const found = withLog(ctx, (log) => log.get(id));
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
  const found = withLog(ctx, (log) => log.setStarred(id, starred));
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
  const result = withLog(ctx, (log) => log.deleteIds(unique));
  if (result.missing.length) throw notFound(result.missing);
  return { deleted: result.deleted };
}

/** Deletes every logged request of a project (starred ones too). */
export async function clearRequests(
  ctx: AppContext,
  projectRef: string,
  options?: ResolveOptions,
): Promise<{ deleted: number }> {
  const state = await resolveProject(ctx, projectRef, options);
  return { deleted: withLog(ctx, (log) => log.clear(state.project.id)) };
}
