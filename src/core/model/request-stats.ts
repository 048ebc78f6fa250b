import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { TimestampSchema } from './fields.js';
import type { ParsedRequestFilters } from './request.js';

/**
 * What the request log's charts show (the web UI's request log, `GET …/requests/stats`): the
 * requests of the last minutes that pass the list's filters, per second by status class in
 * time buckets, and their latencies as a histogram with p50, p95 and p99. The request log store
 * computes them over the log (RequestLogStore.stats); this module holds the shape and the rules
 * every store follows (the window, the buckets, the latency bins, the percentile).
 */

/** The status classes counted; a final status is 200–599 (a 1xx is an interim answer). */
export const STATUS_CLASS_NAMES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClassName = (typeof STATUS_CLASS_NAMES)[number];

/** How many minutes back the charts look: from 1 to 24 hours' worth, 15 unless told. */
export const STATS_MINUTES_MIN = 1;
export const STATS_MINUTES_MAX = 1440;
export const DEFAULT_STATS_MINUTES = 15;
/** The window is cut into this many time buckets (so a bucket is `minutes` seconds long). */
export const STATS_BUCKETS = 60;

/**
 * The upper edges of the latency histogram's bins, in ms (1-2-5 steps): a bin holds the
 * durations from the edge before it (0 for the first) up to, not including, its own; the last
 * bin holds what is at or above 60 s. Only the bins from the first to the last that holds a
 * request are answered.
 */
export const LATENCY_EDGES_MS = [
  0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 60_000,
] as const;

/** The percentiles answered, nearest-rank: the smallest duration at least p% of the requests take. */
export const LATENCY_PERCENTILES = [50, 95, 99] as const;

/** The filters of the request list that the charts follow (all but the limit). */
export type RequestStatsFilters = Omit<ParsedRequestFilters, 'limit'>;

/** The time the charts cover, in ms since the epoch: [from, to), cut into buckets of bucketMs. */
export interface StatsWindow {
  from: number;
  to: number;
  bucketMs: number;
}

/**
 * The window of the last `minutes` at `now`: buckets aligned to the clock (a refresh moves the
 * window a whole bucket at a time, so a bucket's figure never shifts), the last one holding now
 * (and so still filling).
 */
export function statsWindow(now: number, minutes: number): StatsWindow {
  const bucketMs = (minutes * 60_000) / STATS_BUCKETS;
  const to = (Math.floor(now / bucketMs) + 1) * bucketMs;
  return { from: to - minutes * 60_000, to, bucketMs };
}

/** Checks the number of minutes the charts look back (INVALID_ARGUMENT naming the range). */
export function parseStatsMinutes(minutes: number | undefined): number {
  const m = minutes ?? DEFAULT_STATS_MINUTES;
  if (!Number.isInteger(m) || m < STATS_MINUTES_MIN || m > STATS_MINUTES_MAX) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid minutes ${JSON.stringify(minutes)}: must be a whole number from ${STATS_MINUTES_MIN} to ${STATS_MINUTES_MAX}`,
      { details: { field: 'minutes', value: minutes } },
    );
  }
  return m;
}

/** The 1-based rank of the p-th percentile among n sorted durations (nearest-rank). */
export const percentileRank = (p: number, n: number): number => Math.max(1, Math.ceil((p / 100) * n));

/** A duration as records give it: to the microsecond. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

const ClassFiguresSchema = z.object({
  '2xx': z.number(),
  '3xx': z.number(),
  '4xx': z.number(),
  '5xx': z.number(),
});
export type ClassFigures = z.infer<typeof ClassFiguresSchema>;

export const RequestStatsSchema = z.object({
  /** The window, [from, to): the last `minutes` up to the end of the bucket that holds now. */
  from: TimestampSchema,
  to: TimestampSchema,
  minutes: z.number().int(),
  bucketSeconds: z.number(),
  /** Requests in the window that pass the filters. */
  total: z.number().int(),
  /** One per bucket, oldest first: its start, the requests by status class, and per second. */
  rate: z.array(
    z.object({
      start: TimestampSchema,
      counts: ClassFiguresSchema,
      perSecond: ClassFiguresSchema,
    }),
  ),
  latency: z.object({
    count: z.number().int(),
    /** In ms; null when no request is in the window. */
    p50: z.number().nullable(),
    p95: z.number().nullable(),
    p99: z.number().nullable(),
    /** [fromMs, toMs) bins (toMs null: no upper edge), from the first to the last holding a request. */
    histogram: z.array(
      z.object({ fromMs: z.number(), toMs: z.number().nullable(), count: z.number().int() }),
    ),
  }),
});
export type RequestStats = z.infer<typeof RequestStatsSchema>;

/** What a store counts, in the window's terms; toRequestStats makes the answer of it. */
export interface CountedStats {
  /** bucket index (0 = the oldest) -> status class -> requests */
  buckets: { bucket: number; statusClass: StatusClassName; count: number }[];
  /** bin index into LATENCY_EDGES_MS (its length: the open last bin) -> requests */
  bins: { bin: number; count: number }[];
  /** Requests in the window that pass the filters, whatever their status. */
  total: number;
  /** The durations at the ranks of LATENCY_PERCENTILES, in that order (empty when total is 0). */
  percentiles: number[];
}

const zeroes = (): ClassFigures => ({ '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 });

/** The answer from what a store counted over `window`. */
export function toRequestStats(window: StatsWindow, counted: CountedStats): RequestStats {
  const n = Math.round((window.to - window.from) / window.bucketMs);
  const seconds = window.bucketMs / 1000;
  const rate = Array.from({ length: n }, (_, i) => ({
    start: new Date(window.from + i * window.bucketMs).toISOString(),
    counts: zeroes(),
    perSecond: zeroes(),
  }));
  for (const { bucket, statusClass, count } of counted.buckets) {
    const row = rate[bucket];
    if (!row) continue;
    row.counts[statusClass] += count;
    row.perSecond[statusClass] = Math.round((row.counts[statusClass] / seconds) * 1000) / 1000;
  }
  const bins = new Map(counted.bins.map((b) => [b.bin, b.count]));
  const used = [...bins.keys()].filter((b) => (bins.get(b) ?? 0) > 0);
  const histogram = [];
  if (used.length) {
    for (let b = Math.min(...used); b <= Math.max(...used); b++) {
      histogram.push({
        fromMs: b === 0 ? 0 : LATENCY_EDGES_MS[b - 1]!,
        toMs: LATENCY_EDGES_MS[b] ?? null,
        count: bins.get(b) ?? 0,
      });
    }
  }
  const [p50, p95, p99] = counted.percentiles.map(roundMs);
  return {
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    minutes: Math.round((window.to - window.from) / 60_000),
    bucketSeconds: seconds,
    total: counted.total,
    rate,
    latency: { count: counted.total, p50: p50 ?? null, p95: p95 ?? null, p99: p99 ?? null, histogram },
  };
}
