import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MockdevError } from '../core/errors.js';
import type { ParsedRequestFilters, RequestRecord } from '../core/model/request.js';
import { ioError } from './json-file.js';

/**
 * The request log: one SQLite database (WAL mode) in the data directory, shared by the server
 * processes that write it and the CLI / MCP processes that read, star, delete and clear.
 *
 * Rows are stored close to the wire form so that writing them is cheap (a server writes tens
 * of thousands per second): the raw request target, raw header lines, bodies as BLOBs, and a
 * reference to the endpoint's response stored once. Nothing but the rowid is indexed: every
 * index costs each insert. They become the RequestRecord shape only when read.
 */

const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id  TEXT    NOT NULL,
  endpoint_id TEXT,
  ts          INTEGER NOT NULL,
  method      TEXT    NOT NULL,
  target      TEXT    NOT NULL,
  headers     TEXT    NOT NULL,
  body        BLOB,
  status      INTEGER NOT NULL,
  duration_ms REAL    NOT NULL,
  starred     INTEGER NOT NULL DEFAULT 0,
  truncated   INTEGER NOT NULL DEFAULT 0,
  res_id      INTEGER,
  res_headers TEXT,
  res_body    BLOB
);
-- Responses shared by many records (an endpoint's compiled response), stored once.
CREATE TABLE IF NOT EXISTS responses (
  id      INTEGER PRIMARY KEY,
  headers TEXT NOT NULL,
  body    BLOB
);
-- Bumped by every deletion, per project: a writer that keeps a running count of its project's
-- records recounts when another process deleted some.
CREATE TABLE IF NOT EXISTS deletions (
  project_id TEXT PRIMARY KEY,
  version    INTEGER NOT NULL
);
`;

/** A record as the server hands it over: wire-level pieces, converted only when read. */
export interface NewRequestRecord {
  projectId: string;
  endpointId: string | null;
  /** ms since the epoch */
  ts: number;
  method: string;
  /** request target as received: path and query */
  url: string;
  /** node's req.rawHeaders: [name, value, name, value, ...] */
  rawHeaders: string[];
  body: Buffer | null;
  status: number;
  durationMs: number;
  truncated: boolean;
  /** JSON of the response headers object (precomputed per endpoint) */
  resHeadersJson: string;
  resBody: Buffer | string | null;
  /**
   * Set when the response is an endpoint's compiled response, the same object for every
   * request it answers: it is then stored once and records point at it.
   */
  shared?: SharedResponse;
}

/** A response stored once in the log and referenced by many records. */
export interface SharedResponse {
  headersJson: string;
  body: Buffer | null;
  /** Row id in the responses table, valid while `logGen` is the log's generation. */
  logId?: number;
  logGen?: number;
}

interface Row {
  id: number;
  project_id: string;
  endpoint_id: string | null;
  ts: number;
  method: string;
  target: string;
  headers: string;
  body: Buffer | null;
  status: number;
  duration_ms: number;
  starred: number;
  truncated: number;
  res_headers: string | null;
  res_body: Buffer | string | null;
}

const toText = (b: Buffer | string | null): string =>
  b === null ? '' : typeof b === 'string' ? b : b.toString('utf8');

/** `a=1&b=2&a=3` -> { a: ['1', '3'], b: '2' } */
export function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!query) return out;
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

/** Raw header pairs -> object keyed by the name as sent; repeated headers joined with ", ". */
export function headersObject(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!;
    out[k] = out[k] === undefined ? raw[i + 1]! : `${out[k]}, ${raw[i + 1]!}`;
  }
  return out;
}

/**
 * Raw headers are stored as their lines joined with "\n": names and values cannot contain a
 * line break (node refuses such requests), so this is lossless and cheaper than JSON.
 */
const encodeHeaders = (raw: string[]): string => raw.join('\n');
const decodeHeaders = (text: string): string[] => (text === '' ? [] : text.split('\n'));

function toRecord(row: Row): RequestRecord {
  let resHeaders: Record<string, string> = {};
  try {
    resHeaders = JSON.parse(row.res_headers ?? '{}') as Record<string, string>;
  } catch {
    /* a broken row keeps the rest readable */
  }
  const q = row.target.indexOf('?');
  return {
    id: String(row.id),
    projectId: row.project_id,
    endpointId: row.endpoint_id,
    timestamp: new Date(row.ts).toISOString(),
    method: row.method,
    path: q === -1 ? row.target : row.target.slice(0, q),
    query: parseQuery(q === -1 ? '' : row.target.slice(q + 1)),
    headers: headersObject(decodeHeaders(row.headers)),
    body: toText(row.body),
    status: row.status,
    durationMs: Math.round(row.duration_ms * 1000) / 1000,
    starred: row.starred === 1,
    truncated: row.truncated === 1,
    response: { status: row.status, headers: resHeaders, body: toText(row.res_body) },
  };
}

/** Request ids are the decimal row ids; anything else cannot exist. */
const toRowId = (id: string): number | undefined =>
  /^[1-9]\d{0,15}$/.test(id.trim()) ? Number(id.trim()) : undefined;

const INSERT_COLUMNS = 13;
/** Rows per INSERT statement, largest first; every batch is a sum of these. */
const INSERT_CHUNKS = [128, 32, 8, 1];

const SELECT_RECORD = `SELECT r.id, r.project_id, r.endpoint_id, r.ts, r.method, r.target, r.headers, r.body,
  r.status, r.duration_ms, r.starred, r.truncated,
  CASE WHEN r.res_id IS NULL THEN r.res_headers ELSE s.headers END AS res_headers,
  CASE WHEN r.res_id IS NULL THEN r.res_body ELSE s.body END AS res_body
  FROM requests r LEFT JOIN responses s ON s.id = r.res_id`;

function bindRecord(r: NewRequestRecord, args: unknown[], at: number, resId: number | null): void {
  args[at] = r.projectId;
  args[at + 1] = r.endpointId;
  args[at + 2] = r.ts;
  args[at + 3] = r.method;
  args[at + 4] = r.url;
  args[at + 5] = encodeHeaders(r.rawHeaders);
  args[at + 6] = r.body;
  args[at + 7] = r.status;
  args[at + 8] = r.durationMs;
  args[at + 9] = r.truncated ? 1 : 0;
  args[at + 10] = resId;
  args[at + 11] = resId === null ? r.resHeadersJson : null;
  args[at + 12] = resId === null ? r.resBody : null;
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
  private readonly insertMany: (records: NewRequestRecord[]) => void;
  private readonly dataVersionStmt: Database.Statement;
  private readonly insertResponseStmt: Database.Statement;
  private readonly deletionVersionStmt: Database.Statement;
  private readonly bumpStmt: Database.Statement;
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
      // which keeps batched inserts cheap.
      this.db.pragma('synchronous = NORMAL');
      if (options.autoCheckpoint === false) this.db.pragma('wal_autocheckpoint = 0');
      if (options.cacheKiB !== undefined)
        this.db.pragma(`cache_size = -${Math.max(64, Math.floor(options.cacheKiB))}`);
      this.migrate(file);
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
    this.insertMany = this.db.transaction((records: NewRequestRecord[]) => {
      // Multi-row INSERTs: one statement per chunk of rows costs far less than one per row.
      let i = 0;
      for (const size of INSERT_CHUNKS) {
        if (records.length - i < size) continue;
        const stmt = this.insertStatement(size);
        const args: unknown[] = new Array(size * INSERT_COLUMNS);
        while (records.length - i >= size) {
          for (let k = 0; k < size; k++) {
            const r = records[i + k]!;
            bindRecord(r, args, k * INSERT_COLUMNS, r.shared ? this.responseId(r.shared) : null);
          }
          stmt.run(args);
          i += size;
        }
      }
    });
    this.dataVersionStmt = this.db.prepare('PRAGMA data_version').pluck();
    this.insertResponseStmt = this.db.prepare('INSERT INTO responses (headers, body) VALUES (?, ?)');
    this.deletionVersionStmt = this.db.prepare('SELECT version FROM deletions WHERE project_id = ?').pluck();
    this.bumpStmt = this.db.prepare(
      'INSERT INTO deletions (project_id, version) VALUES (?, 1) ON CONFLICT (project_id) DO UPDATE SET version = version + 1',
    );
  }

  private migrate(file: string): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      this.db.close();
      throw new MockdevError(
        'UNSUPPORTED_VERSION',
        `${file} was written by a newer mockdev (schema ${version})`,
        {
          hint: 'Upgrade mockdev, or move the file away to start a new request log',
        },
      );
    }
    if (version === SCHEMA_VERSION) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const again = this.db.pragma('user_version', { simple: true }) as number;
      if (again < SCHEMA_VERSION) {
        // Schema 1 only existed in pre-release builds: its rows are not carried over.
        if (again === 1) this.db.exec('DROP TABLE IF EXISTS requests; DROP TABLE IF EXISTS responses;');
        this.db.exec(SCHEMA);
        this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  private insertStatement(rows: number): Database.Statement {
    let stmt = this.insertStmts.get(rows);
    if (!stmt) {
      const row = `(${new Array(INSERT_COLUMNS).fill('?').join(', ')})`;
      stmt = this.db.prepare(
        `INSERT INTO requests (project_id, endpoint_id, ts, method, target, headers, body, status, duration_ms,
           truncated, res_id, res_headers, res_body)
         VALUES ${new Array(rows).fill(row).join(', ')}`,
      );
      this.insertStmts.set(rows, stmt);
    }
    return stmt;
  }

  private responseId(shared: SharedResponse): number {
    if (shared.logGen !== this.generation || shared.logId === undefined) {
      shared.logId = Number(this.insertResponseStmt.run(shared.headersJson, shared.body).lastInsertRowid);
      shared.logGen = this.generation;
    }
    return shared.logId;
  }

  /** Forget cached shared-response ids (another process may have collected them). */
  newGeneration(): void {
    this.generation++;
  }

  /** Deletes responses no record refers to any more. */
  collectResponses(): number {
    return this.db
      .prepare('DELETE FROM responses WHERE id NOT IN (SELECT res_id FROM requests WHERE res_id IS NOT NULL)')
      .run().changes;
  }

  /** Inserts records in one transaction. */
  insert(records: NewRequestRecord[]): void {
    if (records.length) this.insertMany(records);
  }

  /** Changes whenever another connection commits to the database (SQLite's data_version). */
  dataVersion(): number {
    return this.dataVersionStmt.get() as number;
  }

  /** Changes whenever records of the project are deleted (by any process). */
  deletionVersion(projectId: string): number {
    return (this.deletionVersionStmt.get(projectId) as number | undefined) ?? 0;
  }

  count(projectId: string): number {
    return this.db
      .prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?')
      .pluck()
      .get(projectId) as number;
  }

  /**
   * Keeps at most `limit` records of a project: drops the oldest unstarred ones first. Starred
   * records are only dropped when they alone exceed the limit. Returns the number deleted.
   */
  prune(projectId: string, limit: number, knownCount?: number): number {
    const run = this.db.transaction(() => {
      const total = knownCount ?? this.count(projectId);
      const excess = total - limit;
      if (excess <= 0) return 0;
      const cutoff = this.db
        .prepare('SELECT id FROM requests WHERE project_id = ? AND starred = 0 ORDER BY id LIMIT 1 OFFSET ?')
        .pluck()
        .get(projectId, excess - 1) as number | undefined;
      let deleted = 0;
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
      if (deleted) this.bumpStmt.run(projectId);
      return deleted;
    });
    return run.immediate();
  }

  list(projectId: string, filters: ParsedRequestFilters): RequestRecord[] {
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
      const projectOf = this.db.prepare('SELECT project_id FROM requests WHERE id = ?').pluck();
      const projects = new Set<string>();
      const missing = ids.filter((id) => {
        const rowId = toRowId(id);
        const project = rowId === undefined ? undefined : (projectOf.get(rowId) as string | undefined);
        if (project !== undefined) projects.add(project);
        return project === undefined;
      });
      if (missing.length) return { deleted: [] as string[], missing };
      const del = this.db.prepare('DELETE FROM requests WHERE id = ?');
      const deleted: string[] = [];
      for (const id of ids) if (del.run(toRowId(id)!).changes) deleted.push(String(toRowId(id)));
      for (const p of projects) this.bumpStmt.run(p);
      return { deleted, missing: [] as string[] };
    });
    return run.immediate();
  }

  clear(projectId: string): number {
    const run = this.db.transaction(() => {
      const deleted = this.db.prepare('DELETE FROM requests WHERE project_id = ?').run(projectId).changes;
      this.bumpStmt.run(projectId);
      return deleted;
    });
    return run.immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
