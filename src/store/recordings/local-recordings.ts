import type { Recording } from '../../core/model/recording.js';
import type {
  NewRecording,
  RecordingStore,
  RecordingWriter,
  RecordingWriterOptions,
} from '../../core/ports.js';
import { ioCause } from '../../core/io-errors.js';
import { BatchWriter } from '../batch-writer.js';
import { storeFailure } from '../failure.js';
import type { RecordingDatabase } from './database.js';

/** How long recordings wait in memory before a batch is stored (ms), and the most in one batch. */
const FLUSH_MS = 20;
const BATCH_MAX = 256;
/** Beyond this many waiting (a database that cannot be written), new recordings are lost, counted. */
const QUEUE_MAX = 10_000;

/**
 * The recordings of one data directory (SQLite, `recordings.db`; database.ts). SQLite is loaded
 * when first needed: a server that never records never loads it. A server's writer queues
 * exchanges in memory and stores them in batches on a timer, after their responses were sent:
 * recording costs the request path one array push.
 */
export class LocalRecordings implements RecordingStore {
  private database: Promise<RecordingDatabase> | undefined;
  private opened: RecordingDatabase | undefined;

  constructor(readonly file: string) {}

  private db(): Promise<RecordingDatabase> {
    return (this.database ??= import('./database.js').then(({ RecordingDatabase }) => {
      this.opened = new RecordingDatabase(this.file);
      return this.opened;
    })).catch((e: unknown) => {
      this.database = undefined;
      throw e;
    });
  }

  /** Runs `fn` on the database; a failure of the disk is IO_ERROR naming the file. */
  private async use<T>(fn: (db: RecordingDatabase) => T): Promise<T> {
    const db = await this.db();
    try {
      return fn(db);
    } catch (e) {
      throw storeFailure(`Could not update the recordings ${this.file}`, this.file, e);
    }
  }

  list(endpointId: string, options: { limit?: number } = {}): Promise<Recording[]> {
    return this.use((db) => db.list(endpointId, options.limit ?? -1));
  }

  get(id: string): Promise<Recording | undefined> {
    return this.use((db) => db.get(id));
  }

  delete(id: string): Promise<boolean> {
    return this.use((db) => db.delete(id));
  }

  clearEndpoints(endpointIds: string[]): Promise<number> {
    return this.use((db) => db.clearEndpoints(endpointIds));
  }

  clearProject(projectId: string): Promise<number> {
    return this.use((db) => db.clearProject(projectId));
  }

  countByEndpoint(projectId: string): Promise<Record<string, number>> {
    return this.use((db) => db.countByEndpoint(projectId));
  }

  openWriter(options: RecordingWriterOptions): RecordingWriter {
    return new BatchRecordingWriter(options, () => this.db(), this.file);
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
    this.database = undefined;
  }
}

class BatchRecordingWriter extends BatchWriter implements RecordingWriter {
  private queue: NewRecording[] = [];
  private failing = false;
  lost = 0;

  constructor(
    private readonly options: RecordingWriterOptions,
    private readonly db: () => Promise<RecordingDatabase>,
    private readonly file: string,
  ) {
    super(FLUSH_MS);
  }

  push(recording: NewRecording): void {
    if (this.closed || this.queue.length >= QUEUE_MAX) {
      this.lose(
        1,
        this.closed
          ? 'it was answered after the recordings were closed'
          : 'too many were waiting to be stored',
      );
      return;
    }
    this.queue.push(recording);
    this.schedule();
  }

  private lose(n: number, why: string): void {
    this.lost += n;
    this.options.onWarning?.(`Lost ${n} recording${n === 1 ? '' : 's'}: ${why}`);
  }

  protected waiting(): number {
    return this.queue.length;
  }

  protected async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.slice(0, BATCH_MAX);
      try {
        // The conversion (and node:zlib, for proxied bodies) loads with SQLite, on first use.
        const [db, { toRecording }] = await Promise.all([this.db(), import('./convert.js')]);
        const { projectId, bodyLimitBytes } = this.options;
        db.insert(batch.map((r) => toRecording(r, projectId, bodyLimitBytes)));
        this.queue.splice(0, batch.length);
        this.failing = false;
      } catch (e) {
        if (!this.failing) {
          this.failing = true;
          this.options.onWarning?.(
            `Could not store recordings in ${this.file} (${ioCause(e)}); they are kept in memory and stored when it works again`,
          );
        }
        if (this.closed) {
          this.lose(this.queue.length, 'they could not be stored before the server stopped');
          this.queue = [];
        } else {
          this.schedule(200);
        }
        return;
      }
    }
  }
}
