import { PendingBatch } from './request-log-pending.js';
import type { NewRequestRecord, RequestLog } from './request-log.js';
import { SpoolWriter } from './request-spool.js';

export interface RequestLogWriterOptions {
  projectId: string;
  /** Retention: records kept per project (oldest unstarred dropped first). */
  limit: number;
  /**
   * Told, in one line, what went wrong: a spool write that failed (once per run of failures;
   * the batch is kept and retried), records dropped, an expansion that failed.
   */
  onWarning?: (message: string) => void;
  /**
   * While writes fail, records wait in memory up to this many bytes (default 64 MiB); beyond
   * it they are dropped, and said so, rather than growing the server without bound.
   */
  maxHeldBytes?: number;
  /**
   * Longest a record waits in memory before it is written (ms). Larger batches cost less per
   * record; 0 writes once per event-loop turn.
   */
  flushIntervalMs?: number;
  /** A batch of this many records is written at once, whatever the interval. */
  maxBatch?: number;
  /** A batch of this many bytes is written at once, whatever the interval. */
  maxBatchBytes?: number;
  /** Pending batches are expanded once no request arrived for this long (ms). */
  idleExpandMs?: number;
  /**
   * Records per spool file: after this many, the file is finished, a new one started, and
   * finished files that retention would drop are deleted (no decoding), so the spool stays
   * about the size of the limit under load. Default: half the limit, at least 1,024.
   */
  trimAfter?: number;
}

/**
 * Serialises each record into the current batch as it arrives (no object is kept per record)
 * and appends the batch to this server's spool file every few milliseconds, off the request
 * path and without SQLite. Spooled batches are expanded into records (and retention applied)
 * when the server has been idle for a moment, by any reader, and by `close()`, which first
 * writes whatever is queued: a clean stop loses nothing. Under load, spool files that
 * retention would drop are deleted now and then without being decoded.
 */
export class RequestLogWriter {
  private readonly batch = new PendingBatch();
  private readonly spool: SpoolWriter;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Records pushed so far (the idle check compares it between two ticks). */
  private pushed = 0;
  private pushedAtIdleCheck = 0;
  /** Records written as pending batches since the last expansion by this writer. */
  private sinceExpand = 0;
  private closed = false;
  private readonly interval: number;
  private readonly maxBatch: number;
  private readonly maxBytes: number;
  private readonly idleMs: number;
  /** Records written so far. */
  written = 0;
  /** Records dropped because they could not be written. */
  dropped = 0;
  /** In a run of failed writes (warned once). */
  private failing = false;

  constructor(
    private readonly log: RequestLog,
    private readonly options: RequestLogWriterOptions,
  ) {
    this.interval = options.flushIntervalMs ?? 5;
    this.maxBatch = options.maxBatch ?? 1024;
    this.maxBytes = options.maxBatchBytes ?? 256 * 1024;
    this.idleMs = options.idleExpandMs ?? 200;
    this.spool = new SpoolWriter(log.spoolDir, options.projectId, {
      rotateAfter: options.trimAfter ?? Math.max(Math.floor(options.limit / 2), 1024),
    });
    // Start from a compact log: expand what is pending, drop unreferenced responses, and apply
    // this project's retention now rather than in a long pause under load; after a large
    // prune, the WAL is copied into the database and truncated now.
    const { expanded } = log.collectResponses();
    if (log.prune(options.projectId, options.limit) + expanded > 0) log.checkpoint();
    this.flushNow = this.flushNow.bind(this);
    this.retry = this.retry.bind(this);
    this.idleCheck = this.idleCheck.bind(this);
  }

  /** Adds a record to the current batch; the record object is not kept. */
  push(record: NewRequestRecord): void {
    const batch = this.batch;
    batch.add(record);
    this.pushed++;
    if (this.closed) return;
    if (batch.count >= this.maxBatch || batch.bytes >= this.maxBytes) {
      if (!this.immediate) this.immediate = setImmediate(this.flushNow);
    } else if (!this.scheduled) {
      this.scheduled = true;
      if (this.interval > 0) this.timer = setTimeout(this.flushNow, this.interval);
      else this.immediate = setImmediate(this.flushNow);
    }
  }

  /** Records not yet written. */
  get pending(): number {
    return this.batch.count;
  }

  private retry(): void {
    this.retryTimer = undefined;
    this.flushNow();
  }

  /** Appends the batch to the spool now; on a failure keeps it and retries. */
  flushNow(): boolean {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.scheduled = false;
    const n = this.batch.count;
    if (n === 0) return true;
    try {
      this.spool.write(this.batch, this.options.limit);
      this.written += n;
      this.sinceExpand += n;
      this.failing = false;
    } catch (e) {
      // The batch keeps its records; the next attempt writes them with whatever came since.
      if (!this.failing) {
        this.failing = true;
        this.warn(
          `Could not write the request log (${message(e)}); records are kept in memory and written when it works again`,
        );
      }
      const held = this.options.maxHeldBytes ?? 64 * 1024 * 1024;
      if (this.batch.bytes > held)
        this.drop(
          `more than ${held >= 1024 * 1024 ? `${Math.round(held / 1024 / 1024)} MiB` : `${held} bytes`} were waiting to be written`,
        );
      if (!this.closed && !this.retryTimer) this.retryTimer = setTimeout(this.retry, 200);
      return false;
    }
    if (!this.idleTimer && !this.closed) this.armIdleCheck();
    return true;
  }

  private armIdleCheck(): void {
    this.pushedAtIdleCheck = this.pushed;
    this.idleTimer = setTimeout(this.idleCheck, this.idleMs);
    this.idleTimer.unref();
  }

  private idleCheck(): void {
    this.idleTimer = undefined;
    if (this.closed || this.sinceExpand === 0) return;
    if (this.pushed === this.pushedAtIdleCheck && this.batch.count === 0) this.expand();
    else this.armIdleCheck();
  }

  private warn(text: string): void {
    this.options.onWarning?.(text);
  }

  /** Empties the batch, counting and reporting what was lost. */
  private drop(why: string): void {
    const n = this.batch.count;
    this.batch.reset();
    this.dropped += n;
    this.warn(`Dropped ${n} request log record${n === 1 ? '' : 's'}: ${why}`);
  }

  /** Expands pending batches (of every project) into records and applies retention. */
  expand(): boolean {
    try {
      this.log.expand();
      this.sinceExpand = 0;
      return true;
    } catch (e) {
      this.warn(`Could not update the request log (${message(e)}); the next reader will`);
      if (!this.closed && !this.idleTimer) this.armIdleCheck();
      return false;
    }
  }

  /**
   * Writes the batch, finishes the spool file and expands everything pending (retrying a
   * locked database a few times). What cannot be expanded stays spooled for the next reader.
   */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    for (let attempt = 0; attempt < 3 && !this.flushNow(); attempt++) {
      /* a failed write (a full disk) is tried again at once, a few times */
    }
    if (this.batch.count) this.drop('they could not be written before the stop');
    try {
      this.spool.close();
    } catch (e) {
      this.warn(`Could not finish the request spool file (${message(e)}); the next reader will`);
    }
    for (let attempt = 0; attempt < 5 && !this.expand(); attempt++) {
      /* busy_timeout already waited between attempts */
    }
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
