import { MockdevError, ioFailure } from '../core/errors.js';
import { isDiskError } from '../core/io-errors.js';

/**
 * What a store throws when a read or write fails: a failure of the disk (full, read-only, no
 * permission, a file-size limit, an I/O error; errno or SQLite code) is IO_ERROR naming the file
 * and the cause in words (docs/errors.md "Disk errors"); a MockdevError stays as it is, and
 * anything else (a bug) is thrown on unchanged.
 */
export function storeFailure(message: string, file: string, e: unknown): unknown {
  if (e instanceof MockdevError || !isDiskError(e)) return e;
  return ioFailure(message, e, file);
}
