import { HeaderValueSchema } from '../../core/model/fields.js';
import { HEADER_NAME_PATTERN } from '../../core/model/limits.js';
import type { Rule } from '../../core/model/rules.js';
import { isHopByHop } from '../../core/proxy/headers.js';
import { isObj, readPairs, readUrl, scalarText, type Obj, type Pair } from './shapes.js';

/**
 * A saved example response of a Postman request as one of our responses (its status, headers,
 * content type and body, as Postman's mock server sends them), and the rules that tell it from
 * the first example by the request it was saved for (`originalRequest`). Pure.
 */

export interface ExampleResponse {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  body: string;
}

/** Headers not kept: the body is stored decoded and whole, and the server frames it itself. */
const FRAMING = new Set(['content-length', 'content-encoding']);
const NO_CONNECTION_NAMES: ReadonlySet<string> = new Set();

/** What `_postman_previewlanguage` says of a body without a Content-Type header. */
const PREVIEW_TYPES: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  javascript: 'application/javascript',
  text: 'text/plain',
};

function looksLikeJson(body: string): boolean {
  const t = body.trim();
  if (!/^[[{]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * The example as a response; `lost` is told of each part that could not be kept (a header we
 * cannot send, a second value of a header, a status that is not one).
 */
export function exampleResponse(ex: Obj, lost: (what: string) => void): ExampleResponse {
  const code = typeof ex.code === 'number' ? ex.code : Number(scalarText(ex.code));
  let status = 200;
  if (Number.isInteger(code) && code >= 200 && code <= 599) status = code;
  else lost(`its status ${JSON.stringify(ex.code ?? null)} is not a final HTTP status: it answers 200`);
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>(); // lower-case name -> the name as kept
  let contentType: string | undefined;
  for (const { key, value } of readPairs(ex.header)) {
    const lower = key.toLowerCase();
    if (lower === 'content-type') {
      contentType ??= value;
      continue;
    }
    if (FRAMING.has(lower) || isHopByHop(lower, NO_CONNECTION_NAMES)) continue;
    if (!HEADER_NAME_PATTERN.test(key) || !HeaderValueSchema.safeParse(value).success) {
      lost(`header ${JSON.stringify(key)} is left out: not a name or value HTTP can carry`);
      continue;
    }
    const kept = seen.get(lower);
    if (kept === undefined) {
      seen.set(lower, key);
      headers[key] = value;
    } else if (lower === 'set-cookie') {
      lost(`only the first Set-Cookie header is kept (a response here sends one value per header)`);
    } else {
      headers[kept] = `${headers[kept]}, ${value}`;
    }
  }
  const body = scalarText(ex.body) ?? '';
  const preview = scalarText(ex._postman_previewlanguage);
  contentType ??=
    (preview !== undefined ? PREVIEW_TYPES[preview] : undefined) ??
    (body === '' || looksLikeJson(body) ? 'application/json' : 'text/plain');
  return { status, headers, contentType, body };
}

/** Request headers that say nothing of which answer the client wants (clients add them). */
const CLIENT_HEADERS = new Set([
  'host',
  'user-agent',
  'accept-encoding',
  'content-length',
  'connection',
  'cache-control',
  'postman-token',
  'cookie',
  'authorization',
]);

/** A value naming a Postman variable (`{{token}}`): not what a request sends, so no rule. */
const VARIABLE = /\{\{[^{}]*\}\}/;

/** What an example was saved for: its query, headers and path segments (undefined: not said). */
export interface ExampleRequest {
  query: Pair[];
  headers: Pair[];
  segments: string[];
}

export function exampleRequest(ex: Obj): ExampleRequest | undefined {
  const req = ex.originalRequest;
  if (!isObj(req)) return undefined;
  const url = readUrl(req.url);
  return { query: url.query, headers: readPairs(req.header), segments: url.segments };
}

/** Percent-escapes decoded, as the server reads a query (text that is not valid escaping: as written). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The first value of each name: a query's (decoded), or headers' (names lower-cased). */
const firstValues = (pairs: Pair[], lowerKeys: boolean): Map<string, string> => {
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const key = lowerKeys ? pair.key.toLowerCase() : decoded(pair.key).trim();
    const value = lowerKeys ? pair.value : decoded(pair.value);
    if (key !== '' && !out.has(key)) out.set(key, value);
  }
  return out;
};

/**
 * The rules of a variation: each query parameter and header its example's request sent with a
 * value the first example's request did not (equals, the first value of a repeated name), and
 * each path parameter its request filled with a literal (`/users/42` for `/users/{id}`:
 * `param.id` equals 42) where the first one's did not have the same. Values naming a Postman
 * variable, headers any client adds and Postman's own `x-mock-*` controls say nothing: no rule.
 */
export function variationRules(
  example: ExampleRequest | undefined,
  base: ExampleRequest | undefined,
  params: (string | undefined)[],
): Rule[] {
  if (!example) return [];
  const rules: Rule[] = [];
  const baseQuery = firstValues(base?.query ?? [], false);
  for (const [key, value] of firstValues(example.query, false)) {
    if (VARIABLE.test(value) || VARIABLE.test(key) || baseQuery.get(key) === value) continue;
    rules.push({ source: 'query', key, op: 'equals', value });
  }
  const baseHeaders = firstValues(base?.headers ?? [], true);
  for (const [key, value] of firstValues(example.headers, true)) {
    if (CLIENT_HEADERS.has(key) || key.startsWith('x-mock-') || !HEADER_NAME_PATTERN.test(key)) continue;
    if (VARIABLE.test(value) || baseHeaders.get(key) === value) continue;
    rules.push({ source: 'header', key, op: 'equals', value });
  }
  if (example.segments.length === params.length) {
    params.forEach((param, i) => {
      const value = example.segments[i]!;
      if (param === undefined || /^:|\{/.test(value) || base?.segments[i] === value) return;
      rules.push({ source: 'param', key: param, op: 'equals', value });
    });
  }
  return rules;
}
