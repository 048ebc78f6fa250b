import { MockdevError } from '../core/errors.js';
import { parseRequestFilters, type RequestFilters, type RequestRecord } from '../core/model/request.js';
import { dataPaths } from '../store/data-dir.js';
import { RequestLog } from '../store/request-log.js';
import type { AppContext } from './context.js';
import { resolveProject, type ResolveOptions } from './projects.js';

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
      hint: 'Run "mockdev requests list <PROJECT>" to see request ids',
      details: { ids },
    },
  );

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

export async function getRequest(ctx: AppContext, id: string): Promise<RequestRecord> {
  const found = withLog(ctx, (log) => log.get(id));
  if (!found) throw notFound([id]);
  return found;
}

export async function starRequest(ctx: AppContext, id: string, starred: boolean): Promise<RequestRecord> {
  const found = withLog(ctx, (log) => log.setStarred(id, starred));
  if (!found) throw notFound([id]);
  return found;
}

/** Deletes all the ids or none: an unknown id is a NOT_FOUND naming it. */
export async function deleteRequests(ctx: AppContext, ids: string[]): Promise<{ deleted: string[] }> {
  if (ids.length === 0) throw new MockdevError('INVALID_ARGUMENT', 'Give at least one request id');
  const unique = [...new Set(ids.map((id) => id.trim()))];
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
