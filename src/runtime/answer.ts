import type { MockdevError } from '../core/errors.js';
import { HTTP_METHODS } from '../core/model/fields.js';
import type { LoggedResponse } from '../core/ports.js';
import { problemReply } from '../http/reply.js';

/**
 * An answer: a response ready to write, with what the request log stores of it. An endpoint's
 * static answer is built once when the endpoints are (re)loaded and then serves every request:
 * writing it is one writeHead and one end, and the log stores it once (`logged.shared`).
 */
export interface Answer {
  status: number;
  /** The reason phrase to send instead of node's standard one for the status; unset: that one. */
  statusText?: string;
  /** Flat [name, value, ...] list for res.writeHead, Content-Length included. */
  headers: string[];
  /**
   * The body as sent. A string when it came as text: node then writes headers and body in one
   * write instead of a writev of two buffers, which is measurably cheaper per response.
   */
  body: Buffer | string;
  /** What the log stores for a request answered with it. */
  logged: LoggedResponse;
  /** The same for a HEAD request: the headers, no body. */
  loggedHead: LoggedResponse;
  /** Already written to the response by its producer (a proxied answer, streamed): not sent again. */
  streamed?: boolean;
}

export const CORS_ALLOW_ORIGIN = 'Access-Control-Allow-Origin';

/** Statuses whose responses never have content. */
const BODILESS_STATUSES = new Set([204, 304]);

export interface AnswerInput {
  status: number;
  /** The reason phrase; empty or unset: the standard one. */
  statusText?: string;
  headers: Record<string, string>;
  body: string | Buffer;
  contentType?: string;
}

const NOT_PRINTABLE_ASCII = /[^\u0020-\u007e\t]/;
const beyondAscii = (text: string): boolean => NOT_PRINTABLE_ASCII.test(text);

/**
 * Builds an answer: `Content-Type` from contentType unless a header sets it, the CORS origin
 * unless set, Content-Length always. `shared`: the answer serves many requests (the log stores
 * it once); dynamic answers made for one request are not.
 */
export function buildAnswer(input: AnswerInput, bodyLimitBytes: number, shared: boolean): Answer {
  // 204 and 304 carry no content (RFC 9110 15.3.5, 15.4.5): no body, no Content-Type, no length.
  const bodiless = BODILESS_STATUSES.has(input.status);
  const text = bodiless ? '' : input.body;
  const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const given = Object.entries(input.headers).filter(([k]) => {
    const name = k.toLowerCase();
    return name !== 'content-length' && !(bodiless && name === 'content-type');
  });
  const has = (name: string) => given.some(([k]) => k.toLowerCase() === name.toLowerCase());
  const pairs: [string, string][] = [];
  if (input.contentType && !bodiless && !has('content-type')) pairs.push(['Content-Type', input.contentType]);
  pairs.push(...given);
  if (!has(CORS_ALLOW_ORIGIN)) pairs.push([CORS_ALLOW_ORIGIN, '*']);
  if (!bodiless) pairs.push(['Content-Length', String(body.length)]);
  const logHeaders: Record<string, string> = {};
  for (const [k, v] of pairs) logHeaders[k] = v;
  const headersJson = JSON.stringify(logHeaders);
  const truncated = body.length > bodyLimitBytes;
  // node writes a string body in one write with the head, encoding both as UTF-8; a status text
  // or header value beyond ASCII must go out as Latin-1, which it does when the body is bytes.
  const headBeyondAscii = beyondAscii(input.statusText ?? '') || pairs.some(([, v]) => beyondAscii(v));
  return {
    status: input.status,
    statusText: input.statusText || undefined,
    headers: pairs.flat(),
    body: typeof text === 'string' && !headBeyondAscii ? text : body,
    logged: { headersJson, body: truncated ? body.subarray(0, bodyLimitBytes) : body, truncated, shared },
    loggedHead: { headersJson, body: null, truncated: false, shared },
  };
}

/**
 * The answer of an error: the problem of every HTTP surface (http/reply.ts, core/problem.ts),
 * with members of the mock server's own (`extensions`: the endpoint, the closest endpoints).
 */
export function problemAnswer(
  error: MockdevError,
  extensions: Record<string, unknown>,
  bodyLimitBytes: number,
  shared: boolean,
): Answer {
  const { status, headers, body } = problemReply(error, { extensions });
  return buildAnswer({ status, headers, body }, bodyLimitBytes, shared);
}

/** The methods a CORS preflight allows: every method an endpoint can have. */
export const PREFLIGHT_METHODS = HTTP_METHODS.join(', ');
