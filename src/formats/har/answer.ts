import { ContentTypeSchema, HeaderValueSchema } from '../../core/model/fields.js';
import { HEADER_NAME_PATTERN, STATUS_MAX } from '../../core/model/limits.js';
import { isObj, type Obj } from './read.js';

/**
 * A recorded HAR response as the answer a mock gives: status, headers (less what the mock server
 * works out itself), content type and body (text, or base64 decoded). The reason phrase is the
 * standard one (HTTP/2 records none; docs/import-har.md).
 */

export interface Answer {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body: string;
  /** What was lost in translation (for the report's approximate list). */
  lost: string[];
}

/**
 * Headers the mock server sets itself or that belong to one connection (RFC 9110 7.6.1: hop-by-hop),
 * and those that describe the recorded transfer, not the decoded body kept here.
 */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'content-encoding',
  'content-length',
]);

/** The response's media type (`content-type` header, else `content.mimeType`), or undefined. */
export function mimeTypeOf(response: Obj): string | undefined {
  const headers = Array.isArray(response.headers) ? response.headers : [];
  for (const h of headers)
    if (
      isObj(h) &&
      typeof h.name === 'string' &&
      h.name.toLowerCase() === 'content-type' &&
      typeof h.value === 'string'
    )
      return h.value.trim() || undefined;
  const content = isObj(response.content) ? response.content : {};
  const mime = typeof content.mimeType === 'string' ? content.mimeType.trim() : '';
  // Chromium writes x-unknown when the server sent none.
  return mime && mime !== 'x-unknown' ? mime : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, with what was lost when it cannot be kept. */
function bodyOf(response: Obj): { body: string; lost?: string } {
  const content = isObj(response.content) ? response.content : {};
  const size = typeof content.size === 'number' && content.size > 0 ? content.size : 0;
  if (typeof content.text !== 'string')
    return size
      ? { body: '', lost: `the HAR holds no body (${size} bytes were sent): answers with an empty body` }
      : { body: '' };
  if (content.encoding !== 'base64') return { body: content.text };
  const bytes = Buffer.from(content.text, 'base64');
  try {
    return { body: utf8.decode(bytes) };
  } catch {
    return {
      body: '',
      lost: `binary body of ${bytes.length} bytes not kept (a body here is text): answers with an empty body`,
    };
  }
}

/** The headers kept, named as recorded; repeated ones joined with ", ", a second Set-Cookie dropped. */
function headersOf(response: Obj, lost: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const lower = new Map<string, string>();
  const list = Array.isArray(response.headers) ? response.headers : [];
  for (const h of list) {
    if (!isObj(h) || typeof h.name !== 'string' || typeof h.value !== 'string') continue;
    const key = h.name.toLowerCase();
    // HTTP/2 pseudo-headers (`:status`), the content type (kept as the content type) and DROPPED.
    if (key.startsWith(':') || key === 'content-type' || DROPPED.has(key)) continue;
    if (!HEADER_NAME_PATTERN.test(h.name) || !HeaderValueSchema.safeParse(h.value).success) {
      lost.push(`header ${JSON.stringify(h.name)} left out: its name or value cannot be sent`);
      continue;
    }
    const name = lower.get(key);
    if (name === undefined) {
      lower.set(key, h.name);
      out[h.name] = h.value;
    } else if (key === 'set-cookie') {
      lost.push(
        `only the first Set-Cookie kept (an answer here has one value per header): ${h.value.split(';')[0]} left out`,
      );
    } else out[name] = `${out[name]}, ${h.value}`;
  }
  return out;
}

/**
 * The answer of a recorded response, or why it cannot be one: status 0 (failed, blocked or
 * cancelled: no response) or 1xx (a web socket upgrade, an interim answer).
 */
export function answerOf(response: Obj): Answer | { skip: string } {
  const status = response.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status <= 0)
    return { skip: 'no response recorded (status 0: the request failed, was blocked or cancelled)' };
  if (status < 200)
    return { skip: `status ${status} is an interim answer (a web socket upgrade?), not a response` };
  if (status > STATUS_MAX) return { skip: `status ${status} is not an HTTP status (100–${STATUS_MAX})` };
  const lost: string[] = [];
  const headers = headersOf(response, lost);
  const { body, lost: bodyLost } = bodyOf(response);
  if (bodyLost) lost.push(bodyLost);
  const answer: Answer = { status, headers, body, lost };
  const contentType = mimeTypeOf(response);
  if (contentType && ContentTypeSchema.safeParse(contentType).success) answer.contentType = contentType;
  return answer;
}

/** Answers that are the same to a client: status, content type and body. */
export const answerKey = (a: Answer): string => `${a.status}\u0000${a.contentType ?? ''}\u0000${a.body}`;
