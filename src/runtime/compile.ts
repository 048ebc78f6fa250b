import { compileRoutes, type CompiledRoutes } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import type { SharedResponse } from '../store/request-log.js';

/**
 * Everything a response needs, computed once per endpoint when the endpoints are (re)loaded,
 * so that answering a request is a lookup plus one write: no header building, no encoding.
 */
export interface CompiledResponse {
  status: number;
  /** Flat [name, value, ...] list for res.writeHead, Content-Length included. */
  headers: string[];
  body: Buffer;
  /**
   * The body as a string when it came as text: node then sends headers and body in one
   * write instead of a writev of two buffers, which is measurably cheaper per response.
   */
  wireBody: Buffer | string;
  delay: number;
  /** The response as the request log stores it. */
  logHeadersJson: string;
  logBody: Buffer;
  logTruncated: boolean;
  /** Set for an endpoint's response: the log stores it once for all the records it answers. */
  shared: SharedResponse | undefined;
}

export interface CompiledEndpoint {
  id: string;
  method: string;
  path: string;
  enabled: boolean;
  endpoint: Endpoint;
  response: CompiledResponse;
}

export interface CompiledProject {
  routes: CompiledRoutes<CompiledEndpoint>;
  endpoints: Endpoint[];
  /** Whether an enabled OPTIONS endpoint exists at all (else preflights are answered by CORS). */
  hasOptions: boolean;
  /** Request target -> endpoint (null: none), per method: repeated URLs skip matching. */
  cache: Map<string, Map<string, CompiledEndpoint | null>>;
}

const CACHE_LIMIT = 2048;

/** The endpoint answering METHOD URL, through the per-project cache. */
export function lookup(project: CompiledProject, method: string, url: string): CompiledEndpoint | null {
  let byUrl = project.cache.get(method);
  if (byUrl === undefined) project.cache.set(method, (byUrl = new Map()));
  let hit = byUrl.get(url);
  if (hit === undefined) {
    hit = project.routes.match(method, url)?.endpoint ?? null;
    if (byUrl.size >= CACHE_LIMIT) byUrl.clear();
    byUrl.set(url, hit);
  }
  return hit;
}

export const CORS_ALLOW_ORIGIN = 'Access-Control-Allow-Origin';

/** Builds a response from status, headers, body and content type (CORS origin added unless set). */
export function compileResponse(
  input: {
    status: number;
    headers: Record<string, string>;
    body: string | Buffer;
    contentType?: string;
    delay?: number;
  },
  bodyLimitBytes: number,
  options: { shared?: boolean } = {},
): CompiledResponse {
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body;
  const given = Object.entries(input.headers).filter(([k]) => k.toLowerCase() !== 'content-length');
  const has = (name: string) => given.some(([k]) => k.toLowerCase() === name.toLowerCase());
  const pairs: [string, string][] = [];
  if (input.contentType && !has('content-type')) pairs.push(['Content-Type', input.contentType]);
  pairs.push(...given);
  if (!has(CORS_ALLOW_ORIGIN)) pairs.push([CORS_ALLOW_ORIGIN, '*']);
  pairs.push(['Content-Length', String(body.length)]);
  const logHeaders: Record<string, string> = {};
  for (const [k, v] of pairs) logHeaders[k] = v;
  const logTruncated = body.length > bodyLimitBytes;
  const logHeadersJson = JSON.stringify(logHeaders);
  const logBody = logTruncated ? body.subarray(0, bodyLimitBytes) : body;
  return {
    status: input.status,
    headers: pairs.flat(),
    body,
    wireBody: typeof input.body === 'string' ? input.body : body,
    delay: input.delay ?? 0,
    logHeadersJson,
    logBody,
    logTruncated,
    shared: options.shared ? { headersJson: logHeadersJson, body: logBody } : undefined,
  };
}

/** The response an endpoint gives now: its active variation if one is set, else its own. */
export function activeResponse(
  e: Endpoint,
): Pick<Endpoint, 'status' | 'headers' | 'body' | 'contentType' | 'delay'> {
  const v = e.activeVariationId ? e.variations.find((x) => x.id === e.activeVariationId) : undefined;
  return v ?? e;
}

export function compileProject(endpoints: Endpoint[], bodyLimitBytes: number): CompiledProject {
  const compiled: CompiledEndpoint[] = endpoints.map((e) => {
    const r = activeResponse(e);
    return {
      id: e.id,
      method: e.method,
      path: e.path,
      enabled: e.enabled,
      endpoint: e,
      response: compileResponse(
        { status: r.status, headers: r.headers, body: r.body, contentType: r.contentType, delay: r.delay },
        bodyLimitBytes,
        { shared: true },
      ),
    };
  });
  const routes = compileRoutes(compiled);
  return { routes, endpoints, hasOptions: routes.hasMethod('OPTIONS'), cache: new Map() };
}
