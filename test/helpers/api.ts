import { createContext, type AppContext } from '../../src/app/context.js';
import { createApiHandler, type ApiResponse } from '../../src/api/handler.js';
import type { ApiServices, Route } from '../../src/api/route.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import type { AfterHook } from './cli-inprocess.js';
import { tempDir } from './cli.js';

/** The origin the in-process API takes for its own (what a browser on the UI would send). */
export const API_ORIGIN = 'http://127.0.0.1:3200';

export interface ApiCallOptions {
  /** A JSON value (sent as application/json), or text sent with `type`. */
  body?: unknown;
  /** The Content-Type of a text body (default application/json). */
  type?: string;
  headers?: Record<string, string>;
}

export interface ApiResult extends ApiResponse {
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export interface ApiSandbox {
  ctx: AppContext;
  dataDir: string;
  /** Calls the admin API in process (no socket): method and URL, e.g. call('GET', '/api/v1/projects'). */
  call(method: string, url: string, options?: ApiCallOptions): Promise<ApiResult>;
}

/**
 * The admin API's handler over a temp data directory, called in process. Options: a token the
 * handler requires, services (servers, events) and the routes (default: all of them).
 */
export function apiSandbox(
  t: AfterHook,
  options: {
    token?: string;
    services?: ApiServices;
    routes?: readonly Route[];
    env?: NodeJS.ProcessEnv;
    /** false: as a server bound to a non-loopback address (no Host check). Default true. */
    loopback?: boolean;
  } = {},
): ApiSandbox {
  const { dir, cleanup } = tempDir('mockdev-api-');
  t.after(cleanup);
  const ctx = createContext({ dataDir: dir, cwd: dir, env: options.env ?? {} });
  const handle = createApiHandler({
    ctx,
    routes: options.routes ?? ALL_ROUTES,
    services: options.services,
    token: options.token,
    origins: () => [API_ORIGIN, 'http://localhost:3200'],
    loopback: options.loopback ?? true,
  });
  return {
    ctx,
    dataDir: dir,
    async call(method, url, o = {}) {
      const headers: Record<string, string | undefined> = { host: '127.0.0.1:3200' };
      let body = '';
      if (o.body !== undefined) {
        body = typeof o.body === 'string' && o.type ? o.body : JSON.stringify(o.body);
        headers['content-type'] = o.type ?? 'application/json';
      }
      for (const [k, v] of Object.entries(o.headers ?? {})) headers[k.toLowerCase()] = v;
      const r = await handle({ method, url, headers, body });
      if ('stream' in r) throw new Error(`${method} ${url} answered a stream: test it over a socket`);
      let json: unknown;
      try {
        json = r.body === '' ? undefined : (JSON.parse(r.body) as unknown);
      } catch {
        json = undefined;
      }
      return { ...r, json };
    },
  };
}
