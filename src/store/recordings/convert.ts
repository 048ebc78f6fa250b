import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import type { Recording } from '../../core/model/recording.js';
import type { NewRecordedMessage, NewRecording } from '../../core/ports.js';
import { headersObject, parseQuery } from '../request-log/rows.js';

/**
 * A recording as the server handed it over -> as stored and shown: headers as objects, the query
 * parsed, bodies as text (base64 when not UTF-8), a compressed response body decoded (at most
 * the body cap of output; a body cut short is decoded as far as it goes).
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

function bodyFields(body: Buffer | null, truncated: boolean) {
  if (body === null) return { body: null, bodyEncoding: 'utf8' as const, truncated };
  try {
    return { body: decoder.decode(body), bodyEncoding: 'utf8' as const, truncated };
  } catch {
    // A body cut at the cap may end inside a character: keep the whole ones as text.
    if (truncated) {
      for (let cut = 1; cut <= 3 && cut < body.length; cut++) {
        try {
          return {
            body: decoder.decode(body.subarray(0, body.length - cut)),
            bodyEncoding: 'utf8' as const,
            truncated,
          };
        } catch {
          // try one byte shorter
        }
      }
    }
    return { body: body.toString('base64'), bodyEncoding: 'base64' as const, truncated };
  }
}

function header(raw: string[], lower: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === lower) return raw[i + 1];
  return undefined;
}

/** Decodes a gzip / br / deflate body; undefined when it is not one or cannot be decoded. */
function decode(coding: string, body: Buffer, limit: number): Buffer | undefined {
  const options = { maxOutputLength: Math.max(limit, 1), finishFlush: constants.Z_SYNC_FLUSH };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body, options);
    if (coding === 'deflate') return inflateSync(body, options);
    if (coding === 'br')
      return brotliDecompressSync(body, {
        maxOutputLength: options.maxOutputLength,
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
      });
  } catch {
    return undefined;
  }
  return undefined;
}

export function toRecording(
  r: NewRecording,
  projectId: string,
  bodyLimitBytes: number,
): Omit<Recording, 'id'> {
  const q = r.request.url.indexOf('?');
  const res = r.response;
  let body = res.body;
  let truncated = res.truncated;
  let decodedFrom: string | null = null;
  const coding = header(res.rawHeaders, 'content-encoding')?.trim().toLowerCase();
  if (coding && coding !== 'identity' && body !== null) {
    const decoded = decode(coding, body, bodyLimitBytes);
    if (decoded !== undefined) {
      decodedFrom = coding;
      truncated = truncated || decoded.length >= bodyLimitBytes;
      body = decoded.length > bodyLimitBytes ? decoded.subarray(0, bodyLimitBytes) : decoded;
    }
  }
  return {
    projectId,
    endpointId: r.endpointId,
    timestamp: new Date(r.ts).toISOString(),
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    target: r.target,
    request: {
      method: r.request.method,
      path: q === -1 ? r.request.url : r.request.url.slice(0, q),
      query: parseQuery(q === -1 ? '' : r.request.url.slice(q + 1)),
      headers: headersObject(r.request.rawHeaders),
      ...bodyFields(r.request.body, r.request.truncated),
    },
    response: {
      status: res.status,
      headers: headersObject(res.rawHeaders),
      ...bodyFields(body, truncated),
      decodedFrom,
    },
  };
}

export type { NewRecordedMessage };
