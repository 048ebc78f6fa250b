import { HTTP_METHODS } from '../../core/model/limits.js';
import { bodyRules, isObject, namedRules, type Translated } from './matchers.js';

/**
 * A WireMock mapping's `request` as mockdev routes: the methods (ANY: one endpoint per common
 * method), the path (url / urlPath / urlPathTemplate, a regex when it is a plain literal or a
 * literal prefix followed by `.*`), and its matchers as variation rules.
 */

/** What `"method": "ANY"` (or no method) becomes: an endpoint per method (HEAD answers as GET). */
export const ANY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface Route {
  methods: string[];
  /** The path: a whole path, or with `prefix` the literal start every matched path has. */
  path: string;
  /** The mapping matches every path starting with `path` (a `.*` pattern, or no URL at all). */
  prefix: boolean;
  /** WireMock's text for the URL, for the report. */
  shown: string;
  conditions: Translated;
}

/**
 * The text a regex matches when it matches only one text (`/api/users`, `/api/v1\.json`), or
 * undefined when it has anything else (a class, a repetition, an alternative).
 */
export function regexLiteral(pattern: string): string | undefined {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i++;
    } else if ('.*+?()[]{}|^$'.includes(c)) return undefined;
    else out += c;
  }
  return out;
}

/** A urlPattern / urlPathPattern: `{ path, prefix }`, or undefined when it is more than a literal or a prefix. */
function patternRoute(pattern: string): { path: string; prefix: boolean } | undefined {
  const body = pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const literal = regexLiteral(body);
  if (literal !== undefined) return { path: literal, prefix: false };
  if (!body.endsWith('.*')) return undefined;
  const start = regexLiteral(body.slice(0, -2));
  return start === undefined ? undefined : { path: start, prefix: true };
}

/** The decoded path and the query's rules of a URL such as `/users?page=2&sort=name`. */
function splitUrl(url: string, out: Translated): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  for (const [key, value] of new URLSearchParams(url.slice(q + 1)))
    out.rules.push({ source: 'query', key, op: 'equals', value });
  return url.slice(0, q);
}

/** The route of a mapping's `request`, or why it is skipped. `notes` gets what is approximate. */
export function readRequest(request: unknown, notes: string[]): Route | string {
  if (!isObject(request)) return 'request is not an object';
  const conditions: Translated = { rules: [], lost: [] };
  const method = typeof request.method === 'string' ? request.method.trim().toUpperCase() : 'ANY';
  let methods: string[];
  if (method === 'ANY') methods = [...ANY_METHODS];
  else if ((HTTP_METHODS as readonly string[]).includes(method)) methods = [method];
  else return `request.method "${String(request.method)}" is not one of ${HTTP_METHODS.join(', ')} or ANY`;

  let path: string;
  let prefix = false;
  let shown: string;
  if (typeof request.url === 'string') {
    shown = request.url;
    path = splitUrl(request.url, conditions);
  } else if (typeof request.urlPath === 'string') {
    shown = path = request.urlPath;
  } else if (typeof request.urlPathTemplate === 'string') {
    shown = path = request.urlPathTemplate;
  } else if (typeof request.urlPattern === 'string' || typeof request.urlPathPattern === 'string') {
    const field = typeof request.urlPattern === 'string' ? 'urlPattern' : 'urlPathPattern';
    const pattern = request[field] as string;
    shown = pattern;
    const read = patternRoute(pattern);
    if (read === undefined)
      return `${field} ${JSON.stringify(pattern)} is a regular expression: only a literal path or a literal prefix followed by .* can be imported`;
    path = field === 'urlPattern' && !read.prefix ? splitUrl(read.path, conditions) : read.path;
    prefix = read.prefix;
    notes.push(
      read.prefix
        ? `${field} ${JSON.stringify(pattern)} is read as every path starting with ${JSON.stringify(read.path || '/')}`
        : `${field} ${JSON.stringify(pattern)} is read as the path ${JSON.stringify(path)}`,
    );
  } else {
    // No URL matcher: WireMock matches every URL.
    shown = '(any URL)';
    path = '';
    prefix = true;
  }
  if (!prefix && !path.startsWith('/')) path = `/${path}`;

  namedRules('query', 'queryParameters', request.queryParameters, conditions);
  namedRules('header', 'headers', request.headers, conditions);
  namedRules('param', 'pathParameters', request.pathParameters, conditions);
  bodyRules(request.bodyPatterns, conditions);
  if (request.cookies !== undefined)
    conditions.lost.push('cookies are not supported, so they are not checked');
  if (request.basicAuthCredentials !== undefined)
    conditions.lost.push('basicAuthCredentials are not supported, so they are not checked');
  if (request.multipartPatterns !== undefined)
    conditions.lost.push('multipartPatterns are not supported, so they are not checked');
  if (request.customMatcher !== undefined)
    conditions.lost.push('customMatcher is not supported, so it is not checked');
  if (method === 'ANY') notes.push(`method ANY is made for ${ANY_METHODS.join(', ')} (HEAD answers as GET)`);
  return { methods, path, prefix, shown, conditions };
}
