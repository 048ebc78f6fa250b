import { basename, dirname, join } from 'node:path';
import type { ParsedRequestFilters, RequestRecord } from '../../core/model/request.js';
import type { RequestLogStore, RequestLogWriter, RequestLogWriterOptions } from '../../core/ports.js';
import { RequestDatabase } from './database.js';
import { SpoolLogWriter, type SpoolLogWriterOptions } from './writer.js';

/** The spool folder of a request log database: `requests.db` -> `requests-spool`. */
export const spoolDirOf = (dbFile: string): string =>
  join(dirname(dbFile), `${basename(dbFile).replace(/\.db$/, '')}-spool`);

/**
 * The request log of one data directory: servers spool records to files (writer.ts), every
 * reader expands them into the SQLite database first (database.ts). The database is opened when
 * first needed, so a starting server answers before it loads SQLite at all.
 */
export class LocalRequestLog implements RequestLogStore {
  private database: RequestDatabase | undefined;
  readonly spoolDir: string;

  constructor(
    readonly file: string,
    private readonly writerDefaults: Partial<SpoolLogWriterOptions> = {},
  ) {
    this.spoolDir = spoolDirOf(file);
  }

  /** The database, opened on first use. */
  private db(): RequestDatabase {
    return (this.database ??= new RequestDatabase(this.file, this.spoolDir));
  }

  /** The database with everything spooled so far expanded: what every read sees. */
  private fresh(): RequestDatabase {
    const db = this.db();
    db.expand();
    return db;
  }

  async list(projectId: string, filters: ParsedRequestFilters): Promise<RequestRecord[]> {
    return this.fresh().list(projectId, filters);
  }

  async get(id: string): Promise<RequestRecord | undefined> {
    return this.fresh().get(id);
  }

  async setStarred(id: string, starred: boolean): Promise<RequestRecord | undefined> {
    return this.fresh().setStarred(id, starred);
  }

  async deleteIds(ids: string[]): Promise<{ deleted: string[]; missing: string[] }> {
    return this.fresh().deleteIds(ids);
  }

  async clear(projectId: string): Promise<number> {
    return this.fresh().clear(projectId);
  }

  openWriter(options: RequestLogWriterOptions): RequestLogWriter {
    return new SpoolLogWriter({
      ...this.writerDefaults,
      ...options,
      spoolDir: this.spoolDir,
      expander: {
        expand: (project, maxPrune) => this.db().expand({ project, maxPrune }),
        collectGarbage: () => this.db().collectGarbage(),
      },
    });
  }

  close(): void {
    this.database?.close();
    this.database = undefined;
  }
}
