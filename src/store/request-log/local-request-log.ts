import { basename, dirname, join } from 'node:path';
import type { ParsedRequestFilters, RequestRecord, RequestSummary } from '../../core/model/request.js';
import type { RequestLogStore, RequestLogWriter, RequestLogWriterOptions } from '../../core/ports.js';
import type { RequestDatabase } from './database.js';
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

  /** The database, opened on first use. */
  private db(): Promise<RequestDatabase> {
    return (this.database ??= import('./database.js').then(({ RequestDatabase }) => {
      this.opened = new RequestDatabase(this.file, this.spoolDir);
      return this.opened;
    })).catch((e: unknown) => {
      this.database = undefined; // a later call tries again
      throw e;
    });
  }

  /** The database with everything spooled so far expanded: what every read sees. */
  private async fresh(): Promise<RequestDatabase> {
    const db = await this.db();
    db.expand();
    return db;
  }

  async list(projectId: string, filters: ParsedRequestFilters): Promise<RequestRecord[]> {
    return (await this.fresh()).list(projectId, filters);
  }

  async get(id: string): Promise<RequestRecord | undefined> {
    return (await this.fresh()).get(id);
  }

  async setStarred(id: string, starred: boolean): Promise<RequestRecord | undefined> {
    return (await this.fresh()).setStarred(id, starred);
  }

  async deleteIds(ids: string[]): Promise<{ deleted: string[]; missing: string[] }> {
    return (await this.fresh()).deleteIds(ids);
  }

  async clear(projectId: string): Promise<number> {
    return (await this.fresh()).clear(projectId);
  }

  async since(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ records: RequestSummary[]; cursor: string }> {
    return (await this.fresh()).since(cursor, limit);
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
