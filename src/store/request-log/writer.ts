import type { NewRequestRecord, RequestLogWriter, RequestLogWriterOptions } from '../../core/ports.js';
import { ioCause } from '../../core/io-errors.js';
import { RecordBatch } from './frame.js';
import { SpoolWriter } from './spool.js';

type MaybePromise<T> = T | Promise<T>;

/** What a writer asks of the database, opened only when first needed (never before the first answer). */
export interface Expander {
  /** Expands the spool and prunes `project` (at most `maxPrune` rows); `more` when rows remain to prune. */
  expand(
    project: { id: string; limit: number },
    maxPrune: number,
  ): MaybePromise<{ more: boolean; damaged: number }>;
  /** Deletes stored responses no record refers to. */
  collectGarbage(): MaybePromise<unknown>;
}

export interface SpoolLogWriterOptions extends RequestLogWriterOptions {
  spoolDir: string;
  expander: Expander;
  /** While writes fail, records wait in memory up to this many bytes (default 64 MiB); beyond it they are lost, and said so. */
  maxHeldBytes?: number;
  /** Longest a record waits in memory before it is written (ms); 0: once per event-loop turn. */
  flushIntervalMs?: number;
  /** A batch of this many records is written at once, whatever the interval. */
  maxBatch?: number;
  /** A batch of this many bytes is written at once, whatever the interval. */
  maxBatchBytes?: number;
  /** The spool is expanded once no request arrived for this long (ms), and this long after start. */
  idleExpandMs?: number;
  /** Rows one idle expansion prunes at most: a pause stays short when the log is far over its limit. */
  maxPrunePerExpand?: number;
  /** Records per spool file (default: half the limit, at least 1,024). */
  rotateAfter?: number;
}

/** A failure in words: "the disk is full" rather than an errno. */
const message = (e: unknown): string => ioCause(e);

/**
 * A server's request log writer. Each record is serialised into the current batch as it arrives
 * (no object kept per record); every few milliseconds the batch is appended to this server's
 * spool file, off the request path and without SQLite. When the server has been idle for a
 * moment (and once shortly after it starts) the spool is expanded into the database and
 * retention applied; `close()` writes what is queued and expands everything, so a clean stop
 * loses nothing.
 */
export class SpoolLogWriter implements RequestLogWriter {
  private readonly batch = new RecordBatch();
  private readonly spool: SpoolWriter;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Records pushed so far (the idle check compares it between two ticks). */
  private pushed = 0;
  private pushedAtIdleCheck = -1;
  private closed = false;
  private readonly interval: number;
  private readonly maxBatch: number;
  private readonly maxBytes: number;
  private readonly idleMs: number;
  lost = 0;
  /** An idle expansion under way (close waits for it). */
  private expanding: Promise<void> | undefined;
  /** In a run of failed writes (warned once). */
  private failing = false;

  constructor(private readonly options: SpoolLogWriterOptions) {
    this.interval = options.flushIntervalMs ?? 5;
    this.maxBatch = options.maxBatch ?? 1024;
    this.maxBytes = options.maxBatchBytes ?? 256 * 1024;
    this.idleMs = options.idleExpandMs ?? 200;
    this.spool = new SpoolWriter(options.spoolDir, options.projectId, {
      rotateAfter: options.rotateAfter ?? Math.max(Math.floor(options.limit / 2), 1024),
    });
    this.flushNow = this.flushNow.bind(this);
    this.retry = this.retry.bind(this);
    this.idleCheck = this.idleCheck.bind(this);
    // Housekeeping of the log (what earlier servers left, retention) waits for the first idle moment.
    this.armIdleCheck();
  }

  push(record: NewRequestRecord): void {
    if (this.closed) {
      this.lose(1, 'it was answered after the request log was closed');
      return;
    }
    const batch = this.batch;
    batch.add(record);
    this.pushed++;
    if (batch.count >= this.maxBatch || batch.bytes >= this.maxBytes) {
      if (!this.immediate) this.immediate = setImmediate(this.flushNow);
    } else if (!this.scheduled) {
      this.scheduled = true;
      if (this.interval > 0) this.timer = setTimeout(this.flushNow, this.interval);
      else this.immediate = setImmediate(this.flushNow);
    }
  }

  private retry(): void {
    this.retryTimer = undefined;
    this.flushNow();
  }

  /** Appends the batch to the spool now; on a failure keeps it and retries. */
  private flushNow(): boolean {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.scheduled = false;
    if (this.batch.count === 0) return true;
    try {
      this.spool.write(this.batch, this.options.limit);
      this.failing = false;
    } catch (e) {
      // The batch keeps its records; the next attempt writes them with whatever came since.
      if (!this.failing) {
        this.failing = true;
        this.warn(
          `Could not write the request log spool in ${this.options.spoolDir} (${message(e)}); records are kept in memory and written when it works again`,
        );
      }
      const held = this.options.maxHeldBytes ?? 64 * 1024 * 1024;
      if (this.batch.bytes > held) {
        const size = held >= 1024 * 1024 ? `${Math.round(held / 1024 / 1024)} MiB` : `${held} bytes`;
        this.dropBatch(`more than ${size} were waiting to be written`);
      }
      if (!this.closed && !this.retryTimer) this.retryTimer = setTimeout(this.retry, 200);
      return false;
    }
    if (!this.idleTimer && !this.closed) this.armIdleCheck();
    return true;
  }

  private armIdleCheck(delay = this.idleMs): void {
    this.pushedAtIdleCheck = this.pushed;
    this.idleTimer = setTimeout(this.idleCheck, delay);
    this.idleTimer.unref();
  }

  private idleCheck(): void {
    this.idleTimer = undefined;
    if (this.closed) return;
    if (this.pushed !== this.pushedAtIdleCheck || this.batch.count > 0) return this.armIdleCheck();
    this.expanding = this.expand(this.options.maxPrunePerExpand ?? 5000).then((more) => {
      this.expanding = undefined;
      // Far over the limit: prune on in short steps while the server stays idle.
      if (more && !this.closed && !this.idleTimer) this.armIdleCheck(10);
    });
  }

  private warn(text: string): void {
    this.options.onWarning?.(text);
  }

  private lose(n: number, why: string): void {
    this.lost += n;
    this.warn(`Lost ${n} request log record${n === 1 ? '' : 's'}: ${why}`);
  }

  private dropBatch(why: string): void {
    const n = this.batch.count;
    this.batch.reset();
    this.lose(n, why);
  }

  /** Expands the spool and prunes; resolves with whether pruning is left to do. Never rejects. */
  private async expand(maxPrune: number): Promise<boolean> {
    try {
      const { more, damaged } = await this.options.expander.expand(
        { id: this.options.projectId, limit: this.options.limit },
        maxPrune,
      );
      if (damaged) this.warn(`Dropped ${damaged} damaged request spool frame${damaged === 1 ? '' : 's'}`);
      return more;
    } catch (e) {
      this.warn(`Could not update the request log (${message(e)}); the next reader will`);
      return false;
    }
  }

  /**
   * Writes the batch, finishes the spool file and expands everything spooled. What cannot be
   * expanded stays spooled for the next reader; records that cannot be written are counted and
   * reported.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    for (let attempt = 0; attempt < 3 && !this.flushNow(); attempt++) {
      /* a failed write (a full disk) is tried again at once, a few times */
    }
    if (this.batch.count) this.dropBatch('they could not be written before the stop');
    try {
      this.spool.close();
    } catch (e) {
      this.warn(
        `Could not finish the request spool file in ${this.options.spoolDir} (${message(e)}); the next reader will`,
      );
    }
    await this.expanding;
    await this.expand(Infinity);
    try {
      await this.options.expander.collectGarbage();
    } catch {
      /* unreferenced responses are collected by a later stop */
    }
  }
}
