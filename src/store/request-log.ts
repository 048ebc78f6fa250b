import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MockdevError } from '../core/errors.js';
import type { ParsedRequestFilters, RequestRecord } from '../core/model/request.js';
import { ioError } from './json-file.js';
import {
  BadBatchError,
  decodeFrame,
  decodeLegacy,
  scanFrames,
  type FrameRef,
  type ResponseIdOf,
} from './request-log-pending.js';
import {
  isFinished,
  listSpool,
  readSpool,
  removeFile,
  sizeOf,
  spoolDirOf,
  type SpoolFile,
} from './request-spool.js';
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
  type StoredRow,
} from './request-log-rows.js';

export { headersObject, parseQuery, type NewRequestRecord, type SharedResponse } from './request-log-rows.js';

/**
 * The request log: one SQLite database (WAL mode) in the data directory, shared by the server
 * processes that write it and the CLI / MCP processes that read, star, delete and clear.
 *
 * A server does not write SQLite while it answers: it appends batches of records to its spool
 * file (request-spool.ts, request-log-pending.ts). Spooled batches become `requests` rows, and
 * retention is applied, by `expand()`: every use case that reads or changes records runs it
 * first, and the server runs it when idle and when stopping. Record ids are the `requests`
 * rowids, assigned when a batch is expanded (batches in the order they were written), so an id
 * is known as soon as anyone can see the record. Rows of the `pending` table are batches
 * written by earlier versions; they are expanded first.
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

/** A spooled frame found by an expansion. */
interface SpooledFrame extends FrameRef {
  projectId: string;
  data: Buffer;
}

/** A spool file as one expansion read it. */
interface SpoolRead {
  file: SpoolFile;
  /** Offset of the first byte not consumed (a frame boundary). */
  end: number;
  /** Nothing after `end` can ever be read (damaged, or cut short by a writer that is gone). */
  finished: boolean;
  size: number;
}

export interface RequestLogOptions {
  /** How long a statement waits for another process's write lock (ms). */
  busyTimeoutMs?: number;
  /** Page cache of this connection (KiB). A writer that only appends needs little. */
  cacheKiB?: number;
}

export class RequestLog {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly insertStmts = new Map<number, Database.Statement>();
  private readonly insertRowsTx: (records: NewRequestRecord[]) => void;
  /** Where servers spool records before they become rows. */
  readonly spoolDir: string;
  private readonly expandTx: Database.Transaction<() => { inserted: number; reads: SpoolRead[] }>;
  private readonly insertResponseStmt: Database.Statement;
  private readonly hasPendingStmt: Database.Statement;
  private readonly spoolOffsetsStmt: Database.Statement;
  /** Batches dropped because they could not be decoded (damaged data). */
  damagedBatches = 0;

  constructor(file: string, options: RequestLogOptions = {}) {
    this.file = file;
    this.spoolDir = spoolDirOf(file);
    try {
      mkdirSync(dirname(file), { recursive: true });
      this.db = new Database(file);
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      this.db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a crash of this process; fsync happens at checkpoints,
      // which keeps batched writes cheap.
      this.db.pragma('synchronous = NORMAL');
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
    this.insertRowsTx = this.db.transaction((records: NewRequestRecord[]) => {
      const responseId = this.responseIds();
      this.insertRows(
        records.map((r) => storedRow(r, r.shared ? responseId(r.shared.headersJson, r.shared.body) : null)),
      );
    });
    this.insertResponseStmt = this.db.prepare('INSERT INTO responses (headers, body) VALUES (?, ?)');
    this.hasPendingStmt = this.db.prepare('SELECT EXISTS (SELECT 1 FROM pending)').pluck();
    this.spoolOffsetsStmt = this.db.prepare('SELECT key, offset FROM spool');
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

  /**
   * Stores responses as rows of `responses`, each distinct one once per call of the returned
   * function's owner (an expansion or an insert).
   */
  private responseIds(): ResponseIdOf {
    const seen = new Map<string, number>();
    return (headersJson, body) => {
      const key = `${headersJson}\u0000${body === null ? '\u0001' : body.toString('latin1')}`;
      let id = seen.get(key);
      if (id === undefined) {
        id = Number(this.insertResponseStmt.run(headersJson, body).lastInsertRowid);
        seen.set(key, id);
      }
      return id;
    };
  }

  /**
   * Deletes responses no record refers to any more (pending batches are expanded first).
   * Returns the records expanded and the responses deleted.
   */
  collectResponses(): { expanded: number; deleted: number } {
    const run = this.db.transaction(() => {
      const expanded = this.expandPending();
      const deleted = this.db
        .prepare(
          'DELETE FROM responses WHERE id NOT IN (SELECT res_id FROM requests WHERE res_id IS NOT NULL)',
        )
        .run().changes;
      return { expanded, deleted };
    });
    const { expanded, deleted } = run.immediate();
    this.cleanSpool(expanded.reads);
    return { expanded: expanded.inserted, deleted };
  }

  /** Inserts records straight into `requests`, in one transaction. */
  insert(records: NewRequestRecord[]): void {
    if (!records.length) return;
    this.insertRowsTx(records);
  }

  /**
   * Moves pending batches (spooled, and rows of earlier versions) into `requests` and applies
   * retention to the projects they belong to, in one IMMEDIATE transaction; then deletes the
   * spool files read to their end that nobody writes any more. Returns the number of records
   * inserted. Takes no write lock when nothing is pending.
   */
  expand(): number {
    if (!this.hasPendingStmt.get() && !this.spoolHasWork()) return 0;
    const { inserted, reads } = this.expandTx.immediate();
    this.cleanSpool(reads);
    return inserted;
  }

  /** Spool offsets recorded by expansions: file key -> first byte not consumed. */
  private spoolOffsets(): Map<string, number> {
    const rows = this.spoolOffsetsStmt.all() as { key: string; offset: number }[];
    return new Map(rows.map((r) => [r.key, r.offset]));
  }

  /** Whether a spool file has bytes not yet consumed, or a consumed file waits to be deleted. */
  private spoolHasWork(): boolean {
    const files = listSpool(this.spoolDir);
    if (!files.length) return false;
    const offsets = this.spoolOffsets();
    return files.some((f) => {
      const offset = offsets.get(f.key);
      if (offset === undefined || f.done || sizeOf(f.path) > offset) return true;
      // Read to its end: waits to be deleted once its writer is gone.
      const head = readSpool(f.path, 0, true);
      return head !== null && isFinished(f, head.header);
    });
  }

  /** Deletes spool files read to their end (as `reads` saw them) that nobody writes any more. */
  private cleanSpool(reads: SpoolRead[]): void {
    for (const r of reads) if (r.finished && r.end >= r.size) removeFile(r.file.path);
  }

  /**
   * The whole frames not yet expanded, in write order, and how far each spool file was read.
   * `present` holds every spool file's key (read or not).
   */
  private readSpoolFrames(offsets: Map<string, number>): {
    frames: SpooledFrame[];
    reads: SpoolRead[];
    present: Set<string>;
    damaged: number;
  } {
    const frames: SpooledFrame[] = [];
    const reads: SpoolRead[] = [];
    const present = new Set<string>();
    let damaged = 0;
    for (const file of listSpool(this.spoolDir)) {
      present.add(file.key);
      const content = readSpool(file.path, offsets.get(file.key) ?? 0);
      if (content === null) continue; // deleted meanwhile, or not (yet) a whole header
      const scan = scanFrames(content.data, 0);
      if (scan.damaged) damaged++;
      for (const f of scan.frames)
        frames.push({ ...f, projectId: content.header.projectId, data: content.data });
      const finished = scan.damaged || isFinished(file, content.header);
      reads.push({
        file,
        end: finished ? content.size : content.base + scan.end,
        finished,
        size: content.size,
      });
    }
    return { frames, reads, present, damaged };
  }

  private expandPending(): { inserted: number; reads: SpoolRead[] } {
    // Rows of earlier versions first (they are older), then the spool files in name order.
    const heads = this.db
      .prepare('SELECT id, project_id, n, keep FROM pending ORDER BY id')
      .all() as PendingHead[];
    const offsets = this.spoolOffsets();
    const { frames, reads, present, damaged } = this.readSpoolFrames(offsets);
    this.damagedBatches += damaged;
    // Retention plan: per project, newest first, until its limit is covered; older batches
    // would only be deleted again by retention (pending records are newer than stored ones).
    const items = [
      ...heads.map((h) => ({ projectId: h.project_id, n: h.n, keep: h.keep })),
      ...frames.map((f) => ({ projectId: f.projectId, n: f.count, keep: f.keep })),
    ];
    const keep = new Map<string, number>();
    const room = new Map<string, number>();
    const wanted = new Array<boolean>(items.length);
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i]!;
      if (!keep.has(it.projectId)) keep.set(it.projectId, it.keep);
      const left = room.get(it.projectId) ?? it.keep;
      wanted[i] = left > 0;
      room.set(it.projectId, left - it.n);
    }
    const responseId = this.responseIds();
    let inserted = 0;
    const insert = (decode: () => StoredRow[]) => {
      let rows: StoredRow[];
      try {
        rows = decode();
      } catch (e) {
        // A damaged batch cannot be read by anyone: it is dropped rather than blocking the log.
        if (!(e instanceof BadBatchError)) throw e;
        this.damagedBatches++;
        return;
      }
      this.insertRows(rows);
      inserted += rows.length;
    };
    if (heads.length) {
      const dataOf = this.db.prepare('SELECT data FROM pending WHERE id = ?').pluck();
      heads.forEach((h, i) => {
        if (wanted[i]) insert(() => decodeLegacy(h.project_id, dataOf.get(h.id)));
      });
      this.db.prepare('DELETE FROM pending WHERE id <= ?').run(heads.at(-1)!.id);
    }
    frames.forEach((f, i) => {
      if (wanted[heads.length + i]) insert(() => decodeFrame(f.projectId, f.data, f, responseId));
    });
    const setOffset = this.db.prepare(
      'INSERT INTO spool (key, offset) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET offset = excluded.offset',
    );
    for (const r of reads) setOffset.run(r.file.key, r.end);
    const dropOffset = this.db.prepare('DELETE FROM spool WHERE key = ?');
    for (const key of offsets.keys()) if (!present.has(key)) dropOffset.run(key);
    for (const [projectId, limit] of keep) this.pruneRows(projectId, limit);
    return { inserted, reads };
  }

  count(projectId: string): number {
    this.expand();
    return this.db
      .prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?')
      .pluck()
      .get(projectId) as number;
  }

  /** Records of all projects waiting in pending batches (spooled, or rows of earlier versions). */
  pendingCount(): number {
    const rows = (this.db.prepare('SELECT COALESCE(SUM(n), 0) FROM pending').pluck().get() as number) ?? 0;
    const { frames } = this.readSpoolFrames(this.spoolOffsets());
    return frames.reduce((n, f) => n + f.count, rows);
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
