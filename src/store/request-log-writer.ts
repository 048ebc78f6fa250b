import type { NewRequestRecord, RequestLog } from './request-log.js';

export interface RequestLogWriterOptions {
  projectId: string;
  /** Retention: records kept per project (oldest unstarred dropped first). */
  limit: number;
  /** Called with an error the writer could not handle (the batch is kept and retried). */
  onError?: (e: unknown) => void;
  /**
   * Longest a record waits in memory before it is written (ms). Larger batches cost less per
   * record; 0 writes once per event-loop turn.
   */
  flushIntervalMs?: number;
  /** A batch this large is written at once, whatever the interval. */
  maxBatch?: number;
  /**
   * Records beyond the limit are deleted once this many have piled up (one statement for many
   * rows), or `pruneDelayMs` after the limit was crossed, whichever comes first.
   */
  pruneChunk?: number;
  pruneDelayMs?: number;
}

/**
 * Queues records in memory and writes them in one transaction every few milliseconds, off the
 * request path. `close()` writes whatever is queued, so a clean stop loses nothing.
 */
export class RequestLogWriter {
  private queue: NewRequestRecord[] = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  /** Running count of the project's records (recounted when another process deleted some). */
  private count: number;
  private dataVersion: number;
  private deletionVersion: number;
  private closed = false;
  private readonly interval: number;
  private readonly maxBatch: number;
  private readonly pruneChunk: number;
  private readonly pruneDelay: number;
  /** Records written so far. */
  written = 0;

  constructor(
    private readonly log: RequestLog,
    private readonly options: RequestLogWriterOptions,
  ) {
    this.interval = options.flushIntervalMs ?? 5;
    this.maxBatch = options.maxBatch ?? 1024;
    this.pruneChunk = options.pruneChunk ?? 1024;
    this.pruneDelay = options.pruneDelayMs ?? 200;
    log.collectResponses();
    this.count = log.count(options.projectId);
    this.dataVersion = log.dataVersion();
    this.deletionVersion = log.deletionVersion(options.projectId);
    this.flushNow = this.flushNow.bind(this);
    this.retry = this.retry.bind(this);
    this.prune = this.prune.bind(this);
  }

  push(record: NewRequestRecord): void {
    const n = this.queue.push(record);
    if (this.closed) return;
    if (n >= this.maxBatch) {
      if (!this.immediate) this.immediate = setImmediate(this.flushNow);
    } else if (!this.scheduled) {
      this.scheduled = true;
      if (this.interval > 0) this.timer = setTimeout(this.flushNow, this.interval);
      else this.immediate = setImmediate(this.flushNow);
    }
  }

  get pending(): number {
    return this.queue.length;
  }

  private retry(): void {
    this.retryTimer = undefined;
    this.flushNow();
  }

  /** Writes the queue now; on a failure (e.g. the database is locked) keeps it and retries. */
  flushNow(): boolean {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.scheduled = false;
    if (this.queue.length === 0) return true;
    const batch = this.queue;
    this.queue = [];
    try {
      const version = this.log.dataVersion();
      if (version !== this.dataVersion) {
        // Another process committed: it may have removed unreferenced shared responses.
        this.dataVersion = version;
        this.log.newGeneration();
      }
      this.log.insert(batch);
      this.written += batch.length;
      this.count += batch.length;
      const excess = this.count - this.options.limit;
      if (excess >= this.pruneChunk) this.prune();
      else if (excess > 0 && !this.pruneTimer && !this.closed)
        this.pruneTimer = setTimeout(this.prune, this.pruneDelay);
      return true;
    } catch (e) {
      this.queue = batch.concat(this.queue);
      this.options.onError?.(e);
      if (!this.closed && !this.retryTimer) this.retryTimer = setTimeout(this.retry, 200);
      return false;
    }
  }

  private prune(): void {
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    this.pruneTimer = undefined;
    try {
      this.enforceRetention();
    } catch (e) {
      this.options.onError?.(e);
    }
  }

  private enforceRetention(exact = false): void {
    const { projectId, limit } = this.options;
    const deletions = this.log.deletionVersion(projectId);
    if (exact || deletions !== this.deletionVersion) {
      // Another process deleted records of this project (or we are stopping): count again.
      this.count = this.log.count(projectId);
    }
    if (this.count > limit) this.count -= this.log.prune(projectId, limit, this.count);
    this.deletionVersion = this.log.deletionVersion(projectId);
  }

  /** Writes everything queued (retrying a locked database a few times), then applies retention. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    this.pruneTimer = undefined;
    for (let attempt = 0; attempt < 5 && !this.flushNow(); attempt++) {
      /* busy_timeout already waited between attempts */
    }
    try {
      this.enforceRetention(true);
    } catch (e) {
      this.options.onError?.(e);
    }
  }
}
