import type { FlowRun } from '../../core/model/flow.js';
import type { FlowRunStore, FlowRunWriter, FlowRunWriterOptions } from '../../core/ports.js';
import { ioCause } from '../../core/io-errors.js';
import { BatchWriter } from '../batch-writer.js';
import { storeFailure } from '../failure.js';
import type { RequestDatabase } from '../request-log/database.js';
import { FlowRunTable, toRunRow, type RunRow } from './table.js';

/** How long saves wait in memory before they are stored together (ms). */
const FLUSH_MS = 25;
/** Beyond this many runs waiting, new ones are lost, counted. */
const QUEUE_MAX = 10_000;

/**
 * The flow runs of one data directory, kept in the request log's database (table.ts) so that a
 * run's triggering request is found beside it and both follow one retention. The database, and
 * SQLite, are opened when first needed (through the request log): a starting server answers
 * before it loads them, and its writer opens them on its first flush.
 */
export class LocalFlowRuns implements FlowRunStore {
  private opened: { db: RequestDatabase; table: FlowRunTable } | undefined;

  /** `open`: the request log's database, opened on first use. */
  constructor(
    readonly file: string,
    private readonly open: () => Promise<RequestDatabase>,
  ) {}

  private async table(): Promise<{ db: RequestDatabase; table: FlowRunTable }> {
    const db = await this.open();
    if (this.opened?.db !== db) this.opened = { db, table: new FlowRunTable(db.connection) };
    return this.opened;
  }

  /**
   * Runs `fn` on the table, then resolves the request ids of the runs it gives (expanding the
   * request log's spool first, as its readers do); a failure of the disk is IO_ERROR naming the file.
   */
  private async read<T>(fn: (table: FlowRunTable) => T, runsOf: (result: T) => FlowRun[]): Promise<T> {
    const { db, table } = await this.table();
    try {
      const result = fn(table);
      const runs = runsOf(result);
      if (runs.some((r) => r.request !== null)) db.expand();
      table.resolveRequests(runs);
      return result;
    } catch (e) {
      throw storeFailure(`Could not read the flow runs in ${this.file}`, this.file, e);
    }
  }

  list(projectId: string, query: { flowId?: string; limit: number }): Promise<FlowRun[]> {
    return this.read(
      (t) => t.list(projectId, query.flowId, query.limit),
      (runs) => runs,
    );
  }

  get(id: string): Promise<FlowRun | undefined> {
    return this.read(
      (t) => t.get(id),
      (run) => (run ? [run] : []),
    );
  }

  since(cursor: string | undefined, limit: number): Promise<{ runs: FlowRun[]; cursor: string }> {
    return this.read(
      (t) => t.since(cursor, limit),
      (r) => r.runs,
    );
  }

  async clearProject(projectId: string): Promise<number> {
    const { table } = await this.table();
    try {
      return table.clearProject(projectId);
    } catch (e) {
      throw storeFailure(`Could not clear the flow runs in ${this.file}`, this.file, e);
    }
  }

  openWriter(options: FlowRunWriterOptions): FlowRunWriter {
    return new BatchFlowRunWriter(options, async () => (await this.table()).table, this.file);
  }

  /** The database is the request log's, closed with it. */
  close(): void {
    this.opened = undefined;
  }
}

/**
 * A server's writer: each saved run waits in a queue keyed by run id and is copied (as its JSON)
 * when the queue is stored, so the saves of one run between two flushes cost one copy and one
 * row (a run is saved three times or more within a millisecond: started, its callback made, its
 * step done); the queue is stored in one transaction on an unref'd timer, off the request path.
 */
class BatchFlowRunWriter extends BatchWriter implements FlowRunWriter {
  private readonly queue = new Map<string, FlowRun>();
  private failing = false;
  lost = 0;

  constructor(
    private readonly options: FlowRunWriterOptions,
    private readonly table: () => Promise<FlowRunTable>,
    private readonly file: string,
  ) {
    super(FLUSH_MS, true);
  }

  save(run: FlowRun): void {
    if (this.closed) return this.lose(1, `the run ${run.id} changed after the flow runs were closed`);
    if (this.queue.size >= QUEUE_MAX && !this.queue.has(run.id))
      return this.lose(1, `the run ${run.id} changed while too many were waiting to be stored`);
    // The last change goes last: since() gives runs in the order they last changed.
    this.queue.delete(run.id);
    this.queue.set(run.id, run);
    this.schedule();
  }

  /** The rows of the queued runs as they are now; a run that cannot be copied is lost, said so. */
  private rows(): RunRow[] {
    const rows: RunRow[] = [];
    for (const run of this.queue.values()) {
      try {
        rows.push(toRunRow(run));
      } catch (e) {
        this.lose(1, `the run ${String(run?.id)} could not be copied (${(e as Error)?.message})`);
      }
    }
    this.queue.clear();
    return rows;
  }

  private lose(n: number, why: string): void {
    this.lost += n;
    this.options.onWarning?.(`Lost ${n} flow run change${n === 1 ? '' : 's'}: ${why}`);
  }

  protected waiting(): number {
    return this.queue.size;
  }

  /** Stores the queue in one transaction; a batch that fails is lost (warned once per run of failures). */
  protected async drain(): Promise<void> {
    while (this.queue.size) {
      let batch: RunRow[] = [];
      try {
        const table = await this.table();
        batch = this.rows();
        table.save(batch, this.options.limit);
        this.failing = false;
      } catch (e) {
        const n = batch.length || this.queue.size;
        this.queue.clear();
        this.lost += n;
        if (!this.failing) {
          this.failing = true;
          this.options.onWarning?.(
            `Could not store flow runs in ${this.file} (${ioCause(e)}): ${n} change${n === 1 ? '' : 's'} lost`,
          );
        }
      }
    }
  }
}
