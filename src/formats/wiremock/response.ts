import type { Delay } from '../../core/model/fields.js';
import { DELAY_MAX_MS, DELAY_SIGMA_MAX, DRIP_MAX_BYTES_PER_SECOND } from '../../core/model/limits.js';
import type { WireMockSource } from '../converted.js';
import { isObject } from './matchers.js';

/**
 * A WireMock mapping's `response` as mockdev's response fields: status, headers (Content-Type
 * as the content type), the body (`body`, `jsonBody`, `base64Body`, `bodyFileName` from
 * `__files`), delays, faults, and `proxyBaseUrl` as a proxy target.
 */

export interface Answer {
  status: number;
  statusText?: string;
  headers: Record<string, string>;
  body: string;
  contentType: string;
  delay: Delay;
  fault?: string;
  /** Templates render (the mapping lists the response-template transformer). */
  templating: boolean;
  /** proxyBaseUrl: requests are forwarded there. */
  proxyBaseUrl?: string;
  proxyUrlPrefixToRemove?: string;
}

const FAULTS: Record<string, { fault: string; lost?: string }> = {
  CONNECTION_RESET_BY_PEER: { fault: 'reset' },
  EMPTY_RESPONSE: { fault: 'empty' },
  RANDOM_DATA_THEN_CLOSE: { fault: 'garbage' },
  MALFORMED_RESPONSE_CHUNK: {
    fault: 'garbage',
    lost: 'fault MALFORMED_RESPONSE_CHUNK is sent as random bytes then close (garbage), not as a valid start then a bad chunk',
  },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text, or undefined when they are not UTF-8 (a body here is text). */
function text(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const ms = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;

/** A delay within the limit; over it, the limit (said in `notes`). */
function capped(v: number, notes: string[]): number {
  if (v <= DELAY_MAX_MS) return v;
  notes.push(`a delay of ${v} ms is cut to ${DELAY_MAX_MS} ms (the longest delay)`);
  return DELAY_MAX_MS;
}

/** fixedDelayMilliseconds and delayDistribution (WireMock adds them) as one delay. */
function readDelay(r: Record<string, unknown>, notes: string[]): Delay {
  const fixed = ms(r.fixedDelayMilliseconds) ?? 0;
  const d = r.delayDistribution;
  if (d === undefined) return capped(fixed, notes);
  if (isObject(d) && d.type === 'uniform' && ms(d.lower) !== undefined && ms(d.upper) !== undefined) {
    const lower = capped(ms(d.lower)! + fixed, notes);
    const upper = capped(ms(d.upper)! + fixed, notes);
    return { uniform: [Math.min(lower, upper), Math.max(lower, upper)] };
  }
  if (isObject(d) && d.type === 'lognormal' && ms(d.median) !== undefined && typeof d.sigma === 'number') {
    if (fixed > 0)
      notes.push(
        'fixedDelayMilliseconds with a lognormal delayDistribution: the fixed delay is added to the median',
      );
    let sigma = d.sigma;
    if (!(sigma >= 0 && sigma <= DELAY_SIGMA_MAX)) {
      notes.push(
        `delayDistribution sigma ${sigma} is outside 0 to ${DELAY_SIGMA_MAX}: ${DELAY_SIGMA_MAX} is used`,
      );
      sigma = sigma < 0 ? 0 : DELAY_SIGMA_MAX;
    }
    return { lognormal: { median: capped(ms(d.median)! + fixed, notes), sigma } };
  }
  notes.push(
    `delayDistribution ${JSON.stringify(d)} is not supported (uniform and lognormal are): no random delay`,
  );
  return capped(fixed, notes);
}

/** The response headers (a list of values joined), the Content-Type taken out. */
function readHeaders(
  raw: unknown,
  notes: string[],
): { headers: Record<string, string>; contentType?: string } {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  if (!isObject(raw)) return { headers };
  for (const [name, value] of Object.entries(raw)) {
    let v: string;
    if (Array.isArray(value)) {
      v = value.map(String).join(', ');
      if (value.length > 1)
        notes.push(`header "${name}" has ${value.length} values: sent as one, joined with ", "`);
    } else v = String(value);
    if (name.toLowerCase() === 'content-type') contentType = v;
    else headers[name] = v;
  }
  return { headers, ...(contentType ? { contentType } : {}) };
}

const looksJson = (s: string): boolean => {
  const t = s.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** The body and, when the mapping names none, the content type it implies; or why it is skipped. */
function readBody(
  r: Record<string, unknown>,
  source: WireMockSource,
): { body: string; json: boolean } | string {
  if (r.jsonBody !== undefined) return { body: JSON.stringify(r.jsonBody), json: true };
  if (typeof r.base64Body === 'string') {
    const decoded = text(Buffer.from(r.base64Body, 'base64'));
    if (decoded === undefined) return 'base64Body is not UTF-8 text (a response body here is text)';
    return { body: decoded, json: looksJson(decoded) };
  }
  if (typeof r.bodyFileName === 'string') {
    if (r.bodyFileName.includes('{{'))
      return `bodyFileName "${r.bodyFileName}" is a template (the file depends on the request), which is not supported`;
    const bytes = source.bodyFile(r.bodyFileName);
    if (bytes === undefined) return `bodyFileName "${r.bodyFileName}" is not in __files`;
    const decoded = text(bytes);
    if (decoded === undefined)
      return `bodyFileName "${r.bodyFileName}" is not UTF-8 text (a response body here is text)`;
    return { body: decoded, json: /\.json$/i.test(r.bodyFileName) || looksJson(decoded) };
  }
  const body = r.body === undefined || r.body === null ? '' : String(r.body);
  return { body, json: looksJson(body) };
}

/** The mapping's response, or why it is skipped; `notes` gets what is approximate. */
export function readResponse(
  response: unknown,
  templating: boolean,
  source: WireMockSource,
  notes: string[],
): Answer | string {
  if (!isObject(response)) return 'response is not an object';
  const status = response.status === undefined ? 200 : response.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    return `response.status ${JSON.stringify(status)} is not a status from 200 to 599`;
  const { headers, contentType } = readHeaders(response.headers, notes);
  const delay = readDelay(response, notes);
  const answer: Answer = {
    status,
    headers,
    body: '',
    contentType: contentType ?? 'text/plain',
    delay,
    templating,
  };
  if (typeof response.statusMessage === 'string' && response.statusMessage.trim())
    answer.statusText = response.statusMessage.trim();
  if (typeof response.proxyBaseUrl === 'string') {
    answer.proxyBaseUrl = response.proxyBaseUrl;
    if (typeof response.proxyUrlPrefixToRemove === 'string')
      answer.proxyUrlPrefixToRemove = response.proxyUrlPrefixToRemove;
    if (response.additionalProxyRequestHeaders !== undefined)
      notes.push('additionalProxyRequestHeaders are not sent to the proxy target');
    return answer;
  }
  if (typeof response.fault === 'string') {
    const known = FAULTS[response.fault];
    if (known === undefined) return `fault "${response.fault}" is not one mockdev can answer with`;
    answer.fault = known.fault;
    if (known.lost) notes.push(known.lost);
  }
  const body = readBody(response, source);
  if (typeof body === 'string') return body;
  answer.body = body.body;
  if (contentType === undefined) answer.contentType = body.json ? 'application/json' : 'text/plain';
  const dribble = response.chunkedDribbleDelay;
  if (isObject(dribble) && answer.fault === undefined) {
    const total = ms(dribble.totalDuration) ?? 0;
    const bytes = Buffer.byteLength(answer.body);
    if (total > 0 && bytes > 0) {
      const rate = Math.min(DRIP_MAX_BYTES_PER_SECOND, Math.max(1, Math.ceil((bytes * 1000) / total)));
      answer.fault = `drip:${rate}`;
      notes.push(
        `chunkedDribbleDelay is sent as a steady ${rate} bytes per second (about ${total} ms in all), not in ${String(dribble.numberOfChunks)} chunks`,
      );
    } else notes.push('chunkedDribbleDelay over an empty body or no duration is left out');
  }
  return answer;
}
