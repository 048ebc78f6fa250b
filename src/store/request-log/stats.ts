import type Database from 'better-sqlite3';
import {
  LATENCY_EDGES_MS,
  LATENCY_PERCENTILES,
  percentileRank,
  STATUS_CLASS_NAMES,
  toRequestStats,
  type CountedStats,
  type RequestStats,
  type RequestStatsFilters,
  type StatsWindow,
} from '../../core/model/request-stats.js';
import { filterWhere } from './filter-sql.js';

/**
 * The request log's charts in SQL (RequestLogStore.stats; the rules are
 * core/model/request-stats.ts's): the records of a project in a window that pass the list's
 * filters, counted per time bucket and status class, per latency bin, and the durations at the
 * percentiles' ranks. Read in one snapshot, so the figures agree with each other.
 */

/** The latency bin of `r.duration_ms`: the index of the first edge above it (the edges' length: none). */
const BIN_OF = `CASE ${LATENCY_EDGES_MS.map((edge, i) => `WHEN r.duration_ms < ${edge} THEN ${i}`).join(' ')} ELSE ${LATENCY_EDGES_MS.length} END`;

export function requestStats(
  db: Database.Database,
  projectId: string,
  filters: RequestStatsFilters,
  window: StatsWindow,
): RequestStats {
  const filtered = filterWhere(projectId, filters);
  const where = `${filtered.where} AND r.ts >= ? AND r.ts < ?`;
  const args = [...filtered.args, window.from, window.to];
  const read = db.transaction((): CountedStats => {
    // One pass counts both: per bucket and class, and per latency bin.
    const groups = db
      .prepare(
        `SELECT CAST((r.ts - ?) / ? AS INTEGER) AS bucket, r.status / 100 AS cls, ${BIN_OF} AS bin, COUNT(*) AS count
         FROM requests r WHERE ${where} GROUP BY bucket, cls, bin`,
      )
      .all(window.from, window.bucketMs, ...args) as {
      bucket: number;
      cls: number;
      bin: number;
      count: number;
    }[];
    const buckets = new Map<string, CountedStats['buckets'][number]>();
    const bins = new Map<number, number>();
    let total = 0;
    for (const g of groups) {
      total += g.count;
      bins.set(g.bin, (bins.get(g.bin) ?? 0) + g.count);
      const statusClass = STATUS_CLASS_NAMES[g.cls - 2];
      if (statusClass === undefined) continue; // not a final status (200-599)
      const key = `${g.bucket} ${statusClass}`;
      const b = buckets.get(key) ?? { bucket: g.bucket, statusClass, count: 0 };
      b.count += g.count;
      buckets.set(key, b);
    }
    // One sort gives the three percentiles: the durations at their ranks.
    const ranks = LATENCY_PERCENTILES.map((p) => percentileRank(p, total));
    const atRank = new Map<number, number>();
    if (total > 0) {
      const rows = db
        .prepare(
          `SELECT rank, d FROM (SELECT r.duration_ms AS d, ROW_NUMBER() OVER (ORDER BY r.duration_ms) AS rank
           FROM requests r WHERE ${where}) WHERE rank IN (${ranks.map(() => '?').join(', ')})`,
        )
        .all(...args, ...ranks) as { rank: number; d: number }[];
      for (const row of rows) atRank.set(row.rank, row.d);
    }
    return {
      buckets: [...buckets.values()],
      bins: [...bins].map(([bin, count]) => ({ bin, count })),
      total,
      percentiles: total === 0 ? [] : ranks.map((rank) => atRank.get(rank)!),
    };
  });
  return toRequestStats(window, read.deferred());
}
