import type { NewRequestRecord, SharedResponse, StoredRow } from './request-log-rows.js';

/**
 * Pending batches: the records a server answered in a few milliseconds, serialised as ONE
 * frame of its spool file (request-spool.ts) and expanded into `requests` rows later (by the
 * next reader, or by the server when it is idle or stopping).
 *
 * A batch is written record by record as requests are answered, into one reused buffer: the
 * server keeps no object per record, and writing a batch is one write() of that buffer.
 *
 *   frame header: u32 FRAME_MAGIC | u32 payload bytes | u32 records | u32 retention limit
 *   payload: u8 FORMAT, then per record
 *     f64 ts | f64 durationMs | u16 status | u8 flags | u16 response slot (0: inline)
 *     [endpoint id]  method  target  headers  [body]  [response headers JSON  [response body]]
 *   then the slots: per slot, response headers JSON and [response body]; u32 slot count;
 *   u32 where the slots start (from the payload's start)
 *
 * Each field is a u32 byte length and the bytes (a null body: length 0xFFFFFFFF). Method,
 * target and header lines are node's one-byte (latin1) strings and are written as such; the
 * headers are node's raw lines joined with "\n" (the `requests` column's form); endpoint ids
 * and response headers JSON are UTF-8. A slot is an endpoint's compiled response, written
 * once per batch however many records it answered; expansion stores it once in `responses`.
 * Responses that are not an endpoint's (404s, preflights, HEAD) are written inline.
 *
 * Batches of earlier versions were rows of the `pending` table as JSON text (decodeLegacy).
 */
export const FRAME_MAGIC = 0x3146444d; // "MDF1"
export const FRAME_HEADER = 16;
const FORMAT = 2;
const FIXED = 8 + 8 + 2 + 1 + 2;
const NONE = 0xffffffff;

const TRUNCATED = 1;
const HAS_ENDPOINT = 2;
const HAS_BODY = 4;
const INLINE_RESPONSE = 8;
const HAS_RES_BODY = 16;

/** Strings this short are copied by a loop; longer ones by one native write. */
const SHORT = 24;

/** Identifies a batch between two resets: shared responses remember their slot per batch. */
let batchKeys = 0;

/** Resolves a response written in a batch to its row in `responses`. */
export type ResponseIdOf = (headersJson: string, body: Buffer | null) => number;

export class PendingBatch {
  private buf: Buffer;
  private len = FRAME_HEADER + 1;
  /** Length before the slots while framed. */
  private framedAt = -1;
  private key = ++batchKeys;
  private slots: SharedResponse[] = [];
  /** Records in the batch. */
  count = 0;

  constructor(private readonly initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(initialBytes, 64));
    this.buf[FRAME_HEADER] = FORMAT;
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.len;
  }

  private reserve(more: number): void {
    if (this.len + more <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + more));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  /** A one-byte (latin1) string. */
  private str(s: string, at: number): number {
    const n = s.length;
    const buf = this.buf;
    buf.writeUInt32LE(n, at);
    at += 4;
    if (n < SHORT) for (let i = 0; i < n; i++) buf[at + i] = s.charCodeAt(i);
    else buf.write(s, at, n, 'latin1');
    return at + n;
  }

  /** A string that may hold any character (an endpoint id from a hand edit, JSON): UTF-8. */
  private utf8(s: string, at: number): number {
    const n = s.length;
    const buf = this.buf;
    let ascii = n < SHORT;
    if (ascii)
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 127) {
          ascii = false;
          break;
        }
        buf[at + 4 + i] = c;
      }
    const written = ascii ? n : buf.write(s, at + 4, 'utf8');
    buf.writeUInt32LE(written, at);
    return at + 4 + written;
  }

  private bytesField(b: Buffer | null, at: number): number {
    if (b === null) {
      this.buf.writeUInt32LE(NONE, at);
      return at + 4;
    }
    this.buf.writeUInt32LE(b.length, at);
    b.copy(this.buf, at + 4);
    return at + 4 + b.length;
  }

  private slotOf(shared: SharedResponse): number {
    if (shared.slotBatch !== this.key) {
      shared.slotBatch = this.key;
      shared.slot = this.slots.push(shared);
    }
    return shared.slot!;
  }

  add(r: NewRequestRecord): void {
    if (this.framedAt !== -1) this.unframe();
    const raw = r.rawHeaders;
    let headersLen = raw.length > 0 ? raw.length - 1 : 0;
    for (let i = 0; i < raw.length; i++) headersLen += raw[i]!.length;
    // A slot number is 16 bits: past that many distinct responses in one batch, write inline.
    const shared =
      r.shared && (r.shared.slotBatch === this.key || this.slots.length < 0xffff) ? r.shared : undefined;
    const resBody = shared ? null : r.resBody;
    const resBodyBuf = typeof resBody === 'string' ? Buffer.from(resBody, 'utf8') : resBody;
    const need =
      FIXED +
      28 +
      3 * (r.endpointId?.length ?? 0) +
      r.method.length +
      r.url.length +
      headersLen +
      (r.body?.length ?? 0) +
      (shared ? 0 : 3 * r.resHeadersJson.length + (resBodyBuf?.length ?? 0));
    this.reserve(need);
    const buf = this.buf;
    let at = this.len;
    buf.writeDoubleLE(r.ts, at);
    buf.writeDoubleLE(r.durationMs, at + 8);
    buf.writeUInt16LE(r.status, at + 16);
    buf[at + 18] =
      (r.truncated ? TRUNCATED : 0) |
      (r.endpointId !== null ? HAS_ENDPOINT : 0) |
      (r.body !== null ? HAS_BODY : 0) |
      (shared ? 0 : INLINE_RESPONSE | (resBodyBuf !== null ? HAS_RES_BODY : 0));
    buf.writeUInt16LE(shared ? this.slotOf(shared) : 0, at + 19);
    at += FIXED;
    if (r.endpointId !== null) at = this.utf8(r.endpointId, at);
    at = this.str(r.method, at);
    at = this.str(r.url, at);
    // Header lines joined with "\n", written piece by piece.
    buf.writeUInt32LE(headersLen, at);
    at += 4;
    for (let i = 0; i < raw.length; i++) {
      if (i > 0) buf[at++] = 10;
      const s = raw[i]!;
      const n = s.length;
      if (n < SHORT) for (let k = 0; k < n; k++) buf[at + k] = s.charCodeAt(k);
      else buf.write(s, at, n, 'latin1');
      at += n;
    }
    if (r.body !== null) at = this.bytesField(r.body, at);
    if (!shared) {
      at = this.utf8(r.resHeadersJson, at);
      if (resBodyBuf !== null) at = this.bytesField(resBodyBuf, at);
    }
    this.len = at;
    this.count++;
  }

  /**
   * The batch as one frame: header, records and the responses of its slots. `keep` is the
   * project's retention limit, applied when the frame is expanded. The returned view is valid
   * until the next add() or reset().
   */
  frame(keep: number): Buffer {
    if (this.framedAt !== -1) this.unframe();
    this.framedAt = this.len;
    let need = 8;
    for (const s of this.slots) need += 8 + 3 * s.headersJson.length + (s.body?.length ?? 0);
    this.reserve(need);
    let at = this.len;
    for (const s of this.slots) {
      at = this.utf8(s.headersJson, at);
      at = this.bytesField(s.body, at);
    }
    const buf = this.buf;
    buf.writeUInt32LE(this.slots.length, at);
    buf.writeUInt32LE(this.framedAt - FRAME_HEADER, at + 4);
    at += 8;
    buf.writeUInt32LE(FRAME_MAGIC, 0);
    buf.writeUInt32LE(at - FRAME_HEADER, 4);
    buf.writeUInt32LE(this.count, 8);
    buf.writeUInt32LE(Math.min(Math.max(0, Math.floor(keep)), 0xffffffff), 12);
    return buf.subarray(0, at);
  }

  /** Takes the slots off again (the write failed: more records may follow). */
  unframe(): void {
    if (this.framedAt !== -1) this.len = this.framedAt;
    this.framedAt = -1;
  }

  /** Empties the batch; a buffer grown by large bodies is given back. */
  reset(): void {
    if (this.buf.length > 16 * this.initialBytes) {
      this.buf = Buffer.allocUnsafe(this.initialBytes);
      this.buf[FRAME_HEADER] = FORMAT;
    }
    this.len = FRAME_HEADER + 1;
    this.framedAt = -1;
    this.count = 0;
    this.slots = [];
    this.key = ++batchKeys;
  }
}

/** Thrown for a batch that cannot be read (damaged data). */
export class BadBatchError extends Error {}

/** A complete frame found in a spool file. */
export interface FrameRef {
  /** Offsets of the whole frame in the file's buffer. */
  start: number;
  end: number;
  count: number;
  keep: number;
}

/**
 * The complete frames of `data` from offset `from`. Stops at an incomplete frame (still being
 * written, or cut short by a crash); `damaged` when what follows is not a frame at all.
 */
export function scanFrames(
  data: Buffer,
  from: number,
): { frames: FrameRef[]; end: number; damaged: boolean } {
  const frames: FrameRef[] = [];
  let at = from;
  while (at + FRAME_HEADER <= data.length) {
    if (data.readUInt32LE(at) !== FRAME_MAGIC) return { frames, end: at, damaged: true };
    const end = at + FRAME_HEADER + data.readUInt32LE(at + 4);
    if (end > data.length) break;
    frames.push({ start: at, end, count: data.readUInt32LE(at + 8), keep: data.readUInt32LE(at + 12) });
    at = end;
  }
  return { frames, end: at, damaged: false };
}

/** The `requests` rows of one frame, in the order they were written. */
export function decodeFrame(
  projectId: string,
  data: Buffer,
  frame: FrameRef,
  responseId: ResponseIdOf,
): StoredRow[] {
  try {
    return decodeRecords(projectId, data.subarray(frame.start + FRAME_HEADER, frame.end), responseId);
  } catch (e) {
    if (e instanceof BadBatchError) throw e;
    throw new BadBatchError(`damaged pending batch: ${(e as Error).message}`);
  }
}

function decodeRecords(projectId: string, data: Buffer, responseId: ResponseIdOf): StoredRow[] {
  if (data.length < 9 || data[0] !== FORMAT) throw new BadBatchError('unknown pending batch format');
  const slotCount = data.readUInt32LE(data.length - 8);
  const end = data.readUInt32LE(data.length - 4);
  if (end < 1 || end > data.length - 8) throw new BadBatchError('damaged pending batch slots');
  let at = 1;
  let limit = end;
  const field = (): [number, number] | null => {
    const n = data.readUInt32LE(at);
    if (n === NONE) {
      at += 4;
      return null;
    }
    const start = at + 4;
    at = start + n;
    if (at > limit) throw new BadBatchError('damaged pending batch record');
    return [start, at];
  };
  const text = (encoding: 'latin1' | 'utf8'): string => {
    const f = field();
    if (f === null) throw new BadBatchError('damaged pending batch record');
    return data.toString(encoding, f[0], f[1]);
  };
  const bytes = (): Buffer | null => {
    const f = field();
    return f === null ? null : Buffer.from(data.subarray(f[0], f[1]));
  };
  // The slots first: each becomes a response id once.
  at = end;
  limit = data.length - 8;
  const resIds: number[] = [];
  for (let i = 0; i < slotCount; i++) {
    const headersJson = text('utf8');
    resIds.push(responseId(headersJson, bytes()));
  }
  at = 1;
  limit = end;
  const rows: StoredRow[] = [];
  while (at < end) {
    if (at + FIXED > end) throw new BadBatchError('damaged pending batch record');
    const ts = data.readDoubleLE(at);
    const durationMs = data.readDoubleLE(at + 8);
    const status = data.readUInt16LE(at + 16);
    const flags = data[at + 18]!;
    const slot = data.readUInt16LE(at + 19);
    at += FIXED;
    const endpointId = flags & HAS_ENDPOINT ? text('utf8') : null;
    const method = text('latin1');
    const target = text('latin1');
    const headers = text('latin1');
    const body = flags & HAS_BODY ? bytes() : null;
    let resId: number | null = null;
    let resHeaders: string | null = null;
    let resBody: Buffer | null = null;
    if (flags & INLINE_RESPONSE) {
      resHeaders = text('utf8');
      if (flags & HAS_RES_BODY) resBody = bytes();
    } else {
      if (slot < 1 || slot > slotCount) throw new BadBatchError('damaged pending batch response slot');
      resId = resIds[slot - 1]!;
    }
    rows.push([
      projectId,
      endpointId,
      ts,
      method,
      target,
      headers,
      body,
      status,
      durationMs,
      flags & TRUNCATED ? 1 : 0,
      resId,
      resHeaders,
      resBody,
    ]);
  }
  return rows;
}

/**
 * Rows of the `pending` table written by earlier versions: a JSON array with one array per
 * record, [endpointId, ts, method, target, rawHeaders[], body, status, durationMs, truncated,
 * resId, resHeadersJson, resBody], bodies as latin1 strings.
 */
type LegacyEntry = [
  string | null,
  number,
  string,
  string,
  string[],
  string | null,
  number,
  number,
  0 | 1,
  number | null,
  string | null,
  string | null,
];

export function decodeLegacy(projectId: string, data: unknown): StoredRow[] {
  try {
    if (typeof data !== 'string') throw new Error('not JSON text');
    const entries = JSON.parse(data) as LegacyEntry[];
    if (!Array.isArray(entries)) throw new Error('not an array');
    return entries.map((e) => [
      projectId,
      e[0],
      e[1],
      e[2],
      e[3],
      e[4].join('\n'),
      e[5] === null ? null : Buffer.from(e[5], 'latin1'),
      e[6],
      e[7],
      e[8],
      e[9],
      e[10],
      e[11] === null ? null : Buffer.from(e[11], 'latin1'),
    ]);
  } catch (e) {
    throw new BadBatchError(`damaged pending batch: ${(e as Error).message}`);
  }
}
