import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import type { Subscription } from '../../core/ports.js';
import { PRIVATE_DIR } from '../fs/private.js';

/**
 * Being told when servers write to the request log (RequestLogStore.watchWrites). Every server,
 * of any process, appends its records to its files in the spool folder a few milliseconds after
 * answering (writer.ts): a watch of that folder (inotify, FSEvents, ReadDirectoryChangesW) hears
 * each append as it happens. A slow check backs it up (a watch can drop events when its queue
 * overflows); where the folder cannot be watched (some network file systems), a quick one
 * replaces it, in step with the writers' own batching.
 */

export interface SpoolWatchOptions {
  /** The backing check while the folder is watched (ms). */
  safetyMs?: number;
  /** The check when the folder cannot be watched (ms). */
  unwatchedMs?: number;
}

/** The backing check while the folder is watched: only for events a full watch queue dropped. */
export const SPOOL_SAFETY_CHECK_MS = 1000;
/** The check when the folder cannot be watched: as often as a writer writes under light load. */
export const SPOOL_UNWATCHED_CHECK_MS = 25;

export function watchSpool(
  dir: string,
  onWritten: () => void,
  options: SpoolWatchOptions = {},
): Subscription {
  let closed = false;
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tell = (): void => {
    if (!closed) onWritten();
  };
  const check = (everyMs: number): void => {
    if (timer) clearInterval(timer);
    timer = setInterval(tell, everyMs);
    timer.unref(); // the waiter's own deadline keeps its process alive
  };
  const unwatched = (): void => {
    watcher?.close();
    watcher = undefined;
    if (!closed) check(options.unwatchedMs ?? SPOOL_UNWATCHED_CHECK_MS);
  };
  try {
    // The folder exists before the first server writes, so that the watch hears its first file.
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    watcher = watch(dir, { persistent: false }, tell);
    watcher.on('error', () => {
      unwatched();
      tell(); // what the failing watch may have missed
    });
    check(options.safetyMs ?? SPOOL_SAFETY_CHECK_MS);
  } catch {
    unwatched();
  }
  return {
    close() {
      closed = true;
      watcher?.close();
      watcher = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
