import { ERROR_CATALOGUE, PLAIN_WORDING, toMockdevError, type Wording } from './errors.js';
import type { Problem } from './model/problem.js';

export interface ProblemOptions {
  /** How hints are worded (the surface's own words). */
  say?: Wording;
  /** Members of the surface's own, after the standard ones (the mock server's `closest`). */
  extensions?: Record<string, unknown>;
}

/**
 * The problem body of an error (model/problem.ts): the catalogue's status and title, the
 * message and hint as the detail, the details as `details`. Anything not a MockdevError is an
 * INTERNAL problem whose detail is its message alone (never a stack).
 */
export function toProblem(error: unknown, options: ProblemOptions = {}): Problem {
  const e = toMockdevError(error);
  const { httpStatus, title } = ERROR_CATALOGUE[e.code];
  const problem: Problem = {
    type: 'about:blank',
    title,
    status: httpStatus,
    detail: e.code === 'INTERNAL' ? e.message : e.describe(options.say ?? PLAIN_WORDING),
    code: e.code,
  };
  if (e.details) problem.details = e.details;
  for (const [k, v] of Object.entries(options.extensions ?? {})) if (!(k in problem)) problem[k] = v;
  return problem;
}
