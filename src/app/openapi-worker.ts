/**
 * An OpenAPI import in a worker thread (`importOpenApi`'s `offThread`): reading, parsing,
 * resolving, checking and converting a large document takes seconds (a 1,500-operation
 * document: 2.6 s as JSON, 8.8 s as YAML), which on the caller's thread would stall every
 * server that thread runs. The worker opens the same stores on the same data directory (they
 * are safe across threads and processes: locks, atomic writes; the change feed tells the
 * caller's thread of the result), runs the import there and hands back its report, or its
 * error with code, message, details and a hint the caller's adapter words (core/wording-marks.ts).
 *
 * This one module is both sides: imported on the caller's thread it starts workers on itself;
 * started as a worker it runs the job it is given. The build makes it an entry of its own
 * (dist/cli/openapi-worker.js, scripts/build.mjs); from the sources, the worker loads it through
 * tsx as the tests do.
 */
import { randomUUID } from 'node:crypto';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { MockdevError, PLAIN_WORDING, toMockdevError } from '../core/errors.js';
import {
  errorFromData,
  errorToData,
  fillMarks,
  markedWording,
  type ErrorData,
} from '../core/wording-marks.js';
import {
  createContext,
  withReach,
  type AppContext,
  type LocalContext,
  type ProjectReach,
} from './context.js';
import {
  importOpenApi,
  type ImportInput,
  type ImportOptions,
  type ImportProgress,
  type ImportReport,
} from './openapi.js';

const TAG = 'mockdev-openapi-import';

/**
 * At most this many imports run at once (each holds its document, parsed, in a thread of its
 * own); others wait their turn. A worker is kept for the next import (loading the import's code
 * and its schema validators takes a thread 0.1-1 s) until it has been idle this long.
 */
const MAX_WORKERS = 2;
const IDLE_MS = 30_000;

interface Job {
  /** The key of the marks the worker words with (core/wording-marks.ts). */
  key: string;
  local: Pick<LocalContext, 'dataDir' | 'cwd' | 'env'>;
  reach: ProjectReach | undefined;
  input: ImportInput;
  options: Pick<ImportOptions, 'dataDirOnly' | 'lookup' | 'within'>;
  progress: boolean;
}

type Message =
  | { kind: 'progress'; progress: ImportProgress }
  | { kind: 'warning' | 'info'; message: string }
  | { kind: 'done'; report: ImportReport }
  | { kind: 'failed'; error: ErrorData };

/** A job and who waits for it. */
interface Pending {
  job: Job;
  /** A message of the worker running it (the last one is done or failed). */
  hear(m: Message): void;
  /** The worker died under it. */
  fail(e: MockdevError): void;
}

interface Slot {
  worker: Worker;
  running?: Pending;
  idle?: NodeJS.Timeout;
}

const slots = new Set<Slot>();
const queue: Pending[] = [];

/** The worker on this module: the built file as it is; the TypeScript source through tsx. */
function startWorker(): Worker {
  const self = new URL(import.meta.url);
  const workerData = { tag: TAG };
  if (!self.pathname.endsWith('.ts')) return new Worker(self, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(self.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

function startSlot(): Slot {
  const slot: Slot = { worker: startWorker() };
  slots.add(slot);
  slot.worker.on('message', (m: Message) => {
    const pending = slot.running;
    if (!pending) return;
    if (m.kind === 'done' || m.kind === 'failed') {
      slot.running = undefined;
      // Idle, it keeps no process alive, and ends after a while.
      slot.worker.unref();
      slot.idle = setTimeout(() => {
        slots.delete(slot);
        void slot.worker.terminate();
      }, IDLE_MS).unref();
    }
    pending.hear(m);
    dispatch();
  });
  const lost = (e: MockdevError) => {
    slots.delete(slot);
    clearTimeout(slot.idle);
    const pending = slot.running;
    slot.running = undefined;
    pending?.fail(e);
    dispatch();
  };
  slot.worker.on('error', (e) => lost(toMockdevError(e)));
  slot.worker.on('exit', (code) =>
    lost(toMockdevError(new Error(`the import's worker thread stopped (exit code ${code})`))),
  );
  return slot;
}

/** Hands waiting jobs to idle workers, starting workers up to MAX_WORKERS. */
function dispatch(): void {
  while (queue.length) {
    let slot = [...slots].find((s) => !s.running);
    if (!slot) {
      if (slots.size >= MAX_WORKERS) return;
      slot = startSlot();
    }
    const pending = queue.shift()!;
    clearTimeout(slot.idle);
    slot.running = pending;
    slot.worker.ref();
    slot.worker.postMessage(pending.job);
  }
}

/** Runs importOpenApi in a worker thread on the stores of `ctx` (which createContext made). */
export function importInWorker(
  ctx: AppContext,
  input: ImportInput,
  options: ImportOptions,
): Promise<ImportReport> {
  const local = ctx.local;
  if (!local) throw new Error('importInWorker needs a context of local stores (createContext)');
  const say = options.say ?? PLAIN_WORDING;
  const job: Job = {
    key: randomUUID(),
    local: { dataDir: local.dataDir, cwd: local.cwd, env: { ...local.env } },
    reach: ctx.reach,
    input,
    options: { dataDirOnly: options.dataDirOnly, lookup: options.lookup, within: options.within },
    progress: options.onProgress !== undefined,
  };
  return new Promise<ImportReport>((resolve, reject) => {
    queue.push({
      job,
      hear(m) {
        if (m.kind === 'progress') options.onProgress?.(m.progress);
        else if (m.kind === 'warning') local.onWarning?.(m.message);
        else if (m.kind === 'info') local.onInfo?.(m.message);
        else if (m.kind === 'done') resolve(fillMarks(m.report, job.key, say));
        else if (m.kind === 'failed') reject(errorFromData(m.error, job.key));
      },
      fail: reject,
    });
    dispatch();
  });
}

/** The worker's side: a job in, its report or its error out. */
async function runJob(job: Job): Promise<void> {
  const post = (m: Message) => parentPort!.postMessage(m);
  const ctx = withReach(
    createContext({
      ...job.local,
      onWarning: (message) => post({ kind: 'warning', message }),
      onInfo: (message) => post({ kind: 'info', message }),
    }),
    job.reach ?? {},
  );
  try {
    const report = await importOpenApi(ctx, job.input, {
      ...job.options,
      say: markedWording(job.key),
      onProgress: job.progress ? (progress) => post({ kind: 'progress', progress }) : undefined,
    });
    post({ kind: 'done', report });
  } catch (e) {
    post({ kind: 'failed', error: errorToData(toMockdevError(e), job.key) });
  } finally {
    ctx.close();
  }
}

if (!isMainThread && (workerData as { tag?: string } | undefined)?.tag === TAG) {
  parentPort!.on('message', (job: Job) => void runJob(job));
}
