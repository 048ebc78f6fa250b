import type { IncomingMessage, ServerResponse } from 'node:http';
import { MockdevError, type Hint } from '../core/errors.js';

/**
 * The one request body reader of mockdev's HTTP surfaces: the whole body up to a limit, or the
 * refusal PAYLOAD_TOO_LARGE naming the limit. A body announced larger (Content-Length) is
 * refused before a byte of it is read; one sent in chunks, as soon as it passes the limit. The
 * rest of a refused body is discarded unread, and its connection is closed once answered.
 */

const MIB = 1024 * 1024;

/** The body limit of a request that carries no document: settings, names, a token (1 MiB). */
export const DEFAULT_BODY_LIMIT_BYTES = MIB;
/** The body limit of a request carrying an endpoint's contents (a response body of several MiB). */
export const CONTENT_BODY_LIMIT_BYTES = 16 * MIB;
/**
 * The body limit of a request carrying an OpenAPI document to import: GitHub's REST description,
 * among the largest in use, is 12.4 MiB of JSON (32 MiB leaves room for YAML and for the JSON
 * escaping of a document sent as a string inside JSON, as MCP's import_openapi takes it).
 */
export const DOCUMENT_BODY_LIMIT_BYTES = 32 * MIB;

/** A size as people read it: "10 MiB (10485760 bytes)", "1500 bytes". */
export const describeBytes = (n: number): string =>
  n >= MIB && n % MIB === 0 ? `${n / MIB} MiB (${n} bytes)` : `${n} bytes`;

export interface BodyLimit {
  bytes: number;
  /** What the limit is, after "larger than": "the request size limit of the mock server". */
  name?: string;
  /** How to get past it (a setting to raise, a smaller document). */
  hint?: Hint;
}

/** The client went away before its body ended: there is no one to answer. */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection before the request body ended');
  }
}

/** The refusal of a body over the limit. */
export function bodyTooLarge(limit: BodyLimit): MockdevError {
  const name = limit.name ? `${limit.name}, ` : '';
  return new MockdevError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${name}${describeBytes(limit.bytes)}`,
    { hint: limit.hint, details: { limitBytes: limit.bytes } },
  );
}

/** The Content-Length a request announces, or undefined (none, or chunked). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads the body whole. Rejects with PAYLOAD_TOO_LARGE past the limit, and with ClientGone
 * when the client leaves mid-body.
 */
export function readBody(req: IncomingMessage, limit: BodyLimit): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req);
    if (declared !== undefined && declared > limit.bytes) {
      discardRest(req);
      return reject(bodyTooLarge(limit));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit.bytes) {
        stop();
        discardRest(req);
        reject(bodyTooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onClose = () => {
      stop();
      reject(new ClientGone());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', () => undefined); // 'close' follows
  });
}

/** How long a refused body may go on arriving (discarded) after its answer, before the connection is cut. */
const REFUSED_BODY_GRACE_MS = 2000;

/** Discards what is left of a body that will not be read. */
function discardRest(req: IncomingMessage): void {
  req.on('error', () => undefined);
  req.resume();
}

/**
 * An answer given before the request body ended (a refused body): the connection closes after
 * it, and is cut when the client keeps sending for long.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  if (res.req.complete) return;
  // HTTP/2: the stream ends, not the connection (RST_STREAM NO_ERROR, RFC 9113 8.1).
  const stream = (res as unknown as { stream?: { close(code?: number): void } }).stream;
  if (stream !== undefined) {
    res.once('finish', () => {
      if (!res.req.complete) stream.close(0);
    });
    return;
  }
  res.shouldKeepAlive = false;
  res.once('finish', () => {
    if (res.req.complete) return;
    setTimeout(() => res.req.socket.destroy(), REFUSED_BODY_GRACE_MS).unref();
  });
}
