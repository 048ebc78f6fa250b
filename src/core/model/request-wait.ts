import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { parseRequestFilters, RequestRecordSchema, type RequestFilters } from './request.js';
import type { RequestStatsFilters } from './request-stats.js';
import { wholeNumber } from '../validate.js';

/**
 * Counting and waiting on the request log (`requests count`, `requests wait`, the admin API's
 * `…/requests/count` and `…/requests/wait`): the list's filters, and `since`, the id of a record
 * after which to count (ids only grow: `requests list` shows them).
 */

/** How many matching requests a wait waits for unless told. */
export const DEFAULT_WAIT_COUNT = 1;
/** The most a wait can wait for (and print). */
export const MAX_WAIT_COUNT = 1000;
/** How long a wait waits unless told (ms). */
export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;
/** The longest a wait can be asked to wait (ms): a day. */
export const MAX_WAIT_TIMEOUT_MS = 86_400_000;

/** The list's filters, without a limit, and `since`. */
export type RequestCountInput = Omit<RequestFilters, 'limit'> & {
  /** Only requests logged after the request of this id. */
  since?: string;
};

export interface RequestWaitInput extends RequestCountInput {
  /** How many matching requests to wait for (default 1). */
  count?: number;
  /** How long to wait at most, in ms (default 10,000). */
  timeoutMs?: number;
}

/** What a wait found: whether `count` reached `wanted` in time, and the requests it counted. */
export const RequestWaitResultSchema = z.object({
  done: z
    .boolean()
    .describe('true: `wanted` matching requests were logged in time; false: the wait timed out'),
  wanted: z.number().int().describe('How many matching requests the wait waited for'),
  count: z.number().int().describe('How many matching requests it saw (at least `wanted` when done)'),
  records: z
    .array(RequestRecordSchema)
    .describe(
      'The matching requests, oldest first, at most `wanted`: the first ones after `since`, or the newest ones without it',
    ),
});
export type RequestWaitResult = z.infer<typeof RequestWaitResultSchema>;

/** A `since` id: a whole number of up to 16 digits (0: from the first request). */
export function parseSince(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const text = String(since).trim();
  if (!/^\d{1,16}$/.test(text)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid since ${JSON.stringify(since)}: must be a request id (a whole number, as requests list shows)`,
      { details: { field: 'since', value: since } },
    );
  }
  return Number(text);
}

/** The filters of a count checked and normalised (the list's rules), `since` as `after`. */
export function parseCountFilters(input: RequestCountInput): RequestStatsFilters {
  const { since, ...filters } = input;
  const { limit: _limit, ...parsed } = parseRequestFilters(filters);
  const after = parseSince(since);
  return after === undefined ? parsed : { ...parsed, after };
}

/** A wait's count and timeout checked, with their defaults. */
export function parseWaitBounds(input: RequestWaitInput): { wanted: number; timeoutMs: number } {
  return {
    wanted:
      input.count === undefined ? DEFAULT_WAIT_COUNT : wholeNumber(input.count, 'count', 1, MAX_WAIT_COUNT),
    timeoutMs:
      input.timeoutMs === undefined
        ? DEFAULT_WAIT_TIMEOUT_MS
        : wholeNumber(input.timeoutMs, 'timeout', 0, MAX_WAIT_TIMEOUT_MS, ' of milliseconds'),
  };
}
