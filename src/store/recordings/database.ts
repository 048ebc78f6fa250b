import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MockdevError } from '../../core/errors.js';
import type { Recording } from '../../core/model/recording.js';
import { ioError } from '../fs/json-file.js';
import { PRIVATE_DIR, preparePrivateFile } from '../fs/private.js';

/**
 * The recordings database: `<data>/recordings.db` beside the request log, SQLite in WAL mode,
 * shared by the servers that record and the CLI / MCP processes that read and delete. One row
 * per recording: its ids and time as columns, the rest as JSON. Ids are rowids, never reused.
 */
const SCHEMA_VERSION = 1;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS recordings (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id  TEXT    NOT NULL,
  endpoint_id TEXT    NOT NULL,
  ts          INTEGER NOT NULL,
  data        TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS recordings_endpoint ON recordings (endpoint_id, id);
CREATE INDEX IF NOT EXISTS recordings_project ON recordings (project_id);
`;

type Stored = Omit<Recording, 'id'>;

export class RecordingDatabase {
  private readonly db: Database.Database;
  private readonly insertStmt: Database.Statement;

  constructor(readonly file: string) {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR });
      preparePrivateFile(file); // SQLite gives its -wal and -shm files the database's mode
      this.db = new Database(file);
      this.db.pragma('busy_timeout = 5000');
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) {
        throw new MockdevError(
          'CORRUPT_FILE',
          `The recordings ${file} were written by a newer mockdev (schema ${version}; this one reads ${SCHEMA_VERSION})`,
          { hint: 'Upgrade mockdev, or move the file away to start new recordings' },
        );
      }
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA);
      if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    } catch (e) {
      if (e instanceof MockdevError) throw e;
      throw ioError(`Could not open the recordings ${file}`, e, file);
    }
    this.insertStmt = this.db.prepare(
      'INSERT INTO recordings (project_id, endpoint_id, ts, data) VALUES (?, ?, ?, ?)',
    );
  }

  /** Stores recordings in one transaction; their ids are the rowids given. */
  insert(batch: Stored[]): void {
    this.db.transaction(() => {
      for (const r of batch)
        this.insertStmt.run(r.projectId, r.endpointId, Date.parse(r.timestamp), JSON.stringify(r));
    })();
  }

  private toRecording(row: { id: number; data: string }): Recording {
    return { id: String(row.id), ...(JSON.parse(row.data) as Stored) };
  }

  list(endpointId: string, limit: number): Recording[] {
    const rows = this.db
      .prepare('SELECT id, data FROM recordings WHERE endpoint_id = ? ORDER BY id DESC LIMIT ?')
      .all(endpointId, limit) as { id: number; data: string }[];
    return rows.map((r) => this.toRecording(r));
  }

  get(id: string): Recording | undefined {
    if (!/^\d+$/.test(id)) return undefined;
    const row = this.db.prepare('SELECT id, data FROM recordings WHERE id = ?').get(Number(id)) as
      { id: number; data: string } | undefined;
    return row && this.toRecording(row);
  }

  delete(id: string): boolean {
    if (!/^\d+$/.test(id)) return false;
    return this.db.prepare('DELETE FROM recordings WHERE id = ?').run(Number(id)).changes > 0;
  }

  clearEndpoints(endpointIds: string[]): number {
    const stmt = this.db.prepare('DELETE FROM recordings WHERE endpoint_id = ?');
    return this.db.transaction(() => endpointIds.reduce((n, e) => n + stmt.run(e).changes, 0))();
  }

  clearProject(projectId: string): number {
    return this.db.prepare('DELETE FROM recordings WHERE project_id = ?').run(projectId).changes;
  }

  countByEndpoint(projectId: string): Record<string, number> {
    const rows = this.db
      .prepare(
        'SELECT endpoint_id AS e, COUNT(*) AS n FROM recordings WHERE project_id = ? GROUP BY endpoint_id',
      )
      .all(projectId) as { e: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.e, r.n]));
  }

  close(): void {
    this.db.close();
  }
}
