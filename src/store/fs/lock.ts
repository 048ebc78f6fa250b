import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../../core/errors.js';
import { ioError } from './json-file.js';
import { isProcessAlive } from './process.js';
import { PRIVATE_FILE } from './private.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock older than this (ms) is taken as abandoned. */
  staleMs?: number;
}

interface LockRead {
  ino: number;
  mtimeMs: number;
  text: string;
}

/** The lock file's inode, time and content, read through one descriptor (so they belong together). */
export async function readLock(lockFile: string): Promise<LockRead | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(lockFile, 'r');
    const stat = await handle.stat();
    return { ino: stat.ino, mtimeMs: stat.mtimeMs, text: await handle.readFile('utf8') };
  } catch {
    return undefined; // gone meanwhile: the next attempt takes it
  } finally {
    await handle?.close();
  }
}

const isStale = (lock: LockRead, staleMs: number): boolean => {
  const [pidText, host] = lock.text.split('\n');
  const pid = Number(pidText);
  // A half-written lock (no pid yet) is its owner's: only age can make it stale.
  if (host === hostname() && Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) return true;
  return Date.now() - lock.mtimeMs > staleMs;
};

/**
 * Removes the lock file if it is still the stale one that was read. It is moved aside
 * first and checked: between the check and the move, its owner may have released it and
 * another process taken it; that lock is put back rather than lost. Two processes must never
 * both hold a lock because a third saw an old owner die.
 */
export async function removeStale(lockFile: string, stale: LockRead): Promise<void> {
  const aside = `${lockFile}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    await fs.rename(lockFile, aside);
  } catch {
    return; // gone already
  }
  try {
    const moved = await readLock(aside);
    // Inode numbers are reused: the same lock also has the same owner line and time.
    const same = moved?.ino === stale.ino && moved.mtimeMs === stale.mtimeMs && moved.text === stale.text;
    if (!same) await fs.link(aside, lockFile).catch(() => undefined);
  } finally {
    await fs.rm(aside, { force: true }).catch(() => undefined);
  }
}

/** Breaking a stale lock takes milliseconds: a breaker file older than this was left by a crash. */
const BREAKER_STALE_MS = 2_000;

/**
 * Removes the stale lock that was read, if it is still there, while holding the lock's breaker
 * file (`<lock>.break`, created with O_EXCL). Without it, a process that read the stale lock
 * a moment ago could move aside a fresh lock another process just took in its place, and a
 * third would then take the lock beside that holder. Under the breaker, the lock is read
 * again: only a stale lock is removed. Answers once the attempt is over; the caller retries.
 */
async function breakStale(lockFile: string, staleMs: number): Promise<void> {
  const breaker = `${lockFile}.break`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(breaker, 'wx', PRIVATE_FILE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(`Could not create lock ${breaker}`, e);
    const other = await readLock(breaker);
    if (other !== undefined && Date.now() - other.mtimeMs > BREAKER_STALE_MS)
      await removeStale(breaker, other);
    return; // another process is breaking it: retry the lock itself
  }
  let mine: number | undefined;
  try {
    await handle.writeFile(`${process.pid}\n${hostname()}\n`);
    mine = (await handle.stat()).ino;
    const held = await readLock(lockFile);
    if (held !== undefined && isStale(held, staleMs)) await removeStale(lockFile, held);
  } finally {
    await handle.close();
    const now = await fs.stat(breaker).catch(() => undefined);
    if (mine === undefined || now?.ino === mine) await fs.rm(breaker, { force: true }).catch(() => undefined);
  }
}

/**
 * Runs `fn` while holding an exclusive lock file (created with O_EXCL, so exactly one process
 * wins). A lock whose owner died, or that is older than `staleMs`, is removed (see
 * breakStale) and retaken.
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
  let mine: number;
  for (;;) {
    try {
      const handle = await fs.open(lockFile, 'wx', PRIVATE_FILE);
      try {
        await handle.writeFile(`${process.pid}\n${hostname()}\n`);
        mine = (await handle.stat()).ino;
      } catch (e) {
        await fs.rm(lockFile, { force: true }).catch(() => undefined); // ours, just made: never left half-written
        throw e;
      } finally {
        await handle.close();
      }
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw ioError(`Could not create lock ${lockFile}`, e);
      const held = await readLock(lockFile);
      if (held === undefined) continue;
      if (isStale(held, staleMs)) {
        await breakStale(lockFile, staleMs);
        await sleep(Math.random() * wait);
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
    // Release only our own lock: if it was taken over as stale, the file is another's now.
    const now = await fs.stat(lockFile).catch(() => undefined);
    if (now?.ino === mine) await fs.rm(lockFile, { force: true }).catch(() => undefined);
  }
}
