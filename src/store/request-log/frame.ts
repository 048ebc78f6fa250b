import { clientAddress, COMMON_CLIENT_ADDRESS } from '../../core/client-address.js';
import type { LoggedResponse, NewRequestRecord } from '../../core/ports.js';
import type { StoredRow } from './rows.js';

/**
 * Frames: the records a server answered in a few milliseconds, serialised as one frame of its
 * spool file (spool.ts) and turned into `requests` rows later by whoever expands the spool.
 *
 * A batch is written record by record as requests are answered, into one reused buffer: the
 * server keeps no object per record, and writing a batch is one write() of that buffer.
 *
 *   frame header: u32 FRAME_MAGIC | u32 payload bytes | u32 records | u32 retention limit
 *   payload: u8 FORMAT, then per record
 *     f64 ts | f64 durationMs | u16 status and timing flags | u8 flags | u16 response slot (0: inline)
 *     [u32 delay ms]  [fault]  [endpoint id]  [variation id  variation name]  [client address]  method  target  headers  [body]
 *     [response headers JSON  [response body]]
 *   then the slots: per slot, response headers JSON and [response body]; u32 slot count;
 *   u32 where the slots start (from the payload's start)
 *
 * Each field is a u32 byte length and the bytes (a null body: length 0xFFFFFFFF). Method,
 * target and header lines are node's one-byte (latin1) strings and are written as such; the
 * headers are node's raw lines joined with "\n" (the `requests` column's form); endpoint ids,
 * variation ids and names and response headers JSON are UTF-8. The protocol is a flag (HTTP/2,
 * else HTTP/1.1); the client address (core/client-address.ts) is written only when it is not
 * the common 127.0.0.1 (an empty one: unknown). Format 2 (before the variation was logged) is
 * read as format 3 without variations; formats 2 and 3 (before protocol and client address)
 * give neither. The status field's top bits (a status is at most 599: STATUS_BITS) say whether
 * the delay applied and the fault are written (format 5); a record without either has the
 * layout of format 4, and earlier formats never set those bits. A slot is a shared response (an endpoint's precompiled
 * one), written once per frame however many records it answered; expansion stores it once in
 * `responses`. Other responses (404s, preflights) are written inline.
 */
export const FRAME_MAGIC = 0x3146444d; // "MDF1"
export const FRAME_HEADER = 16;
const FORMAT = 5;
/**
 * Formats this reader decodes: 2 has no variation fields (and never sets HAS_VARIATION); 2 and 3
 * no protocol or client; 2 to 4 no delay or fault (and never set HAS_DELAY or HAS_FAULT).
 */
const READABLE_FORMATS = new Set([2, 3, 4, 5]);
const FIXED = 8 + 8 + 2 + 1 + 2;
const NONE = 0xffffffff;
/** A slot number is 16 bits: past that many distinct responses in one frame, write inline. */
const MAX_SLOTS = 0xffff;

const TRUNCATED = 1;
const HAS_ENDPOINT = 2;
const HAS_BODY = 4;
const INLINE_RESPONSE = 8;
const HAS_RES_BODY = 16;
const HAS_VARIATION = 32;
const H2 = 64;
const HAS_CLIENT = 128;
/** In the status field, above the status (STATUS_BITS): the delay applied, the fault. */
const HAS_DELAY = 0x8000;
const HAS_FAULT = 0x4000;
const STATUS_BITS = 0x3ff;

/** Strings this short are copied by a loop; longer ones by one native write. */
const SHORT = 24;

/** Records serialised as they arrive, written out as one frame. */
export class RecordBatch {
  private buf: Buffer;
  private len = FRAME_HEADER + 1;
  /** Length before the slots while framed. */
  private framedAt = -1;
  /** Shared responses of this batch and their slot numbers (1-based). */
  private slots = new Map<LoggedResponse, number>();
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

  /** The slot of a shared response; 0 (inline) when it is not shared or the slots are full. */
  private slotOf(response: LoggedResponse): number {
    if (!response.shared) return 0;
    let slot = this.slots.get(response);
    if (slot === undefined) {
      if (this.slots.size >= MAX_SLOTS) return 0;
      slot = this.slots.size + 1;
      this.slots.set(response, slot);
    }
    return slot;
  }

  add(r: NewRequestRecord): void {
    if (this.framedAt !== -1) this.unframe();
    const raw = r.rawHeaders;
    let headersLen = raw.length > 0 ? raw.length - 1 : 0;
    for (let i = 0; i < raw.length; i++) headersLen += raw[i]!.length;
    const res = r.response;
    const slot = this.slotOf(res);
    const variation = r.variation ?? null;
    const client = clientAddress(r.remoteAddress, raw) ?? '';
    const writeClient = client !== COMMON_CLIENT_ADDRESS;
    const delay = r.delayMs !== undefined && r.delayMs > 0 ? r.delayMs : 0;
    const fault = r.fault ?? null;
    const need =
      FIXED +
      44 +
      (fault === null ? 0 : 3 * fault.length) +
      3 * (r.endpointId?.length ?? 0) +
      (variation === null ? 0 : 3 * (variation.id.length + variation.name.length)) +
      (writeClient ? client.length : 0) +
      r.method.length +
      r.url.length +
      headersLen +
      (r.body?.length ?? 0) +
      (slot ? 0 : 3 * res.headersJson.length + (res.body?.length ?? 0));
    this.reserve(need);
    const buf = this.buf;
    let at = this.len;
    buf.writeDoubleLE(r.ts, at);
    buf.writeDoubleLE(r.durationMs, at + 8);
    buf.writeUInt16LE(
      (r.status & STATUS_BITS) | (delay > 0 ? HAS_DELAY : 0) | (fault !== null ? HAS_FAULT : 0),
      at + 16,
    );
    buf[at + 18] =
      (r.truncated || res.truncated ? TRUNCATED : 0) |
      (r.endpointId !== null ? HAS_ENDPOINT : 0) |
      (variation !== null ? HAS_VARIATION : 0) |
      (r.httpMajor === 2 ? H2 : 0) |
      (writeClient ? HAS_CLIENT : 0) |
      (r.body !== null ? HAS_BODY : 0) |
      (slot ? 0 : INLINE_RESPONSE | (res.body !== null ? HAS_RES_BODY : 0));
    buf.writeUInt16LE(slot, at + 19);
    at += FIXED;
    if (delay > 0) {
      buf.writeUInt32LE(Math.min(Math.round(delay), 0xffffffff), at);
      at += 4;
    }
    if (fault !== null) at = this.utf8(fault, at);
    if (r.endpointId !== null) at = this.utf8(r.endpointId, at);
    if (variation !== null) {
      at = this.utf8(variation.id, at);
      at = this.utf8(variation.name, at);
    }
    if (writeClient) at = this.str(client, at);
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
    if (!slot) {
      at = this.utf8(res.headersJson, at);
      if (res.body !== null) at = this.bytesField(res.body, at);
    }
    this.len = at;
    this.count++;
  }

  /**
   * The batch as one frame: header, records and the responses of its slots. `keep` is the
   * project's retention limit. The returned view is valid until the next add() or reset().
   */
  frame(keep: number): Buffer {
    if (this.framedAt !== -1) this.unframe();
    this.framedAt = this.len;
    let need = 8;
    for (const s of this.slots.keys()) need += 8 + 3 * s.headersJson.length + (s.body?.length ?? 0);
    this.reserve(need);
    let at = this.len;
    for (const s of this.slots.keys()) {
      at = this.utf8(s.headersJson, at);
      at = this.bytesField(s.body, at);
    }
    const buf = this.buf;
    buf.writeUInt32LE(this.slots.size, at);
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
    this.slots = new Map();
  }
}

/** Thrown for a frame that cannot be read (damaged data). */
export class BadFrameError extends Error {}

/** A complete frame found in a spool file. */
export interface FrameRef {
  /** Offsets of the whole frame in the buffer it was found in. */
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

/** A frame decoded: its rows, whose shared responses still point at `slots` (resolved on insert). */
export interface DecodedFrame {
  rows: StoredRow[];
  /** Per row, its slot (1-based) or 0; rows with a slot get their response id on insert. */
  rowSlots: number[];
  slots: { headersJson: string; body: Buffer | null }[];
}

/** The rows of one frame, in the order they were written. Throws BadFrameError for damaged data. */
export function decodeFrame(projectId: string, data: Buffer, frame: FrameRef): DecodedFrame {
  try {
    return decodeRecords(projectId, data.subarray(frame.start + FRAME_HEADER, frame.end));
  } catch (e) {
    if (e instanceof BadFrameError) throw e;
    throw new BadFrameError(`damaged frame: ${(e as Error).message}`);
  }
}

function decodeRecords(projectId: string, data: Buffer): DecodedFrame {
  if (data.length < 9 || !READABLE_FORMATS.has(data[0]!)) throw new BadFrameError('unknown frame format');
  const knowsClient = data[0]! >= 4;
  const slotCount = data.readUInt32LE(data.length - 8);
  const end = data.readUInt32LE(data.length - 4);
  if (end < 1 || end > data.length - 8) throw new BadFrameError('damaged frame slots');
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
    if (at > limit) throw new BadFrameError('damaged frame record');
    return [start, at];
  };
  const text = (encoding: 'latin1' | 'utf8'): string => {
    const f = field();
    if (f === null) throw new BadFrameError('damaged frame record');
    return data.toString(encoding, f[0], f[1]);
  };
  const bytes = (): Buffer | null => {
    const f = field();
    return f === null ? null : Buffer.from(data.subarray(f[0], f[1]));
  };
  at = end;
  limit = data.length - 8;
  const slots: DecodedFrame['slots'] = [];
  for (let i = 0; i < slotCount; i++) {
    const headersJson = text('utf8');
    slots.push({ headersJson, body: bytes() });
  }
  at = 1;
  limit = end;
  const rows: StoredRow[] = [];
  const rowSlots: number[] = [];
  while (at < end) {
    if (at + FIXED > end) throw new BadFrameError('damaged frame record');
    const ts = data.readDoubleLE(at);
    const durationMs = data.readDoubleLE(at + 8);
    const statusField = data.readUInt16LE(at + 16);
    const status = statusField & STATUS_BITS;
    const flags = data[at + 18]!;
    const slot = data.readUInt16LE(at + 19);
    at += FIXED;
    let delayMs: number | null = null;
    if (statusField & HAS_DELAY) {
      if (at + 4 > end) throw new BadFrameError('damaged frame record');
      delayMs = data.readUInt32LE(at);
      at += 4;
    }
    const fault = statusField & HAS_FAULT ? text('utf8') : null;
    const endpointId = flags & HAS_ENDPOINT ? text('utf8') : null;
    const variationId = flags & HAS_VARIATION ? text('utf8') : null;
    const variationName = flags & HAS_VARIATION ? text('utf8') : null;
    const client = !knowsClient ? null : flags & HAS_CLIENT ? text('latin1') || null : COMMON_CLIENT_ADDRESS;
    const method = text('latin1');
    const target = text('latin1');
    const headers = text('latin1');
    const body = flags & HAS_BODY ? bytes() : null;
    let resHeaders: string | null = null;
    let resBody: Buffer | null = null;
    if (flags & INLINE_RESPONSE) {
      resHeaders = text('utf8');
      if (flags & HAS_RES_BODY) resBody = bytes();
      rowSlots.push(0);
    } else {
      if (slot < 1 || slot > slotCount) throw new BadFrameError('damaged frame response slot');
      rowSlots.push(slot);
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
      null,
      resHeaders,
      resBody,
      variationId,
      variationName,
      knowsClient ? (flags & H2 ? 'h2' : 'http/1.1') : null,
      client,
      delayMs,
      fault,
    ]);
  }
  return { rows, rowSlots, slots };
}
