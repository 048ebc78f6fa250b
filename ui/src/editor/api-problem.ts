import { ApiError } from '../api/client';

/**
 * The detail of an API error about one field (`details.field`, e.g. `body`, `status`,
 * `proxy.target`, `headers.X-Id`), to show at that field; undefined for any other error.
 */
export function apiFieldProblem(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const named = (error.details as { field?: unknown } | undefined)?.field;
  if (typeof named !== 'string') return undefined;
  if (named !== field && !named.startsWith(`${field}.`)) return undefined;
  return error.detail ?? error.title;
}
