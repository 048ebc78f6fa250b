/**
 * Worker thread of WalCheckpointer: checkpoints the request log's WAL on its own connection,
 * so that copying pages into the database file and waiting for fsync never block the server's
 * event loop.
 */
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

interface Options {
  file: string;
  intervalMs: number;
  truncateAboveBytes: number;
}

const { file, intervalMs, truncateAboveBytes } = workerData as Options;

const db = new Database(file);
db.pragma('busy_timeout = 1000');
db.pragma('cache_size = -512'); // checkpoints copy pages through the OS, not this cache

const walBytes = (): number => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

const checkpoint = (mode: 'PASSIVE' | 'TRUNCATE'): void => {
  try {
    db.pragma(`wal_checkpoint(${mode})`);
  } catch {
    /* busy or locked: the next round tries again */
  }
};

const timer = setInterval(() => {
  // PASSIVE never waits for the writer. When writes never pause, the WAL cannot restart from
  // its beginning by itself: TRUNCATE (a short wait for the writer) keeps the file bounded.
  checkpoint(walBytes() > truncateAboveBytes ? 'TRUNCATE' : 'PASSIVE');
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort!.postMessage('stopped');
});
