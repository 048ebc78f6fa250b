import type Database from 'better-sqlite3';
import type { FlowRun } from '../../core/model/flow.js';

/**
 * The `flow_runs` table of the request log's database (request-log/schema.ts): one row per run,
 * its JSON as saved last plus the columns the queries need. A save replaces the row whole, with
 * a new `seq` (AUTOINCREMENT: never reused, not even after deletes), so `since` sees each change
 * once, in order. A run's `requestId` is resolved when read, from the `requests` rows beside it.
 */

/** A run as a writer queues it: its JSON and the columns it is stored under. */
export interface RunRow {
  id: string;
  projectId: string;
  flowId: string;
  /** ms since the epoch */
  startedAt: number;
  data: string;
}

/** A run's row: its JSON taken at save, with the columns it is stored under. */
export function toRunRow(run: FlowRun): RunRow {
  const startedAt = Date.parse(run.startedAt);
  return {
    id: run.id,
    projectId: run.projectId,
    flowId: run.flowId,
    startedAt: Number.isNaN(startedAt) ? 0 : startedAt,
    data: JSON.stringify(run),
  };
}

const NEWEST_FIRST = 'ORDER BY started_at DESC, seq DESC';

export class FlowRunTable {
  private readonly upsertStmt: Database.Statement;
  private readonly pruneStmt: Database.Statement;
  private readonly requestStmt: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // REPLACE deletes the earlier row of the id and inserts the new one under a new seq.
    this.upsertStmt = db.prepare(
      'INSERT OR REPLACE INTO flow_runs (id, project_id, flow_id, started_at, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.pruneStmt = db.prepare(
      `DELETE FROM flow_runs WHERE seq IN (SELECT seq FROM flow_runs WHERE project_id = ? ${NEWEST_FIRST} LIMIT -1 OFFSET ?)`,
    );
    this.requestStmt = db
      .prepare('SELECT MIN(id) FROM requests WHERE ts = ? AND project_id = ? AND method = ? AND target = ?')
      .pluck();
  }

  /**
   * Stores runs in one transaction, in order, each replacing the earlier save of its id; then
   * keeps the newest `limit` runs (by start) of each project they belong to.
   */
  save(rows: RunRow[], limit: number): void {
    this.db
      .transaction(() => {
        const projects = new Set<string>();
        for (const r of rows) {
          this.upsertStmt.run(r.id, r.projectId, r.flowId, r.startedAt, r.data);
          projects.add(r.projectId);
        }
        for (const projectId of projects) this.pruneStmt.run(projectId, limit);
      })
      .immediate();
  }

  list(projectId: string, flowId: string | undefined, limit: number): FlowRun[] {
    const rows = (
      flowId === undefined
        ? this.db
            .prepare(`SELECT data FROM flow_runs WHERE project_id = ? ${NEWEST_FIRST} LIMIT ?`)
            .pluck()
            .all(projectId, limit)
        : this.db
            .prepare(
              `SELECT data FROM flow_runs WHERE project_id = ? AND flow_id = ? ${NEWEST_FIRST} LIMIT ?`,
            )
            .pluck()
            .all(projectId, flowId, limit)
    ) as string[];
    return rows.map(parse);
  }

  get(id: string): FlowRun | undefined {
    const data = this.db.prepare('SELECT data FROM flow_runs WHERE id = ?').pluck().get(id) as
      string | undefined;
    return data === undefined ? undefined : parse(data);
  }

  /** Runs saved after the cursor (a seq), oldest change first; see FlowRunStore.since. */
  since(cursor: string | undefined, limit: number): { runs: FlowRun[]; cursor: string } {
    if (cursor === undefined) {
      const last = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'flow_runs'").pluck().get();
      return { runs: [], cursor: String(last ?? 0) };
    }
    const after = /^\d{1,16}$/.test(cursor) ? Number(cursor) : 0;
    const rows = this.db
      .prepare('SELECT seq, data FROM flow_runs WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(after, limit) as { seq: number; data: string }[];
    return {
      runs: rows.map((r) => parse(r.data)),
      cursor: String(rows.length ? rows.at(-1)!.seq : after),
    };
  }

  clearProject(projectId: string): number {
    return this.db.prepare('DELETE FROM flow_runs WHERE project_id = ?').run(projectId).changes;
  }

  /**
   * Sets each run's `requestId`: the request log record of its project with the run's request
   * time, method and target (the first logged, if several), or null when there is none (never
   * logged, or pruned since). The spool must have been expanded first.
   */
  resolveRequests(runs: FlowRun[]): void {
    for (const run of runs) {
      const r = run.request;
      const id =
        r === null ? null : (this.requestStmt.get(r.ts, run.projectId, r.method, r.url) as number | null);
      run.requestId = id === null ? null : String(id);
    }
  }
}

const parse = (data: string): FlowRun => JSON.parse(data) as FlowRun;
