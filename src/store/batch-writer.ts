/**
 * What the stores' batched writers share (recordings, flow runs): what a server hands them waits
 * in memory and is stored on a timer, off the request path, one flush at a time; `close()`
 * stores what waits. A subclass holds the queue and says how to store it (`drain`).
 */
export abstract class BatchWriter {
  protected closed = false;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  /** `unref`: the timer does not keep the process alive (close() stores what waits). */
  constructor(
    private readonly flushMs: number,
    private readonly unref = false,
  ) {}

  /** How many items wait to be stored. */
  protected abstract waiting(): number;
  /** Stores what waits, until nothing does; never throws. */
  protected abstract drain(): Promise<void>;

  /** A flush in `ms` (the usual interval by default), unless one is already due. */
  protected schedule(ms = this.flushMs): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
    if (this.unref) this.timer.unref();
  }

  /**
   * Stores what waits; one run at a time (a call during a run shares it). The run is cleared in a
   * `finally` that runs after it was assigned, never before: a run over an empty queue that
   * cleared itself synchronously would leave a settled promise behind and stop every later flush.
   */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.waiting() === 0) return Promise.resolve();
    const run = this.drain().finally(() => {
      if (this.flushing === run) this.flushing = undefined;
    });
    this.flushing = run;
    return run;
  }

  /** Stores what waits; what is handed over after this is the subclass's to count as lost. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }
}
