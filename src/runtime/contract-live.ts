import type { CompiledContract } from '../core/contract/index.js';
import type { ContractVerdict, RequestResult } from '../core/model/contract.js';
import type { RequestLogStore } from '../core/ports.js';
import type { AfterResponse } from './pipeline.js';

/**
 * Live contract checking (`serve --contract`, docs/contract.md): each request the server logs is
 * checked against the contract and its verdict stored with its record, never on the request
 * path. Per request the server only counts (`afterResponse`); once no request arrived for a
 * moment (the log writer is idle then too) the new records are read from the log in batches
 * (RequestLogStore.after), checked with the compiled contract and their verdicts written back
 * (setContractVerdicts). A batch is all that is held in memory. Traffic arriving meanwhile
 * pauses the checking until the next idle moment; `stop()` (after the log writer closed) checks
 * whatever is left.
 */

export interface LiveContractOptions {
  log: Pick<RequestLogStore, 'after' | 'setContractVerdicts'>;
  projectId: string;
  /** No request for this long (ms) and the records are checked. Default 250. */
  idleMs?: number;
  /** Records read, checked and written at once. Default 100. */
  batch?: number;
  onWarning?: (message: string) => void;
}

/** Rounds that found none of the records counted before those are given up (pruned, or lost by the writer). */
const MAX_MISSES = 3;

/** What is stored with a record: its result without what the record already says. */
export function verdictOf(result: RequestResult): ContractVerdict {
  return {
    ok: result.outcome === 'passed',
    violations: result.violations,
    ...(result.notChecked !== undefined ? { notChecked: result.notChecked } : {}),
  };
}

export class LiveContractCheck {
  private contract: CompiledContract | undefined;
  /** Where the next read starts; taken when a contract comes into force (records before it are not checked). */
  private cursor: Promise<string | undefined> = Promise.resolve(undefined);
  private pushed = 0;
  private pushedAtArm = 0;
  /** Records counted and not yet seen checked. */
  private pending = 0;
  private misses = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private warned: string | undefined;
  private readonly idleMs: number;
  private readonly batch: number;
  /** The hook the server runs after each response: it counts, nothing more. */
  readonly afterResponse: AfterResponse;

  constructor(private readonly options: LiveContractOptions) {
    this.idleMs = options.idleMs ?? 250;
    this.batch = options.batch ?? 100;
    this.tick = this.tick.bind(this);
    this.afterResponse = () => {
      if (this.contract === undefined) return;
      this.pushed++;
      this.pending++;
      if (this.timer === undefined && this.running === undefined) this.arm();
    };
  }

  /** The contract in force now. */
  get current(): CompiledContract | undefined {
    return this.contract;
  }

  /**
   * Puts a contract in force (undefined: none, nothing is checked). From none to one, checking
   * starts with the records logged from now on; from one to none, what was logged while it was
   * in force is checked first. Resolves once done.
   */
  async use(contract: CompiledContract | undefined): Promise<void> {
    const before = this.contract;
    if (contract === before) return;
    if (contract === undefined) {
      await this.exclusive(() => this.checkNew(false));
      this.contract = undefined;
      return;
    }
    this.contract = contract;
    if (before !== undefined) return; // another document: goes on from the same record
    this.pending = 0;
    this.cursor = this.options.log.after(this.options.projectId, undefined, 0).then(
      (r) => r.cursor,
      (e: unknown) => {
        this.warn(e);
        return undefined;
      },
    );
    await this.cursor;
  }

  /** Runs `fn` after the checking under way, as the checking under way (one at a time). */
  private exclusive(fn: () => Promise<void>): Promise<void> {
    const run = (this.running ?? Promise.resolve()).then(fn);
    this.running = run;
    return run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
  }

  private arm(): void {
    this.pushedAtArm = this.pushed;
    this.timer = setTimeout(this.tick, this.idleMs);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    if (this.stopped) return;
    // Still busy (requests arriving, or checking under way): later.
    if (this.pushed !== this.pushedAtArm || this.running) return this.arm();
    void this.exclusive(() => this.checkNew(true)).then(() => {
      if (this.pending > 0 && !this.stopped && this.timer === undefined) this.arm();
    });
  }

  /**
   * Checks the records after the cursor, batch by batch, until none is left (or, `whileIdle`,
   * until requests arrive again). Never rejects: a failure is a warning, tried again later.
   */
  private async checkNew(whileIdle: boolean): Promise<void> {
    try {
      for (;;) {
        const contract = this.contract;
        const cursor = await this.cursor;
        if (contract === undefined || cursor === undefined) {
          this.pending = 0;
          return;
        }
        const pushedBefore = this.pushed;
        const { records, cursor: next } = await this.options.log.after(
          this.options.projectId,
          cursor,
          this.batch,
        );
        const verdicts: { id: string; verdict: ContractVerdict }[] = [];
        for (const record of records) {
          try {
            verdicts.push({ id: record.id, verdict: verdictOf(contract.check(record)) });
          } catch (e) {
            this.warn(e); // a record the engine cannot check stays unchecked
          }
        }
        await this.options.log.setContractVerdicts(verdicts);
        this.cursor = Promise.resolve(next);
        this.misses = records.length === 0 && this.pending > 0 ? this.misses + 1 : 0;
        this.pending = this.misses >= MAX_MISSES ? 0 : Math.max(0, this.pending - records.length);
        if (records.length < this.batch) return;
        if (whileIdle && (this.stopped || this.pushed !== pushedBefore)) return;
        await new Promise((r) => setImmediate(r)); // requests get in between batches
      }
    } catch (e) {
      this.warn(e);
    }
  }

  private warn(e: unknown): void {
    const message = `Could not check the request log against the contract: ${e instanceof Error ? e.message : String(e)}`;
    if (message === this.warned) return;
    this.warned = message;
    this.options.onWarning?.(message);
  }

  /**
   * Stops checking after checking what is left: call it once the log writer closed (everything
   * it wrote is in the log).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.exclusive(() => (this.contract !== undefined ? this.checkNew(false) : Promise.resolve()));
  }
}
