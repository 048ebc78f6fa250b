import { basename, dirname, join } from 'node:path';
import type { ContractVerdict } from '../../core/model/contract.js';
import type { ParsedRequestFilters, RequestRecord, RequestSummary } from '../../core/model/request.js';
import type { RequestStats, RequestStatsFilters, StatsWindow } from '../../core/model/request-stats.js';
import type {
  RequestLogStore,
  RequestLogWriter,
  RequestLogWriterOptions,
  Subscription,
} from '../../core/ports.js';
import type { RequestDatabase } from './database.js';
import { storeFailure } from '../failure.js';
import { watchSpool } from './spool-watch.js';
import { SpoolLogWriter } from './writer.js';

/** The spool folder of a request log database: `requests.db` -> `requests-spool`. */
export const spoolDirOf = (dbFile: string): string =>
  join(dirname(dbFile), `${basename(dbFile).replace(/\.db$/, '')}-spool`);

/**
 * The request log of one data directory: servers spool records to files (writer.ts), every
 * reader expands them into the SQLite database first (database.ts). The database, and SQLite
 * itself, are loaded when first needed, so a starting server answers before it loads SQLite.
 */
export class LocalRequestLog implements RequestLogStore {
  private database: Promise<RequestDatabase> | undefined;
  private opened: RequestDatabase | undefined;
  readonly spoolDir: string;

  constructor(readonly file: string) {
    this.spoolDir = spoolDirOf(file);
  }

  /** The database, opened on first use; the flow runs are kept in it too (store/flow-runs). */
  db(): Promise<RequestDatabase> {
    return (this.database ??= import('./database.js').then(({ RequestDatabase }) => {
      this.opened = new RequestDatabase(this.file, this.spoolDir);
      return this.opened;
    })).catch((e: unknown) => {
      this.database = undefined; // a later call tries again
      throw e;
    });
  }

  /**
   * Runs `fn` on the database with everything spooled so far expanded (what every read sees); a
   * failure of the disk is IO_ERROR naming the file.
   */
  private async fresh<T>(fn: (db: RequestDatabase) => T): Promise<T> {
    const db = await this.db();
    try {
      db.expand();
      return fn(db);
    } catch (e) {
      throw storeFailure(`Could not update the request log ${this.file}`, this.file, e);
    }
  }

  list(projectId: string, filters: ParsedRequestFilters): Promise<RequestRecord[]> {
    return this.fresh((db) => db.list(projectId, filters));
  }

  count(projectId: string, filters: RequestStatsFilters): Promise<number> {
    return this.fresh((db) => db.count(projectId, filters));
  }

  /** Hears each server's appends to the spool folder (spool-watch.ts). */
  watchWrites(onWritten: () => void): Subscription {
    return watchSpool(this.spoolDir, onWritten);
  }

  get(id: string): Promise<RequestRecord | undefined> {
    return this.fresh((db) => db.get(id));
  }

  setStarred(id: string, starred: boolean): Promise<RequestRecord | undefined> {
    return this.fresh((db) => db.setStarred(id, starred));
  }

  deleteIds(ids: string[]): Promise<{ deleted: string[]; missing: string[] }> {
    return this.fresh((db) => db.deleteIds(ids));
  }

  clear(projectId: string): Promise<number> {
    return this.fresh((db) => db.clear(projectId));
  }

  since(cursor: string | undefined, limit: number): Promise<{ records: RequestSummary[]; cursor: string }> {
    return this.fresh((db) => db.since(cursor, limit));
  }

  after(
    projectId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ records: RequestRecord[]; cursor: string }> {
    // Loaded with the database, when first needed (a server that checks nothing never loads it).
    return import('./verdicts.js').then(({ recordsAfter }) =>
      this.fresh((db) => recordsAfter(db.connection, projectId, cursor, limit)),
    );
  }

  stats(projectId: string, filters: RequestStatsFilters, window: StatsWindow): Promise<RequestStats> {
    // Loaded with the database, when first needed (only the charts ask).
    return import('./stats.js').then(({ requestStats }) =>
      this.fresh((db) => requestStats(db.connection, projectId, filters, window)),
    );
  }

  /** Stores verdicts without expanding first: the records they are for were read, so they are in. */
  async setContractVerdicts(verdicts: { id: string; verdict: ContractVerdict }[]): Promise<void> {
    if (verdicts.length === 0) return;
    const [db, { storeVerdicts }] = await Promise.all([this.db(), import('./verdicts.js')]);
    try {
      storeVerdicts(db.connection, verdicts);
    } catch (e) {
      throw storeFailure(`Could not update the request log ${this.file}`, this.file, e);
    }
  }

  openWriter(options: RequestLogWriterOptions): RequestLogWriter {
    return new SpoolLogWriter({
      ...options,
      spoolDir: this.spoolDir,
      expander: {
        expand: async (project, maxPrune) => (await this.db()).expand({ project, maxPrune }),
        collectGarbage: async () => void (await this.db()).collectGarbage(),
      },
    });
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
    this.database = undefined;
  }
}
