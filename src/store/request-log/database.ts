import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MockdevError } from '../../core/errors.js';
import type { ParsedRequestFilters, RequestRecord, RequestSummary } from '../../core/model/request.js';
import type { RequestStatsFilters } from '../../core/model/request-stats.js';
import { ioError } from '../fs/json-file.js';
import { filterWhere } from './filter-sql.js';
import { BadFrameError, decodeFrame, scanFrames, type DecodedFrame } from './frame.js';
import {
  INSERT_COLUMN_NAMES,
  INSERT_COLUMNS,
  SELECT_RECORD,
  toRecord,
  toRowId,
  type Row,
  type StoredRow,
} from './rows.js';
import { checkVersion, migrate } from './schema.js';
import { finishAbandoned, listSpool, readSpool, removeFile, type SpoolFile } from './spool.js';
import { PRIVATE_DIR, preparePrivateFile } from '../fs/private.js';

/**
 * The request log's database: one SQLite file (WAL mode) in the data directory, shared by the
 * servers that spool records and the CLI / MCP processes that read, star, delete and clear.
 *
 * `expand()` turns spooled frames (spool.ts) into `requests` rows and applies retention
 * (retention.ts); every read runs it first, and servers run it when idle and when stopping.
 * Files are read and decoded before the write lock is taken; inside the transaction only what
 * no other reader has consumed meanwhile is inserted. Record ids are the rowids, given in the
 * order frames were written. Rows are stored close to the wire form (raw target, raw header
 * lines, bodies as BLOBs, shared responses stored once) and become RequestRecords when read.
 */

/** Rows per INSERT statement, largest first; every batch is a sum of these. */
const INSERT_CHUNKS = [128, 32, 8, 1];

/** One spool file as an expansion read it, before taking the lock. */
interface FileRead {
  file: SpoolFile;
  projectId: string;
  keep: number;
  /** Decoded frames with their offsets in the file. */
  frames: { start: number; decoded: DecodedFrame }[];
  /** File offset just past the last whole frame read. */
  end: number;
  /** The file's size when read; finished files read to it are deleted. */
  size: number;
  /** Nothing more will be written to it (renamed `.spool`, or damaged past `end`). */
  finished: boolean;
}

export interface ExpandOptions {
  /** Also prune this project even when it had nothing spooled (a server's own project). */
  project?: { id: string; limit: number };
  /** Deletes at most this many rows per project (a server keeps its pauses short); `more` says if some remain. */
  maxPrune?: number;
}

export interface ExpandResult {
  inserted: number;
  /** Frames that could not be decoded and were dropped. */
  damaged: number;
  /** Retention left rows to prune (maxPrune reached): expand again. */
  more: boolean;
}

export interface RequestDatabaseOptions {
  /** How long a statement waits for another process's write lock (ms). */
  busyTimeoutMs?: number;
}

export class RequestDatabase {
  private readonly db: Database.Database;
  private readonly insertStmts = new Map<number, Database.Statement>();
  private readonly spoolOffsetsStmt: Database.Statement;
  private readonly responseIdStmt: Database.Statement;
  private readonly insertResponseStmt: Database.Statement;

  constructor(
    readonly file: string,
    readonly spoolDir: string,
    options: RequestDatabaseOptions = {},
  ) {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR });
      preparePrivateFile(file); // SQLite gives its -wal and -shm files the database's mode
      this.db = new Database(file);
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      checkVersion(this.db, file); // before anything writes to a file this mockdev cannot read
      this.db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a crash of this process; fsync happens at checkpoints.
      this.db.pragma('synchronous = NORMAL');
      migrate(this.db, file);
    } catch (e) {
      if (e instanceof MockdevError) throw e;
      throw ioError(`Could not open the request log ${file}`, e, file);
    }
    this.spoolOffsetsStmt = this.db.prepare('SELECT key, offset FROM spool');
    this.responseIdStmt = this.db.prepare('SELECT id FROM responses WHERE hash = ?').pluck();
    this.insertResponseStmt = this.db.prepare('INSERT INTO responses (hash, headers, body) VALUES (?, ?, ?)');
  }

  /** The open connection, for the tables kept beside the requests (flow runs: store/flow-runs). */
  get connection(): Database.Database {
    return this.db;
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

  /** The row of a shared response in `responses`: each distinct one is stored once. */
  private responseId(headersJson: string, body: Buffer | null): number {
    const hash = createHash('sha256')
      .update(headersJson)
      .update(body === null ? '\u0000' : '\u0001');
    if (body !== null) hash.update(body);
    const digest = hash.digest('base64');
    const found = this.responseIdStmt.get(digest) as number | undefined;
    if (found !== undefined) return found;
    return Number(this.insertResponseStmt.run(digest, headersJson, body).lastInsertRowid);
  }

  private spoolOffsets(): Map<string, number> {
    const rows = this.spoolOffsetsStmt.all() as { key: string; offset: number }[];
    return new Map(rows.map((r) => [r.key, r.offset]));
  }

  /** Reads and decodes what the spool holds beyond the recorded offsets (no lock held). */
  private readFrames(
    files: SpoolFile[],
    offsets: Map<string, number>,
  ): { reads: FileRead[]; damaged: number } {
    const reads: FileRead[] = [];
    let damaged = 0;
    for (const file of files) {
      const content = readSpool(file.path, offsets.get(file.key) ?? 0);
      if (content === null) continue; // deleted meanwhile, or not a spool file
      const scan = scanFrames(content.data, 0);
      const frames: FileRead['frames'] = [];
      for (const f of scan.frames) {
        try {
          frames.push({
            start: content.base + f.start,
            decoded: decodeFrame(content.header.projectId, content.data, f),
          });
        } catch (e) {
          if (!(e instanceof BadFrameError)) throw e;
          damaged++; // a damaged frame cannot be read by anyone: dropped rather than blocking the log
        }
      }
      if (scan.damaged) damaged++;
      // A finished file gets nothing more: a cut-off tail (a crash mid-write) or damage is skipped.
      const finished = file.finished || scan.damaged;
      reads.push({
        file,
        projectId: content.header.projectId,
        keep: scan.frames.at(-1)?.keep ?? 0,
        frames,
        end: finished ? content.size : content.base + scan.end,
        size: content.size,
        finished,
      });
    }
    return { reads, damaged };
  }

  /**
   * Moves spooled frames into `requests` and applies retention to the projects they belong to
   * (and to `options.project`), in one IMMEDIATE transaction; then deletes the finished spool
   * files read to their end. Takes no write lock when there is nothing to do.
   */
  expand(options: ExpandOptions = {}): ExpandResult {
    const files = finishAbandoned(listSpool(this.spoolDir));
    const before = this.spoolOffsets();
    const { reads, damaged } = this.readFrames(files, before);
    const present = new Set(files.map((f) => f.key));
    const work =
      options.project !== undefined ||
      reads.some((r) => r.frames.length > 0 || r.end > (before.get(r.file.key) ?? 0)) ||
      [...before.keys()].some((key) => !present.has(key));
    const removeRead = () => {
      for (const r of reads) if (r.finished && r.end >= r.size) removeFile(r.file.path);
    };
    if (!work) {
      removeRead();
      return { inserted: 0, damaged, more: false };
    }
    const run = this.db.transaction(() => {
      const offsets = this.spoolOffsets();
      const limits = new Map<string, number>();
      if (options.project) limits.set(options.project.id, options.project.limit);
      let inserted = 0;
      const setOffset = this.db.prepare(
        'INSERT INTO spool (key, offset) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET offset = excluded.offset',
      );
      for (const r of reads) {
        const consumed = offsets.get(r.file.key) ?? 0;
        for (const f of r.frames) {
          if (f.start < consumed) continue; // another reader expanded it meanwhile
          inserted += this.insertFrame(f.decoded);
        }
        if (r.frames.length) limits.set(r.projectId, r.keep);
        if (r.end > consumed) setOffset.run(r.file.key, r.end);
      }
      const dropOffset = this.db.prepare('DELETE FROM spool WHERE key = ?');
      for (const key of offsets.keys()) if (!present.has(key)) dropOffset.run(key);
      let more = false;
      for (const [projectId, limit] of limits)
        more = this.pruneRows(projectId, limit, options.maxPrune) || more;
      return { inserted, more };
    });
    const { inserted, more } = run.immediate();
    removeRead();
    return { inserted, damaged, more };
  }

  private insertFrame(frame: DecodedFrame): number {
    const ids = frame.slots.map((s) => this.responseId(s.headersJson, s.body));
    const rows = frame.rows;
    for (let i = 0; i < rows.length; i++) {
      const slot = frame.rowSlots[i]!;
      if (slot) rows[i]![10] = ids[slot - 1]!;
    }
    this.insertRows(rows);
    return rows.length;
  }

  /**
   * Applies the retention rule (retention.ts) to a project's rows, deleting at most `max`;
   * returns whether rows beyond the limit remain.
   */
  private pruneRows(projectId: string, limit: number, max = Infinity): boolean {
    const total = this.db
      .prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?')
      .pluck()
      .get(projectId) as number;
    const excess = total - limit;
    if (excess <= 0) return false;
    const n = Math.min(excess, max);
    let deleted = this.db
      .prepare(
        'DELETE FROM requests WHERE id IN (SELECT id FROM requests WHERE project_id = ? AND starred = 0 ORDER BY id LIMIT ?)',
      )
      .run(projectId, n).changes;
    if (deleted < n) {
      // Only starred records are left beyond the limit: they go too, oldest first.
      deleted += this.db
        .prepare(
          'DELETE FROM requests WHERE id IN (SELECT id FROM requests WHERE project_id = ? ORDER BY id LIMIT ?)',
        )
        .run(projectId, n - deleted).changes;
    }
    return excess - deleted > 0;
  }

  /** Deletes stored responses that no record refers to any more; returns how many. */
  collectGarbage(): number {
    return this.db
      .prepare('DELETE FROM responses WHERE id NOT IN (SELECT res_id FROM requests WHERE res_id IS NOT NULL)')
      .run().changes;
  }

  list(projectId: string, filters: ParsedRequestFilters): RequestRecord[] {
    const { where, args } = filterWhere(projectId, filters);
    args.push(filters.limit);
    const rows = this.db
      .prepare(
        `${SELECT_RECORD} WHERE ${where} ORDER BY r.id ${filters.oldestFirst ? 'ASC' : 'DESC'} LIMIT ?`,
      )
      .all(...args) as Row[];
    return rows.map(toRecord);
  }

  /** How many of a project's records pass the filters (RequestLogStore.count). */
  count(projectId: string, filters: RequestStatsFilters): number {
    const { where, args } = filterWhere(projectId, filters);
    return this.db
      .prepare(`SELECT COUNT(*) FROM requests r WHERE ${where}`)
      .pluck()
      .get(...args) as number;
  }

  get(id: string): RequestRecord | undefined {
    const rowId = toRowId(id);
    if (rowId === undefined) return undefined;
    const row = this.db.prepare(`${SELECT_RECORD} WHERE r.id = ?`).get(rowId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  setStarred(id: string, starred: boolean): RequestRecord | undefined {
    const rowId = toRowId(id);
    if (rowId === undefined) return undefined;
    const changed = this.db
      .prepare('UPDATE requests SET starred = ? WHERE id = ?')
      .run(starred ? 1 : 0, rowId).changes;
    return changed ? this.get(id) : undefined;
  }

  /** Deletes the given ids in one transaction; when any does not exist, deletes nothing. */
  deleteIds(ids: string[]): { deleted: string[]; missing: string[] } {
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
    return this.db.prepare('DELETE FROM requests WHERE project_id = ?').run(projectId).changes;
  }

  /** Records after the cursor (a row id), oldest first, in brief; see RequestLogStore.since. */
  since(cursor: string | undefined, limit: number): { records: RequestSummary[]; cursor: string } {
    if (cursor === undefined) {
      const last = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'requests'").pluck().get();
      return { records: [], cursor: String(last ?? 0) };
    }
    const after = /^\d{1,16}$/.test(cursor) ? Number(cursor) : 0;
    const rows = this.db
      .prepare(
        'SELECT id, project_id, endpoint_id, ts, method, target, status, duration_ms FROM requests WHERE id > ? ORDER BY id LIMIT ?',
      )
      .all(after, limit) as Pick<
      Row,
      'id' | 'project_id' | 'endpoint_id' | 'ts' | 'method' | 'target' | 'status' | 'duration_ms'
    >[];
    const records = rows.map((r) => {
      const q = r.target.indexOf('?');
      return {
        id: String(r.id),
        projectId: r.project_id,
        endpointId: r.endpoint_id,
        method: r.method,
        path: q === -1 ? r.target : r.target.slice(0, q),
        status: r.status,
        durationMs: Math.round(r.duration_ms * 1000) / 1000,
        timestamp: new Date(r.ts).toISOString(),
      };
    });
    return { records, cursor: records.length ? records.at(-1)!.id : String(after) };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
