import { Worker } from 'node:worker_threads';

export interface WalCheckpointerOptions {
  /** How often the WAL is checkpointed (ms). */
  intervalMs?: number;
  /** Above this WAL size, a checkpoint also truncates the WAL (bytes). */
  truncateAboveBytes?: number;
}

/**
 * Checkpoints a SQLite WAL from a worker thread. The server's own connection turns automatic
 * checkpoints off (RequestLog option `autoCheckpoint: false`) and runs this instead.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped: Promise<void> | undefined;

  constructor(file: string, options: WalCheckpointerOptions = {}) {
    this.worker = new Worker(new URL('./wal-checkpoint-worker.js', import.meta.url), {
      workerData: {
        file,
        intervalMs: options.intervalMs ?? 100,
        truncateAboveBytes: options.truncateAboveBytes ?? 32 * 1024 * 1024,
      },
      // It only runs a pragma now and then: a small heap keeps the server's memory down.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    this.worker.on('error', () => undefined); // checkpointing is best effort; SQLite stays consistent
    this.worker.unref();
  }

  /** Runs a last checkpoint and ends the thread. */
  stop(): Promise<void> {
    return (this.stopped ??= new Promise<void>((resolve) => {
      const done = () => resolve();
      this.worker.once('message', () => void this.worker.terminate().then(done, done));
      this.worker.once('exit', done);
      this.worker.postMessage('stop');
    }));
  }
}
