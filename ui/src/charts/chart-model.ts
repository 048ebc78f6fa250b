import type { RequestStats } from '../types';

/**
 * The request log's charts as data (pure, unit-tested): the admin API's figures
 * (GET …/requests/stats) turned into what the charts draw and what their text says.
 */

export const CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type ClassName = (typeof CLASSES)[number];

/**
 * The rate chart's stacked bars: x is each bucket's middle in unix seconds; then, from the top
 * of the stack down, the requests per second of 2xx to 5xx together, 2xx to 4xx, 2xx to 3xx and
 * 2xx alone (the chart draws them in that order, each over the one before).
 */
export function stackedRateData(stats: RequestStats): [number[], ...number[][]] {
  const half = stats.bucketSeconds / 2;
  const upTo = (k: number) =>
    stats.rate.map(
      (b) => Math.round(CLASSES.slice(0, k + 1).reduce((n, c) => n + b.perSecond[c], 0) * 1000) / 1000,
    );
  return [stats.rate.map((b) => Date.parse(b.start) / 1000 + half), ...[3, 2, 1, 0].map(upTo)];
}

/** The classes of stackedRateData's series, in its order (top of the stack first). */
export const STACK_ORDER = ['5xx', '4xx', '3xx', '2xx'] as const;

/** The requests of each class over the window. */
export function classTotals(stats: RequestStats): Record<ClassName, number> {
  const totals = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  for (const b of stats.rate) for (const c of CLASSES) totals[c] += b.counts[c];
  return totals;
}

/** The busiest bucket's requests per second, all classes together. */
export function peakPerSecond(stats: RequestStats): number {
  let peak = 0;
  for (const b of stats.rate)
    peak = Math.max(
      peak,
      CLASSES.reduce((n, c) => n + b.perSecond[c], 0),
    );
  return Math.round(peak * 1000) / 1000;
}

/** A duration for people: 0.4 ms, 85 ms, 1.2 s. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  return ms < 10 ? `${ms.toFixed(ms < 1 ? 2 : 1).replace(/\.?0+$/, '') || '0'} ms` : `${Math.round(ms)} ms`;
}

/** An edge of a latency bin, as its axis says it (no unit: the axis is in ms). */
const edge = (ms: number): string => (ms >= 1000 ? `${ms / 1000}s` : String(ms));

/** A latency bin's label: `0.5–1`, `≥60s` for the last (open) one, `<0.1` for the first. */
export function binLabel(bin: { fromMs: number; toMs: number | null }): string {
  if (bin.toMs === null) return `≥${edge(bin.fromMs)}`;
  if (bin.fromMs === 0) return `<${edge(bin.toMs)}`;
  return `${edge(bin.fromMs)}–${edge(bin.toMs)}`;
}

/** x: the bins' indexes; y: their requests. */
export function histogramData(stats: RequestStats): [number[], number[]] {
  const h = stats.latency.histogram;
  return [h.map((_, i) => i), h.map((b) => b.count)];
}

/**
 * Where a duration falls on the histogram's axis, in bins: bin i spans i - 0.5 to i + 0.5, and a
 * duration is placed in its bin on a log scale (the bins' edges are 1-2-5 steps), linearly in a
 * bin that starts at 0 or has no end. undefined: outside the bins.
 */
export function percentileX(histogram: RequestStats['latency']['histogram'], ms: number): number | undefined {
  const i = histogram.findIndex((b) => ms >= b.fromMs && (b.toMs === null || ms < b.toMs));
  if (i === -1) return undefined;
  const { fromMs, toMs } = histogram[i]!;
  let frac: number;
  if (toMs === null) frac = 0.5;
  else if (fromMs === 0) frac = ms / toMs;
  else frac = Math.log(ms / fromMs) / Math.log(toMs / fromMs);
  return i - 0.5 + frac;
}

/** The percentiles the latency chart marks, with their values (only those known). */
export function percentileMarks(stats: RequestStats): { name: string; ms: number; x: number }[] {
  const marks = [];
  for (const name of ['p50', 'p95', 'p99'] as const) {
    const ms = stats.latency[name];
    if (ms === null) continue;
    const x = percentileX(stats.latency.histogram, ms);
    if (x !== undefined) marks.push({ name, ms, x });
  }
  return marks;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the rate chart shows, in words (its text alternative). */
export function rateSummary(stats: RequestStats): string {
  const totals = classTotals(stats);
  if (stats.total === 0) return `No requests in the past ${plural(stats.minutes, 'minute')}.`;
  const parts = CLASSES.filter((c) => totals[c] > 0).map((c) => `${totals[c]} ${c}`);
  return `${plural(stats.total, 'request')} in the past ${plural(stats.minutes, 'minute')} (${parts.join(', ')}); at most ${peakPerSecond(stats)} per second.`;
}

/** What the latency chart shows, in words (its text alternative). */
export function latencySummary(stats: RequestStats): string {
  const { p50, p95, p99, count } = stats.latency;
  if (p50 === null || p95 === null || p99 === null) return 'No latencies to show.';
  return `p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)} over ${plural(count, 'request')}.`;
}
