/**
 * The UI's one way to the admin API (/api/v1): JSON in and out, and every error as an ApiError
 * carrying the problem's title, detail and code, so a screen can show it whole. The problem is
 * the core's (src/core/model/problem.ts), the shape of every mockdev HTTP surface; what the UI
 * makes up itself (the API cannot be reached, an answer that is not a problem) has no code.
 */
import type { Problem as ApiProblem } from '../../../src/core/model/problem';

/** A problem as the UI holds it: the API's, or one of its own (no code, maybe no detail). */
export type Problem = Pick<ApiProblem, 'title' | 'status'> &
  Partial<Pick<ApiProblem, 'detail' | 'code' | 'details'>>;

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail?: string;
  readonly code?: ApiProblem['code'];
  readonly details?: ApiProblem['details'];
  constructor(problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    this.code = problem.code;
    this.details = problem.details;
  }
}

export const API = '/api/v1';

/** Encodes a path parameter (a name or `METHOD /path` may hold slashes and spaces). */
export const enc = (value: string): string => encodeURIComponent(value);

/** `?a=1&b=x` from the defined values; '' when none. */
export function query(values: Record<string, string | number | boolean | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function problemOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const p = JSON.parse(text) as Partial<ApiProblem>;
    if (p && typeof p.title === 'string') return new ApiError({ ...p, title: p.title, status: res.status });
  } catch {
    // not JSON: the text (or the status line) is the message
  }
  return new ApiError({
    title: `${res.status} ${res.statusText}`.trim(),
    status: res.status,
    detail: text || undefined,
  });
}

/** Listeners told when the API answers 401 (the token is needed or the session ended). */
const unauthorized = new Set<() => void>();
export const onUnauthorized = (fn: () => void): (() => void) => {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
};

export interface RequestOptions {
  method?: string;
  /** A value sent as JSON; a string is sent as it is with `contentType`. */
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** The request outlives the page (a save sent while the page is being left). */
  keepalive?: boolean;
}

/** Calls the admin API; resolves with the parsed JSON (text for a non-JSON answer, undefined for 204). */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  // Hints in the UI's words: a screen or a field to use, never an API path (src/api/ui-wording.ts).
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Mockdev-Wording': 'ui' };
  let body: string | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' && options.contentType) body = options.body;
    else body = JSON.stringify(options.body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(`${API}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError({
      title: 'mockdev ui cannot be reached',
      status: 0,
      detail: 'Is `mockdev ui` still running? Start it again and reload this page.',
    });
  }
  if (res.status === 401) for (const fn of unauthorized) fn();
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

/**
 * GETs started before the code that needs them has run (main.tsx primes what the first screen
 * asks for, so those calls go out at once, side by side, instead of one after another as each
 * component mounts). Each is taken once, by the first `get` of the same path within a few
 * seconds; a primed call that failed (e.g. 401 before signing in) is simply made again.
 */
const PRIMED_FOR_MS = 5000;
type Primed = { at: number; answer: Promise<{ ok: true; value: unknown } | { ok: false }> };
const primed = new Map<string, Primed>();

export function prime(paths: readonly string[]): void {
  for (const path of paths)
    if (!primed.has(path))
      primed.set(path, {
        at: performance.now(),
        answer: api(path).then(
          (value) => ({ ok: true as const, value }),
          () => ({ ok: false as const }),
        ),
      });
}

export const get = async <T>(path: string, signal?: AbortSignal): Promise<T> => {
  const early = primed.get(path);
  if (early) {
    primed.delete(path);
    if (performance.now() - early.at < PRIMED_FOR_MS) {
      const answer = await early.answer;
      if (answer.ok) return answer.value as T;
    }
  }
  return api<T>(path, { signal });
};
export const post = <T>(path: string, body: unknown = {}) => api<T>(path, { method: 'POST', body });
export const put = <T>(path: string, body: unknown = {}) => api<T>(path, { method: 'PUT', body });
export const patch = <T>(path: string, body: unknown) => api<T>(path, { method: 'PATCH', body });
export const del = <T>(path: string) => api<T>(path, { method: 'DELETE' });
