/** Pure helpers of the request log and the recordings: bodies, times, filters. */
import { HTTP_METHODS } from '../../../src/core/model/limits';

/** A header's value by name, in any case. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

export interface PrettyBody {
  text: string;
  /** The body parsed as JSON and was indented. */
  json: boolean;
}

/**
 * A body as shown: JSON (said by the content type, or text that parses as an object or array)
 * indented by two spaces; anything else as it is. A truncated JSON body does not parse and is
 * shown as stored.
 */
export function prettyBody(body: string | null | undefined, contentType?: string): PrettyBody {
  const text = body ?? '';
  const trimmed = text.trim();
  if (trimmed === '') return { text: '', json: false };
  const looksJson = /[/+]json\b/i.test(contentType ?? '') || /^[[{]/.test(trimmed);
  if (!looksJson) return { text, json: false };
  try {
    return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}

/** `2xx` … `5xx` as the API's status filter takes them. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The methods the request filter offers: every method an endpoint may have. */
export const METHODS = HTTP_METHODS;

export interface RequestFilter {
  method: string;
  status: StatusClass | '';
  starred: boolean;
  /** A text the path contains ('' for any path). */
  path: string;
  /** Only requests a live contract check found violations in. */
  violations: boolean;
}

/**
 * The filters a URL's query holds (`?method=GET&status=4xx&starred=true&path=/users&violations=true`), so a reload or a
 * shared link keeps them. A value the filter does not know is ignored.
 */
export function filterFromQuery(q: URLSearchParams): RequestFilter {
  const method = (q.get('method') ?? '').toUpperCase();
  const status = q.get('status') ?? '';
  return {
    method: (METHODS as readonly string[]).includes(method) ? method : '',
    status: (STATUS_CLASSES as readonly string[]).includes(status) ? (status as StatusClass) : '',
    starred: q.get('starred') === 'true',
    path: q.get('path') ?? '',
    violations: q.get('violations') === 'true',
  };
}

/** The query of a filter: only the filters that are set. */
export function filterToQuery(f: RequestFilter): Record<string, string | undefined> {
  return {
    method: f.method || undefined,
    status: f.status || undefined,
    starred: f.starred ? 'true' : undefined,
    path: f.path || undefined,
    violations: f.violations ? 'true' : undefined,
  };
}

/** Whether a logged request (a `request` event's summary or a record) passes the filters. */
export function matchesFilter(
  r: { method: string; status: number; starred?: boolean; path: string; contract?: { ok: boolean } },
  f: RequestFilter,
): boolean {
  if (f.violations && r.contract?.ok !== false) return false;
  if (f.path && !r.path.includes(f.path)) return false;
  if (f.method && r.method.toUpperCase() !== f.method) return false;
  if (f.status && Math.floor(r.status / 100) !== Number(f.status[0])) return false;
  if (f.starred && !r.starred) return false;
  return true;
}

/** A query object as `?a=1&b=2&b=3` (empty when none). */
export function queryString(query: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  const s = q.toString();
  return s ? `?${s}` : '';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The time of day with milliseconds (the log is read second by second), local time: what the
 * request log's rows show. Their detail shows the same with the date before it (dateAndTime):
 * one format across the log.
 */
export function timeOfDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** The date and the time of day (timeOfDay), local: `2025-03-09 14:05:07.042`. */
export function dateAndTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${timeOfDay(iso)}`;
}

export function formatDuration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}
