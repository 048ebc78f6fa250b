import { ApiError } from '../api/client';
import { problemField } from './form-model';

/**
 * The detail of an API error about one field (`details.field`, e.g. `body`, `status`,
 * `proxy.target`, `header "X-Id"`), to show at that field; undefined for any other error.
 */
export function apiFieldProblem(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const named = (error.details as { field?: unknown } | undefined)?.field;
  if (typeof named !== 'string') return undefined;
  const key = problemField(named);
  if (key !== field && !key.startsWith(`${field}.`)) return undefined;
  return error.detail ?? error.title;
}
