import type Database from 'better-sqlite3';
import type { ContractVerdict } from '../../core/model/contract.js';
import type { RequestRecord } from '../../core/model/request.js';
import { SELECT_RECORD, toRecord, toRowId, type Row } from './rows.js';

/**
 * What a live contract check reads and writes in the request log (docs/contract.md): the
 * records of a project logged after a cursor, whole, and the verdicts stored with them.
 */

/** A cursor as after() gives it (a row id); anything else reads from the start. */
const cursorRowId = (cursor: string): number => (/^\d{1,16}$/.test(cursor) ? Number(cursor) : 0);

/** The last row id given so far (ids are never reused: AUTOINCREMENT). */
const lastRowId = (db: Database.Database): number =>
  (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'requests'").pluck().get() as
    number | undefined) ?? 0;

/**
 * The project's records after `cursor`, oldest first, at most `limit`, and the cursor to pass
 * next. Without a cursor: none, and the cursor of now. Read in one snapshot, so when fewer than
 * `limit` came back the cursor moves past every row there is (other projects' rows are not
 * walked again next time).
 */
export function recordsAfter(
  db: Database.Database,
  projectId: string,
  cursor: string | undefined,
  limit: number,
): { records: RequestRecord[]; cursor: string } {
  const read = db.transaction(() => {
    if (cursor === undefined) return { records: [], cursor: String(lastRowId(db)) };
    const after = cursorRowId(cursor);
    const n = Math.max(0, Math.floor(limit));
    const rows = db
      .prepare(`${SELECT_RECORD} WHERE r.id > ? AND r.project_id = ? ORDER BY r.id LIMIT ?`)
      .all(after, projectId, n) as Row[];
    const next = rows.length < n ? Math.max(after, lastRowId(db)) : (rows.at(-1)?.id ?? after);
    return { records: rows.map(toRecord), cursor: String(next) };
  });
  return read.deferred();
}

/** Stores each verdict with its record, in one transaction; ids no longer logged are ignored. */
export function storeVerdicts(
  db: Database.Database,
  verdicts: { id: string; verdict: ContractVerdict }[],
): void {
  if (verdicts.length === 0) return;
  const update = db.prepare('UPDATE requests SET contract = ?, contract_ok = ? WHERE id = ?');
  db.transaction(() => {
    for (const { id, verdict } of verdicts) {
      const rowId = toRowId(id);
      if (rowId === undefined) continue;
      update.run(JSON.stringify(verdict), verdict.ok ? 1 : 0, rowId);
    }
  }).immediate();
}
