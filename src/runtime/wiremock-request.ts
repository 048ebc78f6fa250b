import { splitPath } from '../core/match/router.js';
import { parseCookies, RequestPath } from '../core/templates/request-path.js';
import { VALUE_LISTS } from '../core/templates/engine.js';
import type { Exchange } from './exchange.js';

/**
 * WireMock's `request.*` model of a request (docs/templates.md): `request.url`, `request.path`
 * and its segments, `request.query.x` and `request.headers.x` (the first value; the lists of all
 * values behind the names syntax.ts gives `request.query.x.[1]` and `{{#each request.query.x}}`),
 * `request.cookies`, `request.baseUrl`, `request.body`. Each part is worked out when first read.
 */

const decode = (s: string): string => {
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Calls `add` with each parameter of a request target's query string, decoded. */
function eachParameter(url: string, add: (key: string, value: string) => void): void {
  const q = url.indexOf('?');
  if (q === -1) return;
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    add(decode(eq === -1 ? pair : pair.slice(0, eq)), eq === -1 ? '' : decode(pair.slice(eq + 1)));
  }
}

/** A query string's parameters, decoded; a repeated key keeps its first value. */
export function parseQuery(url: string): Record<string, string> {
  const query: Record<string, string> = {};
  eachParameter(url, (k, v) => {
    if (!own(query, k)) query[k] = v;
  });
  return query;
}

/** A query string's parameters, each with all its values in order. */
export function parseQueryLists(url: string): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  eachParameter(url, (k, v) => {
    if (own(query, k)) query[k]!.push(v);
    else query[k] = [v];
  });
  return query;
}

/** Raw header names and values (node's rawHeaders) as lists of values by lower-cased name. */
export function headerLists(raw: readonly string[]): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (own(headers, name)) headers[name]!.push(raw[i + 1]!);
    else headers[name] = [raw[i + 1]!];
  }
  return headers;
}

/** What the WireMock model reads of the request's context. */
export interface RequestSource {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly bodyRaw: string;
}

/** WireMock's `request.*` names. */
export class WireMockRequest {
  readonly url: string;
  readonly path: RequestPath;
  readonly method: string;
  readonly pathSegments: string[];
  readonly #ctx: RequestSource;
  readonly #ex: Exchange;
  readonly #queryLists: () => Record<string, string[]>;
  #cookies: Record<string, string> | undefined;
  #headerLists: Record<string, string[]> | undefined;
  /** `queryLists`: all the values of each query parameter (`request.query.x.[1]`). */
  constructor(ctx: RequestSource, ex: Exchange, queryLists: () => Record<string, string[]>) {
    this.#ctx = ctx;
    this.#ex = ex;
    this.#queryLists = queryLists;
    this.url = ex.url;
    this.method = ctx.method;
    this.pathSegments = splitPath(ctx.path).map(decode);
    this.path = new RequestPath(ctx.path, this.pathSegments);
  }
  get cookies(): Record<string, string> {
    return (this.#cookies ??= parseCookies(this.#ctx.headers.cookie ?? ''));
  }
  get baseUrl(): string {
    const tls = (this.#ex.req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
    return `${tls ? 'https' : 'http'}://${this.#ctx.headers.host ?? 'localhost'}`;
  }
  get query(): Record<string, string> {
    return this.#ctx.query;
  }
  get headers(): Record<string, string> {
    return this.#ctx.headers;
  }
  get [VALUE_LISTS.query](): Record<string, string[]> {
    return this.#queryLists();
  }
  get [VALUE_LISTS.headers](): Record<string, string[]> {
    return (this.#headerLists ??= headerLists(this.#ex.req.rawHeaders));
  }
  get body(): string {
    return this.#ctx.bodyRaw;
  }
}
