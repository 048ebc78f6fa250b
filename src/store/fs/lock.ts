import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../../core/errors.js';
import { ioError } from './json-file.js';
import { isProcessAlive } from './process.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock older than this (ms) is taken as abandoned. */
  staleMs?: number;
}

async function isStale(lockFile: string, staleMs: number): Promise<boolean> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(lockFile, 'utf8'), fs.stat(lockFile)]);
    const [pidText, host] = text.split('\n');
    const pid = Number(pidText);
    if (host === hostname() && Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) return true;
    return Date.now() - stat.mtimeMs > staleMs;
  } catch {
    // Gone between our attempt and this check, or half-written by its owner: retry.
    return false;
  }
}

/**
 * Runs `fn` while holding an exclusive lock file (created with O_EXCL, so exactly one process
 * wins). A lock whose owner died, or that is older than `staleMs`, is removed and retaken.
 */
export async function withLock<T>(
  lockFile: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  for (;;) {
    try {
      await fs.writeFile(lockFile, `${process.pid}\n${hostname()}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw ioError(`Could not create lock ${lockFile}`, e);
      if (await isStale(lockFile, staleMs)) {
        await fs.rm(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new MockdevError('LOCKED', `${lockFile} is held by another mockdev process`, {
          hint: 'Wait for the other command to finish and try again, or delete the lock file if no mockdev is running',
        });
      }
      await sleep(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 100);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockFile, { force: true }).catch(() => undefined);
  }
}
