/**
 * What a failed read or write of a file says to people: the cause in words ("the disk is full")
 * rather than an errno, and what to do about it. Stores report every failure of the disk as
 * IO_ERROR naming the file (docs/errors.md "Disk errors"; `ioFailure` in errors.ts), and
 * `toMockdevError` uses the same words
 * for an errno error nobody wrapped, so a full disk is never "a bug in mockdev".
 */

/** Operating-system error codes (errno) and SQLite result codes, in words. */
const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than this system allows (a file-size limit)',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EIO: 'the disk reported an input/output error',
  EMFILE: 'this process has too many files open',
  ENFILE: 'the system has too many files open',
  ENAMETOOLONG: 'the path is too long',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  ENOENT: 'it does not exist (or a folder on the way does not)',
  EBUSY: 'the file is busy',
  EXDEV: 'it is on another file system',
  ENXIO: 'no such device',
  SQLITE_FULL: 'the disk is full',
  SQLITE_READONLY: 'the database cannot be written (read-only file or folder)',
  SQLITE_PERM: 'permission denied',
  SQLITE_CANTOPEN: 'the database file cannot be opened',
  SQLITE_IOERR: 'the disk refused a read or write (a full disk, a file-size limit or an input/output error)',
  SQLITE_CORRUPT: 'the database file is damaged',
  SQLITE_NOTADB: 'the file is not a database',
};

const HINTS: Record<string, string> = {
  ENOSPC: 'Free some disk space and try again',
  SQLITE_FULL: 'Free some disk space and try again',
  EDQUOT: 'Free some space within your disk quota and try again',
  EFBIG: 'Raise the file-size limit (ulimit -f), or clear the request log (mockdev requests clear)',
  EROFS: 'Set MOCKDEV_DATA_DIR to a folder on a writable disk',
  SQLITE_READONLY:
    'Check the permissions of the file and its folder, or set MOCKDEV_DATA_DIR to a folder you can write',
  EACCES:
    'Check the permissions of the file and its folder, or set MOCKDEV_DATA_DIR to a folder you can write',
  EPERM:
    'Check the permissions of the file and its folder, or set MOCKDEV_DATA_DIR to a folder you can write',
  SQLITE_PERM: 'Check the permissions of the file and its folder',
  EMFILE: 'Close some programs (or raise ulimit -n) and try again',
  ENFILE: 'Close some programs and try again',
  SQLITE_IOERR: 'Free some disk space (or raise the file-size limit, ulimit -f) and try again',
  SQLITE_CORRUPT: 'Move the file away to start afresh',
  SQLITE_NOTADB: 'Move the file away to start afresh',
};

/** The error's code without SQLite's extended part: SQLITE_IOERR_WRITE -> SQLITE_IOERR. */
function baseCode(code: string): string {
  if (!code.startsWith('SQLITE_')) return code;
  const known = Object.keys(CAUSES).find((c) => code === c || code.startsWith(`${c}_`));
  return known ?? code;
}

const codeOf = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether an error is the disk's (an errno or a SQLite I/O code), not a bug. */
export function isDiskError(e: unknown): boolean {
  const code = codeOf(e);
  return code !== undefined && baseCode(code) in CAUSES;
}

/** The cause of a failed read or write in words: "the disk is full"; the error's own text when unknown. */
export function ioCause(e: unknown): string {
  const code = codeOf(e);
  if (code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'mkdir')
    return 'the folder above it does not exist, or takes no new folders';
  if (code !== undefined && baseCode(code) in CAUSES) return CAUSES[baseCode(code)]!;
  if (e instanceof Error && e.message) return e.message;
  return code ?? String(e);
}

/** What an IO_ERROR says: errors.ts makes the error of it (this module imports nothing). */
export interface IoFailure {
  message: string;
  hint?: string;
  details: Record<string, unknown>;
}

/**
 * A failed read or write: `<message>: <cause in words>` (the message names the file), a hint
 * when there is one, and `details: { file, cause }` (the file given, else the error's own path;
 * the errno) for JSON consumers.
 */
export function describeIoFailure(message: string, e: unknown, file?: string): IoFailure {
  const code = codeOf(e);
  const path = file ?? (e as { path?: unknown } | undefined)?.path;
  return {
    message: `${message}: ${ioCause(e)}`,
    hint: code === undefined ? undefined : HINTS[baseCode(code)],
    details: { ...(typeof path === 'string' ? { file: path } : {}), ...(code ? { cause: code } : {}) },
  };
}

/** An error of the disk nobody wrapped (naming its path, when it has one); undefined for any other. */
export function describeDiskError(e: unknown): IoFailure | undefined {
  if (!isDiskError(e)) return undefined;
  const err = e as { path?: unknown; syscall?: unknown };
  const file = typeof err.path === 'string' ? err.path : undefined;
  const call = typeof err.syscall === 'string' ? err.syscall : '';
  const verb = /read|stat|scandir|access/.test(call) ? 'read' : /open/.test(call) ? 'open' : 'write';
  return describeIoFailure(file ? `Could not ${verb} ${file}` : `A ${verb} on the disk failed`, e);
}
