import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { ContractVerdictSchema } from './contract.js';
import { parseMethod, TimestampSchema } from './fields.js';

/** The protocols a request log record names. */
export const REQUEST_PROTOCOLS = ['http/1.1', 'h2'] as const;
export type RequestProtocol = (typeof REQUEST_PROTOCOLS)[number];

/**
 * The request log record of DECISIONS "Shapes": what `requests show --json` prints and the MCP
 * request tools return. `truncated` is true when a request or response body was longer than
 * the body cap (settings.requestBodyLimitBytes) and was stored cut short.
 */
export const RequestRecordSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  endpointId: z.string().nullable(),
  timestamp: TimestampSchema,
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  status: z.number().int(),
  durationMs: z.number(),
  starred: z.boolean(),
  truncated: z.boolean(),
  response: z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
  }),
  /**
   * The variation that answered, with its name as it was then; null: the endpoint's own response
   * (or no endpoint, or a proxy).
   */
  variation: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The protocol the request came by: `http/1.1` or `h2` (HTTP/2, over HTTPS); null: logged before it was recorded. */
  protocol: z.enum(REQUEST_PROTOCOLS).nullable(),
  /**
   * Who sent it: the socket's address, or, on a connection from this machine (a tunnel's agent),
   * the caller that `CF-Connecting-IP` / the first `X-Forwarded-For` entry names; null: unknown
   * (logged before it was recorded).
   */
  clientAddress: z.string().nullable(),
  /**
   * The live contract check's verdict (`serve --contract`, docs/contract.md); absent: not checked.
   */
  contract: ContractVerdictSchema.optional(),
  /** Milliseconds the response was held back (its delay as sampled, docs/faults.md); absent: none. */
  delayMs: z.number().int().optional(),
  /**
   * The fault the request got (`reset`, `empty`, `garbage`, `drip:<bytes-per-second>`); absent:
   * none. After reset, empty or garbage no HTTP answer was sent: the status is 0.
   */
  fault: z.string().optional(),
});
export type RequestRecord = z.infer<typeof RequestRecordSchema>;

/** A logged request in brief: what the admin API's `request` event carries. */
export const RequestSummarySchema = RequestRecordSchema.pick({
  id: true,
  projectId: true,
  endpointId: true,
  method: true,
  path: true,
  status: true,
  durationMs: true,
  timestamp: true,
});
export type RequestSummary = z.infer<typeof RequestSummarySchema>;

export const DEFAULT_REQUEST_LIST_LIMIT = 50;
export const MAX_REQUEST_LIST_LIMIT = 1_000_000;

/** One range of accepted statuses; `404` is {404, 404}, `4xx` is {400, 499}. */
export interface StatusRange {
  min: number;
  max: number;
}

/**
 * Parses a status filter: an exact status (`404`), a class (`4xx`, `5XX`) or a comma-separated
 * list of either (`200,201`, `2xx,404`). Anything else is an INVALID_ARGUMENT.
 */
export function parseStatusFilter(text: string): StatusRange[] {
  const parts = text.split(',').map((p) => p.trim());
  const ranges: StatusRange[] = [];
  for (const part of parts) {
    const exact = /^([1-5]\d\d)$/.exec(part);
    const cls = /^([1-5])xx$/i.exec(part);
    if (exact) ranges.push({ min: Number(exact[1]), max: Number(exact[1]) });
    else if (cls) ranges.push({ min: Number(cls[1]) * 100, max: Number(cls[1]) * 100 + 99 });
    else {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Invalid status filter "${text}": use a status such as 404, a class such as 4xx, or a list such as 200,201`,
        {
          details: { field: 'status', value: text },
        },
      );
    }
  }
  return ranges;
}

/** Filters of `requests list` and the MCP list_requests tool. */
export interface RequestFilters {
  limit?: number;
  method?: string;
  status?: string;
  starred?: boolean;
  /** Only requests whose path (as logged, without the query) contains this text. */
  path?: string;
  /** true: only requests a live contract check found violations in. */
  violations?: boolean;
}

/** The longest `path` filter: a path longer than any URL a server takes matches nothing anyway. */
export const MAX_PATH_FILTER_LENGTH = 2048;

/** Filters checked and normalised: method upper-case, status as ranges, limit bounded. */
export interface ParsedRequestFilters {
  limit: number;
  method: string | undefined;
  status: StatusRange[] | undefined;
  starred: boolean | undefined;
  /** Text the path contains (case-sensitive, as paths are); undefined: any path. */
  path: string | undefined;
  /** true: only requests whose stored contract verdict has violations. */
  violations: boolean | undefined;
  /** Only records logged after the record of this id (`requests count/wait --since`); ids only grow. */
  after?: number;
  /** Oldest first (what `requests wait` prints) rather than newest first. */
  oldestFirst?: boolean;
}

export function parseRequestFilters(filters: RequestFilters = {}): ParsedRequestFilters {
  const limit = filters.limit ?? DEFAULT_REQUEST_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_REQUEST_LIST_LIMIT) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid limit ${JSON.stringify(filters.limit)}: must be a whole number from 1 to ${MAX_REQUEST_LIST_LIMIT}`,
      {
        details: { field: 'limit', value: filters.limit },
      },
    );
  }
  const method = filters.method === undefined ? undefined : parseMethod(filters.method);
  const status = filters.status === undefined ? undefined : parseStatusFilter(String(filters.status));
  const path = filters.path === undefined || filters.path === '' ? undefined : filters.path;
  if (path !== undefined && path.length > MAX_PATH_FILTER_LENGTH) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid path filter: ${path.length} characters, the most is ${MAX_PATH_FILTER_LENGTH}`,
      { hint: 'Give a part of the path, such as /users', details: { field: 'path' } },
    );
  }
  return { limit, method, status, starred: filters.starred, path, violations: filters.violations };
}
