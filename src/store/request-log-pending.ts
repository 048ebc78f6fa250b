import type { NewRequestRecord, SharedResponse, StoredRow } from './request-log-rows.js';

/**
 * The serialisation of a pending batch: the records a server wrote in one go, stored as ONE
 * row of the `pending` table and expanded into `requests` rows later (by the next reader, or
 * by the server when it is idle or stopping).
 *
 * A batch is a BLOB, written record by record as requests are answered, into one reused
 * buffer: the server keeps no object per record, and writing a batch is one bound value.
 *
 *   u8 FORMAT, then per record:
 *     f64 ts | f64 durationMs | u16 status | u8 flags | u16 response slot (0: none)
 *     [endpoint id]  method  target  headers  [body]  [response headers JSON  [response body]]
 *   (endpoint id and response headers JSON in UTF-8, the other strings in latin1)
 *   then the trailer: f64 response id per slot | u32 slot count
 *
 * Each bracketed or plain field is a u32 byte length and the bytes. Method, target and header
 * lines are node's one-byte (latin1) strings and are written as such; the headers are node's
 * raw lines joined with "\n" (the `requests` column's form). A slot points to an endpoint's
 * response stored once in `responses`: the trailer maps the batch's slots to their ids, known
 * only when the batch is written. A record without a slot carries its response inline
 * (404s, preflights, HEAD).
 *
 * Batches written by earlier versions are JSON text (see decodeLegacy) and still decode.
 */
const FORMAT = 1;
const FIXED = 8 + 8 + 2 + 1 + 2;

const TRUNCATED = 1;
const HAS_ENDPOINT = 2;
const HAS_BODY = 4;
const INLINE_RESPONSE = 8;
const HAS_RES_BODY = 16;

/** Strings this short are copied by a loop; longer ones by one native write. */
const SHORT = 24;

/** Identifies a batch between two resets: shared responses remember their slot per batch. */
let batchKeys = 0;

interface SlotMark {
  /** The batch (key) the slot below belongs to. */
  slotBatch?: number;
  slot?: number;
}

export class PendingBatch {
  private buf: Buffer;
  private len = 1;
  /** Length before the trailer while sealed. */
  private sealedAt = -1;
  private key = ++batchKeys;
  private slots: SharedResponse[] = [];
  /** Records in the batch. */
  count = 0;

  constructor(private readonly initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.buf[0] = FORMAT;
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

  private str(s: string, at: number): number {
    const n = s.length;
    const buf = this.buf;
    buf.writeUInt32LE(n, at);
    at += 4;
    if (n < SHORT) for (let i = 0; i < n; i++) buf[at + i] = s.charCodeAt(i);
    else buf.write(s, at, n, 'latin1');
    return at + n;
  }

  /** A string that may hold any character (an endpoint id from a hand edit): UTF-8. */
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

  private bytesField(b: Buffer, at: number): number {
    this.buf.writeUInt32LE(b.length, at);
    b.copy(this.buf, at + 4);
    return at + 4 + b.length;
  }

  private slotOf(shared: SharedResponse): number {
    const mark = shared as SharedResponse & SlotMark;
    if (mark.slotBatch !== this.key) {
      mark.slotBatch = this.key;
      mark.slot = this.slots.push(shared);
    }
    return mark.slot!;
  }

  add(r: NewRequestRecord): void {
    if (this.sealedAt !== -1) this.unseal();
    const raw = r.rawHeaders;
    let headersLen = raw.length > 0 ? raw.length - 1 : 0;
    for (let i = 0; i < raw.length; i++) headersLen += raw[i]!.length;
    const shared = r.shared;
    const resBody = shared ? null : r.resBody;
    const resBodyBuf = typeof resBody === 'string' ? Buffer.from(resBody, 'utf8') : resBody;
    const need =
      FIXED +
      24 +
      3 * (r.endpointId?.length ?? 0) +
      r.method.length +
      r.url.length +
      headersLen +
      (r.body?.length ?? 0) +
      (shared ? 0 : 8 + 3 * r.resHeadersJson.length + (resBodyBuf?.length ?? 0));
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
      const n = buf.write(r.resHeadersJson, at + 4, 'utf8');
      buf.writeUInt32LE(n, at);
      at += 4 + n;
      if (resBodyBuf !== null) at = this.bytesField(resBodyBuf, at);
    }
    this.len = at;
    this.count++;
  }

  /**
   * The batch as stored: the records and the trailer mapping each slot to its response id.
   * The returned view is valid until the next add() or reset().
   */
  seal(responseId: (shared: SharedResponse) => number): Buffer {
    if (this.sealedAt !== -1) this.unseal();
    const n = this.slots.length;
    this.reserve(8 * n + 4);
    let at = this.len;
    this.sealedAt = at;
    for (const shared of this.slots) {
      this.buf.writeDoubleLE(responseId(shared), at);
      at += 8;
    }
    this.buf.writeUInt32LE(n, at);
    return this.buf.subarray(0, at + 4);
  }

  /** Takes the trailer off again (the write failed: more records may follow). */
  unseal(): void {
    if (this.sealedAt !== -1) this.len = this.sealedAt;
    this.sealedAt = -1;
  }

  /** Empties the batch; a buffer grown by large bodies is given back. */
  reset(): void {
    if (this.buf.length > 16 * this.initialBytes) {
      this.buf = Buffer.allocUnsafe(this.initialBytes);
      this.buf[0] = FORMAT;
    }
    this.len = 1;
    this.sealedAt = -1;
    this.count = 0;
    this.slots = [];
    this.key = ++batchKeys;
  }
}

/** Thrown for a batch that cannot be read (a damaged row). */
export class BadBatchError extends Error {}

/** The `requests` rows of a pending batch, in the order they were written. */
export function decodeBatch(projectId: string, data: Buffer | string): StoredRow[] {
  if (typeof data === 'string') return decodeLegacy(projectId, data);
  try {
    return decodeBinary(projectId, data);
  } catch (e) {
    if (e instanceof BadBatchError) throw e;
    throw new BadBatchError(`damaged pending batch: ${(e as Error).message}`);
  }
}

function decodeBinary(projectId: string, data: Buffer): StoredRow[] {
  if (data.length < 5 || data[0] !== FORMAT) throw new BadBatchError('unknown pending batch format');
  const slots = data.readUInt32LE(data.length - 4);
  const end = data.length - 4 - 8 * slots;
  if (end < 1) throw new BadBatchError('damaged pending batch trailer');
  const resIds: number[] = [];
  for (let i = 0; i < slots; i++) resIds.push(data.readDoubleLE(end + 8 * i));
  const rows: StoredRow[] = [];
  let at = 1;
  const field = (): [number, number] => {
    const n = data.readUInt32LE(at);
    const start = at + 4;
    at = start + n;
    if (at > end) throw new BadBatchError('damaged pending batch record');
    return [start, at];
  };
  const text = (): string => {
    const [s, e] = field();
    return data.toString('latin1', s, e);
  };
  const bytes = (): Buffer => {
    const [s, e] = field();
    return Buffer.from(data.subarray(s, e));
  };
  while (at < end) {
    if (at + FIXED > end) throw new BadBatchError('damaged pending batch record');
    const ts = data.readDoubleLE(at);
    const durationMs = data.readDoubleLE(at + 8);
    const status = data.readUInt16LE(at + 16);
    const flags = data[at + 18]!;
    const slot = data.readUInt16LE(at + 19);
    at += FIXED;
    let endpointId: string | null = null;
    if (flags & HAS_ENDPOINT) {
      const [s, e] = field();
      endpointId = data.toString('utf8', s, e);
    }
    const method = text();
    const target = text();
    const headers = text();
    const body = flags & HAS_BODY ? bytes() : null;
    let resId: number | null = null;
    let resHeaders: string | null = null;
    let resBody: Buffer | null = null;
    if (flags & INLINE_RESPONSE) {
      const [s, e] = field();
      resHeaders = data.toString('utf8', s, e);
      if (flags & HAS_RES_BODY) resBody = bytes();
    } else {
      if (slot < 1 || slot > slots) throw new BadBatchError('damaged pending batch response slot');
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
 * Batches of earlier versions: a JSON array with one array per record,
 *   [endpointId, ts, method, target, rawHeaders[], body, status, durationMs, truncated,
 *    resId, resHeadersJson, resBody]
 * with bodies as latin1 strings.
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

function decodeLegacy(projectId: string, data: string): StoredRow[] {
  let entries: LegacyEntry[];
  try {
    entries = JSON.parse(data) as LegacyEntry[];
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
