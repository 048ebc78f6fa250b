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
    const buckets = (
      db
        .prepare(
          `SELECT CAST((r.ts - ?) / ? AS INTEGER) AS bucket, r.status / 100 AS cls, COUNT(*) AS count FROM requests r
           WHERE ${where} AND r.status BETWEEN 200 AND 599 GROUP BY bucket, cls`,
        )
        .all(window.from, window.bucketMs, ...args) as { bucket: number; cls: number; count: number }[]
    ).map((b) => ({ bucket: b.bucket, statusClass: STATUS_CLASS_NAMES[b.cls - 2]!, count: b.count }));
    const bins = db
      .prepare(`SELECT ${BIN_OF} AS bin, COUNT(*) AS count FROM requests r WHERE ${where} GROUP BY bin`)
      .all(...args) as { bin: number; count: number }[];
    const total = bins.reduce((n, b) => n + b.count, 0);
    const at = db
      .prepare(`SELECT r.duration_ms FROM requests r WHERE ${where} ORDER BY r.duration_ms LIMIT 1 OFFSET ?`)
      .pluck();
    const percentiles =
      total === 0
        ? []
        : LATENCY_PERCENTILES.map((p) => at.get(...args, percentileRank(p, total) - 1) as number);
    return { buckets, bins, total, percentiles };
  });
  return toRequestStats(window, read.deferred());
}
