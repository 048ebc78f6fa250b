/**
 * The request log's one retention rule: a project keeps its newest `limit` records; the oldest
 * unstarred go first, and starred ones only when they alone exceed the limit. It is applied
 * where records are stored: to rows when spooled frames are expanded (database.ts, in SQL), and
 * to whole spool files by the server that wrote them (spool.ts), so that a busy server's spool
 * stays bounded while nobody reads it. Spooled records are never starred.
 */

/**
 * Given units of records newest first (their record counts), the index of the first unit that
 * can go whole: every unit from there on is older than `limit` newer records.
 */
export function droppable(countsNewestFirst: number[], limit: number): number {
  let newer = 0;
  for (let i = 0; i < countsNewestFirst.length; i++) {
    if (newer >= limit) return i;
    newer += countsNewestFirst[i]!;
  }
  return countsNewestFirst.length;
}
