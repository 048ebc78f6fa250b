import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isSameProcessAlive, processStartTime } from '../fs/process.js';
import type { RecordBatch } from './frame.js';
import { droppable } from './retention.js';
import { PRIVATE_DIR, PRIVATE_FILE } from '../fs/private.js';

/**
 * The request spool: where a server puts the records it answers before they become rows of the
 * request log. Each server appends frames (frame.ts) to its own files in the spool folder next
 * to the database: one write() per batch, no SQLite on the request path. Readers expand the
 * frames into rows (database.ts), remembering how far they read each file.
 *
 * A file being written ends in `.open`. It is finished when it is renamed to `.spool`: by its
 * writer when it moves to a new file or stops, or by a reader when the writer's process is gone
 * (finishAbandoned). Finished files read to their end are deleted. A writer's file names sort in
 * the order it wrote them: `<writer's start time, base 36>-<pid>-<sequence in the process>`.
 */
const FILE_MAGIC = Buffer.from('MDSPOOL1');
/** Files started by this process: part of their names, so that names never repeat. */
let fileSeq = 0;
const OPEN = '.open';
const FINISHED = '.spool';

export interface SpoolHeader {
  projectId: string;
  pid: number;
  /** Start time of the writing process, where known (guards against a reused pid). */
  procStart?: string;
}

export interface SpoolFile {
  /** The name without its extension: stays the same when `.open` becomes `.spool`. */
  key: string;
  path: string;
  finished: boolean;
}

/** The spool's files, oldest first. */
export function listSpool(dir: string): SpoolFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: SpoolFile[] = [];
  for (const name of names) {
    const finished = name.endsWith(FINISHED);
    if (!finished && !name.endsWith(OPEN)) continue;
    files.push({ key: name.slice(0, name.lastIndexOf('.')), path: join(dir, name), finished });
  }
  return files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface SpoolContent {
  header: SpoolHeader;
  /** The file's bytes from `base` to its end as it was read. */
  data: Buffer;
  /** File offset of data[0]: where the frames start, or the offset asked for if later. */
  base: number;
  /** The file's size when it was read. */
  size: number;
}

const HEAD_BYTES = 4096;

/** Reads `length` bytes at `position` (fewer if the file is shorter). */
function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * Reads a spool file's header and its bytes from offset `from` on (none with `headerOnly`);
 * null when it is gone (deleted meanwhile) or not a spool file.
 */
export function readSpool(path: string, from = 0, headerOnly = false): SpoolContent | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    let head = readAt(fd, Math.min(size, HEAD_BYTES), 0);
    const lenAt = FILE_MAGIC.length;
    if (head.length < lenAt + 4 || !head.subarray(0, lenAt).equals(FILE_MAGIC)) return null;
    const framesStart = lenAt + 4 + head.readUInt32LE(lenAt);
    if (framesStart > size) return null;
    if (framesStart > head.length) head = readAt(fd, framesStart, 0);
    const header = JSON.parse(head.toString('utf8', lenAt + 4, framesStart)) as SpoolHeader;
    if (typeof header.projectId !== 'string' || typeof header.pid !== 'number') return null;
    const base = Math.max(from, framesStart);
    const data = headerOnly || base >= size ? Buffer.alloc(0) : readAt(fd, size - base, base);
    return { header, data, base, size: base + data.length };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

const finishedPath = (path: string): string => path.slice(0, -OPEN.length) + FINISHED;

/**
 * Renames the `.open` files whose writer process is gone to `.spool`, so that "finished" has
 * one signal. Returns the listing with those files finished.
 */
export function finishAbandoned(files: SpoolFile[]): SpoolFile[] {
  return files.map((f) => {
    if (f.finished) return f;
    const head = readSpool(f.path, 0, true);
    if (head === null || head.header.pid === process.pid) return f;
    if (isSameProcessAlive(head.header.pid, head.header.procStart)) return f;
    const path = finishedPath(f.path);
    try {
      renameSync(f.path, path);
    } catch {
      return f; // renamed or deleted by another reader meanwhile: the next listing sees it
    }
    return { ...f, path, finished: true };
  });
}

/** Size of a file, or -1 when it is gone. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

export const removeFile = (path: string): void => {
  try {
    unlinkSync(path);
  } catch {
    /* gone already, or still open elsewhere (Windows): a later expansion tries again */
  }
};

export interface SpoolWriterOptions {
  /** After this many records the file is finished and a new one started. */
  rotateAfter: number;
  /** After this many bytes too (default 64 MiB): readers delete finished files they have read. */
  rotateAfterBytes?: number;
}

/**
 * A server's side of the spool: appends frames to its current file, starts a new file every
 * `rotateAfter` records, and deletes its own finished files that retention would drop anyway
 * (newer files hold the limit already), so a busy server's spool stays about the size of the
 * limit when nobody reads it.
 */
export class SpoolWriter {
  private fd = -1;
  private path = '';
  private size = 0;
  private count = 0;
  private readonly started = Date.now().toString(36).padStart(9, '0');
  private readonly header: Buffer;
  /** This writer's finished files, oldest first, with their record counts. */
  private finished: { path: string; count: number }[] = [];

  constructor(
    private readonly dir: string,
    projectId: string,
    private readonly options: SpoolWriterOptions,
  ) {
    const json = Buffer.from(
      JSON.stringify({
        projectId,
        pid: process.pid,
        procStart: processStartTime(process.pid),
      } satisfies SpoolHeader),
    );
    const len = Buffer.alloc(4);
    len.writeUInt32LE(json.length);
    this.header = Buffer.concat([FILE_MAGIC, len, json]);
  }

  private open(): void {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR });
    const key = `${this.started}-${process.pid}-${String(++fileSeq).padStart(10, '0')}`;
    const path = join(this.dir, key + OPEN);
    const fd = openSync(path, 'ax', PRIVATE_FILE);
    try {
      writeAll(fd, this.header);
    } catch (e) {
      closeSync(fd);
      removeFile(path);
      throw e;
    }
    this.fd = fd;
    this.path = path;
    this.size = this.header.length;
    this.count = 0;
  }

  /**
   * Appends the batch as one frame and empties it. On a failure the file is cut back to its
   * last whole frame, the batch keeps its records, and the error is thrown.
   */
  write(batch: RecordBatch, keep: number): void {
    if (batch.count === 0) return;
    if (this.fd === -1) this.open();
    const frame = batch.frame(keep);
    try {
      writeAll(this.fd, frame);
    } catch (e) {
      batch.unframe();
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // A file that cannot be cut back is left as it is (readers stop at the broken frame);
        // the next write starts a new one.
        try {
          this.finish();
        } catch {
          this.fd = -1;
        }
      }
      throw e;
    }
    this.size += frame.length;
    this.count += batch.count;
    batch.reset();
    if (
      this.count >= this.options.rotateAfter ||
      this.size >= (this.options.rotateAfterBytes ?? 64 * 1024 * 1024)
    ) {
      this.finish();
      this.trim(keep);
    }
  }

  /** Closes the current file and marks it finished. */
  finish(): void {
    if (this.fd === -1) return;
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
    let path = this.path;
    if (this.count === 0) {
      removeFile(path);
      return;
    }
    try {
      renameSync(path, finishedPath(path));
      path = finishedPath(path);
    } catch {
      /* stays .open: a reader finishes it once this process is gone */
    }
    this.finished.push({ path, count: this.count });
  }

  /** Deletes own finished files entirely beyond the newest `keep` records (the retention rule). */
  private trim(keep: number): void {
    // Files readers have consumed and deleted need no tracking.
    this.finished = this.finished.filter((f) => sizeOf(f.path) !== -1);
    const newestFirst = [...this.finished].reverse();
    const from = droppable(
      newestFirst.map((f) => f.count),
      keep,
    );
    for (const f of newestFirst.slice(from)) removeFile(f.path);
    this.finished = newestFirst.slice(0, from).reverse();
  }

  close(): void {
    this.finish();
  }
}

function writeAll(fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}
