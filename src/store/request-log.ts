import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MockdevError } from '../core/errors.js';
import type { ParsedRequestFilters, RequestRecord } from '../core/model/request.js';
import { ioError } from './json-file.js';
import { BadBatchError, decodeBatch, PendingBatch } from './request-log-pending.js';
import { migrate } from './request-log-schema.js';
import {
  INSERT_COLUMN_NAMES,
  INSERT_COLUMNS,
  SELECT_RECORD,
  storedRow,
  toRecord,
  toRowId,
  type NewRequestRecord,
  type Row,
  type SharedResponse,
  type StoredRow,
} from './request-log-rows.js';

export { headersObject, parseQuery, type NewRequestRecord, type SharedResponse } from './request-log-rows.js';

/**
 * The request log: one SQLite database (WAL mode) in the data directory, shared by the server
 * processes that write it and the CLI / MCP processes that read, star, delete and clear.
 *
 * A server writes each batch of records as ONE row of `pending` (a compact serialisation, see
 * request-log-pending.ts): one bound value per batch instead of thirteen per record. Pending
 * batches become `requests` rows, and retention is applied, by `expand()`: every use case that
 * reads or changes records runs it first, and the server runs it when idle and when stopping.
 * Record ids are the `requests` rowids, assigned when a batch is expanded (batches in the order
 * they were written), so an id is known as soon as anyone can see the record.
 *
 * Rows are stored close to the wire form: the raw request target, raw header lines, bodies as
 * BLOBs, and a reference to the endpoint's response stored once. Nothing but the rowid is
 * indexed: every index costs each insert. They become the RequestRecord shape only when read.
 */

/** Rows per INSERT statement, largest first; every batch is a sum of these. */
const INSERT_CHUNKS = [128, 32, 8, 1];

interface PendingHead {
  id: number;
  project_id: string;
  n: number;
  keep: number;
}

export interface RequestLogOptions {
  /** How long a statement waits for another process's write lock (ms). */
  busyTimeoutMs?: number;
  /**
   * false: this connection never checkpoints the WAL itself (a WalCheckpointer does it off
   * the event loop). Default true (SQLite's automatic checkpoints).
   */
  autoCheckpoint?: boolean;
  /** Page cache of this connection (KiB). A writer that only appends needs little. */
  cacheKiB?: number;
}

export class RequestLog {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly insertStmts = new Map<number, Database.Statement>();
  private readonly insertRowsTx: (rows: StoredRow[]) => void;
  private readonly appendTx: Database.Transaction<
    (projectId: string, keep: number, batch: PendingBatch) => void
  >;
  private readonly expandTx: Database.Transaction<() => number>;
  private readonly dataVersionStmt: Database.Statement;
  private readonly insertResponseStmt: Database.Statement;
  private readonly appendStmt: Database.Statement;
  private readonly hasPendingStmt: Database.Statement;
  private dataVersion = 0;
  /** Pending batches dropped because they could not be decoded (damaged rows). */
  damagedBatches = 0;
  /**
   * Shared response ids are cached on the response objects for this generation; it changes
   * when another process commits (it may have removed unreferenced responses).
   */
  private generation = 1;

  constructor(file: string, options: RequestLogOptions = {}) {
    this.file = file;
    try {
      mkdirSync(dirname(file), { recursive: true });
      this.db = new Database(file);
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      this.db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a crash of this process; fsync happens at checkpoints,
      // which keeps batched writes cheap.
      this.db.pragma('synchronous = NORMAL');
      if (options.autoCheckpoint === false) this.db.pragma('wal_autocheckpoint = 0');
      if (options.cacheKiB !== undefined)
        this.db.pragma(`cache_size = -${Math.max(64, Math.floor(options.cacheKiB))}`);
      migrate(this.db, file);
    } catch (e) {
      if (e instanceof MockdevError) throw e;
      const err = e as Error & { code?: string };
      if (err.code && err.code.startsWith('SQLITE_')) {
        throw new MockdevError('IO_ERROR', `Could not open the request log ${file}: ${err.message}`, {
          hint:
            err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT'
              ? 'Move the file away to start a new request log'
              : undefined,
          cause: e,
        });
      }
      throw ioError(`Could not open the request log ${file}`, e);
    }
    this.insertRowsTx = this.db.transaction((rows: StoredRow[]) => this.insertRows(rows));
    this.dataVersionStmt = this.db.prepare('PRAGMA data_version').pluck();
    this.insertResponseStmt = this.db.prepare('INSERT INTO responses (headers, body) VALUES (?, ?)');
    this.appendStmt = this.db.prepare('INSERT INTO pending (project_id, n, keep, data) VALUES (?, ?, ?, ?)');
    this.hasPendingStmt = this.db.prepare('SELECT EXISTS (SELECT 1 FROM pending)').pluck();
    this.appendTx = this.db.transaction((projectId: string, keep: number, batch: PendingBatch) => {
      // Inside the write lock: if another process committed since our last write, it may have
      // removed unreferenced shared responses, so cached response ids are not trusted.
      const version = this.dataVersionStmt.get() as number;
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.generation++;
      }
      this.appendStmt.run(
        projectId,
        batch.count,
        keep,
        batch.seal((shared) => this.responseId(shared)),
      );
    });
    this.expandTx = this.db.transaction(() => this.expandPending());
  }

  private insertStatement(rows: number): Database.Statement {
    let stmt = this.insertStmts.get(rows);
    if (!stmt) {
      const row = `(${new Array(INSERT_COLUMNS).fill('?').join(', ')})`;
      stmt = this.db.prepare(
        `INSERT INTO requests (${INSERT_COLUMN_NAMES}) VALUES ${new Array(rows).fill(row).join(', ')}`,
      );
      this.insertStmts.set(rows, stmt);
    }
    return stmt;
  }

  /** Multi-row INSERTs: one statement per chunk of rows costs far less than one per row. */
  private insertRows(rows: StoredRow[]): void {
    let i = 0;
    for (const size of INSERT_CHUNKS) {
      if (rows.length - i < size) continue;
      const stmt = this.insertStatement(size);
      const args: unknown[] = new Array(size * INSERT_COLUMNS);
      while (rows.length - i >= size) {
        for (let k = 0; k < size; k++) {
          const row = rows[i + k]!;
          for (let c = 0; c < INSERT_COLUMNS; c++) args[k * INSERT_COLUMNS + c] = row[c];
        }
        stmt.run(args);
        i += size;
      }
    }
  }

  private responseId(shared: SharedResponse): number {
    if (shared.logGen !== this.generation || shared.logId === undefined) {
      shared.logId = Number(this.insertResponseStmt.run(shared.headersJson, shared.body).lastInsertRowid);
      shared.logGen = this.generation;
    }
    return shared.logId;
  }

  /** Deletes responses no record refers to any more (pending batches are expanded first). */
  collectResponses(): number {
    const run = this.db.transaction(() => {
      this.expandPending();
      return this.db
        .prepare(
          'DELETE FROM responses WHERE id NOT IN (SELECT res_id FROM requests WHERE res_id IS NOT NULL)',
        )
        .run().changes;
    });
    return run.immediate();
  }

  /** Inserts records straight into `requests`, in one transaction. */
  insert(records: NewRequestRecord[]): void {
    if (!records.length) return;
    this.insertRowsTx(records.map((r) => storedRow(r, r.shared ? this.responseId(r.shared) : null)));
  }

  /**
   * Writes a batch of one project's records as one pending row. `keep` is the project's
   * retention limit, applied when the batch is expanded. On success the batch is emptied; on
   * a failure it keeps its records (more may be added) and the error is thrown.
   */
  appendBatch(projectId: string, keep: number, batch: PendingBatch): void {
    if (!batch.count) return;
    try {
      this.appendTx.immediate(projectId, keep, batch);
    } catch (e) {
      batch.unseal();
      throw e;
    }
    batch.reset();
  }

  /** Writes records of one project as one pending batch (one row); see appendBatch. */
  append(projectId: string, keep: number, records: NewRequestRecord[]): void {
    const batch = new PendingBatch();
    for (const r of records) batch.add(r);
    this.appendBatch(projectId, keep, batch);
  }

  /**
   * Moves pending batches into `requests` and applies retention to the projects they belong
   * to, in one IMMEDIATE transaction. Returns the number of records inserted. Takes no write
   * lock when nothing is pending.
   */
  expand(): number {
    if (!this.hasPendingStmt.get()) return 0;
    return this.expandTx.immediate();
  }

  /**
   * Pending batches per project, newest first, until `keep` records are covered: older batches
   * would only be deleted again by retention (pending records are newer than any stored one).
   * Returns the batches still wanted and the retention limit in force per project.
   */
  private pendingPlan(): { heads: PendingHead[]; wanted: Set<number>; keep: Map<string, number> } {
    const heads = this.db
      .prepare('SELECT id, project_id, n, keep FROM pending ORDER BY id')
      .all() as PendingHead[];
    const keep = new Map<string, number>();
    const room = new Map<string, number>();
    const wanted = new Set<number>();
    for (let i = heads.length - 1; i >= 0; i--) {
      const h = heads[i]!;
      if (!keep.has(h.project_id)) keep.set(h.project_id, h.keep);
      const left = room.get(h.project_id) ?? h.keep;
      if (left > 0) wanted.add(h.id);
      room.set(h.project_id, left - h.n);
    }
    return { heads, wanted, keep };
  }

  private expandPending(): number {
    const { heads, wanted, keep } = this.pendingPlan();
    if (!heads.length) return 0;
    const dataOf = this.db.prepare('SELECT data FROM pending WHERE id = ?').pluck();
    let inserted = 0;
    for (const h of heads) {
      if (!wanted.has(h.id)) continue;
      let rows: StoredRow[];
      try {
        rows = decodeBatch(h.project_id, dataOf.get(h.id) as Buffer | string);
      } catch (e) {
        // A damaged batch cannot be read by anyone: it is dropped rather than blocking the log.
        if (e instanceof BadBatchError) {
          this.damagedBatches++;
          continue;
        }
        throw e;
      }
      this.insertRows(rows);
      inserted += rows.length;
    }
    this.db.prepare('DELETE FROM pending WHERE id <= ?').run(heads.at(-1)!.id);
    for (const [projectId, limit] of keep) this.pruneRows(projectId, limit);
    return inserted;
  }

  /**
   * Deletes the pending batches that retention would drop on expansion (without decoding
   * them): cheap enough to run under load, it bounds the pending table to about the limit.
   * Returns the number of records dropped.
   */
  trimPending(): number {
    const run = this.db.transaction(() => {
      const { heads, wanted } = this.pendingPlan();
      const drop = heads.filter((h) => !wanted.has(h.id));
      if (!drop.length) return 0;
      const del = this.db.prepare('DELETE FROM pending WHERE id = ?');
      let dropped = 0;
      for (const h of drop) dropped += del.run(h.id).changes ? h.n : 0;
      return dropped;
    });
    return run.immediate();
  }

  count(projectId: string): number {
    this.expand();
    return this.db
      .prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?')
      .pluck()
      .get(projectId) as number;
  }

  /** Records of all projects waiting in pending batches. */
  pendingCount(): number {
    return (this.db.prepare('SELECT COALESCE(SUM(n), 0) FROM pending').pluck().get() as number) ?? 0;
  }

  /**
   * Keeps at most `limit` records of a project: drops the oldest unstarred ones first. Starred
   * records are only dropped when they alone exceed the limit. Returns the number deleted.
   */
  prune(projectId: string, limit: number): number {
    this.expand();
    return this.db.transaction(() => this.pruneRows(projectId, limit)).immediate();
  }

  private pruneRows(projectId: string, limit: number): number {
    const total = this.db
      .prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?')
      .pluck()
      .get(projectId) as number;
    const excess = total - limit;
    if (excess <= 0) return 0;
    const cutoff = this.db
      .prepare('SELECT id FROM requests WHERE project_id = ? AND starred = 0 ORDER BY id LIMIT 1 OFFSET ?')
      .pluck()
      .get(projectId, excess - 1) as number | undefined;
    let deleted: number;
    if (cutoff !== undefined) {
      deleted = this.db
        .prepare('DELETE FROM requests WHERE id <= ? AND project_id = ? AND starred = 0')
        .run(cutoff, projectId).changes;
    } else {
      deleted = this.db
        .prepare('DELETE FROM requests WHERE project_id = ? AND starred = 0')
        .run(projectId).changes;
    }
    const left = excess - deleted;
    if (left > 0) {
      deleted += this.db
        .prepare(
          'DELETE FROM requests WHERE id IN (SELECT id FROM requests WHERE project_id = ? ORDER BY id LIMIT ?)',
        )
        .run(projectId, left).changes;
    }
    return deleted;
  }

  list(projectId: string, filters: ParsedRequestFilters): RequestRecord[] {
    this.expand();
    const where = ['r.project_id = ?'];
    const args: unknown[] = [projectId];
    if (filters.method) {
      where.push('r.method = ?');
      args.push(filters.method);
    }
    if (filters.starred !== undefined) {
      where.push('r.starred = ?');
      args.push(filters.starred ? 1 : 0);
    }
    if (filters.status && filters.status.length) {
      where.push(`(${filters.status.map(() => 'r.status BETWEEN ? AND ?').join(' OR ')})`);
      for (const r of filters.status) args.push(r.min, r.max);
    }
    args.push(filters.limit);
    const rows = this.db
      .prepare(`${SELECT_RECORD} WHERE ${where.join(' AND ')} ORDER BY r.id DESC LIMIT ?`)
      .all(...args) as Row[];
    return rows.map(toRecord);
  }

  get(id: string): RequestRecord | undefined {
    const rowId = toRowId(id);
    if (rowId === undefined) return undefined;
    this.expand();
    const row = this.db.prepare(`${SELECT_RECORD} WHERE r.id = ?`).get(rowId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  setStarred(id: string, starred: boolean): RequestRecord | undefined {
    const rowId = toRowId(id);
    if (rowId === undefined) return undefined;
    this.expand();
    const changed = this.db
      .prepare('UPDATE requests SET starred = ? WHERE id = ?')
      .run(starred ? 1 : 0, rowId).changes;
    return changed ? this.get(id) : undefined;
  }

  /** Deletes the given ids in one transaction; when any does not exist, deletes nothing. */
  deleteIds(ids: string[]): { deleted: string[]; missing: string[] } {
    this.expand();
    const run = this.db.transaction(() => {
      const exists = this.db.prepare('SELECT 1 FROM requests WHERE id = ?').pluck();
      const missing = ids.filter((id) => {
        const rowId = toRowId(id);
        return rowId === undefined || exists.get(rowId) === undefined;
      });
      if (missing.length) return { deleted: [] as string[], missing };
      const del = this.db.prepare('DELETE FROM requests WHERE id = ?');
      const deleted: string[] = [];
      for (const id of ids) if (del.run(toRowId(id)!).changes) deleted.push(String(toRowId(id)));
      return { deleted, missing: [] as string[] };
    });
    return run.immediate();
  }

  clear(projectId: string): number {
    this.expand();
    return this.db.prepare('DELETE FROM requests WHERE project_id = ?').run(projectId).changes;
  }

  /** Copies the WAL into the database and truncates it (waits for readers). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
