import { parse as parseYaml } from 'yaml';
import { compileRoutes } from '../core/match/router.js';
import { ERROR_CATALOGUE, MockdevError, toMockdevError, type Wording } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { withReach, type AppContext } from '../app/context.js';
import { hostAllowed } from '../runtime/origin.js';
import { createAuth } from './auth.js';
import {
  API_REACH,
  ApiRefusal,
  isReply,
  isStream,
  type ApiServices,
  type ApiStream,
  type Route,
} from './route.js';

/**
 * The admin API as a function (docs/admin-api.md): a request in, a reply out, no socket (http.ts
 * is the adapter that listens). Every request passes the same checks, in order:
 *
 *   host     -> a Host that is not a loopback name: 403 (DNS rebinding), unless bound elsewhere
 *   origin   -> an Origin that is not this server's own: 403
 *   token    -> with a token, `Authorization: Bearer <token>` or a signed-in session (auth.ts): 401
 *               otherwise (only /session answers without: it signs in)
 *   route    -> 404 for an unknown path, 405 for a known path with another method
 *   type     -> a body must be application/json (or a type the route names): 415 otherwise, so
 *               no plain HTML form or `text/plain` fetch can change anything (no CSRF)
 *   validate -> query and body against the route's schemas: 400 with the field named
 *   handle   -> the route's handler; a MockdevError becomes problem+json with the catalogue's
 *               status, anything else a 500 without a stack
 */

export const API_PREFIX = '/api/v1';
const SESSION_PATH = `${API_PREFIX}/session`;

export interface ApiRequest {
  method: string;
  /** The request target: path and query, as received. */
  url: string;
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>;
  body: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The body text (JSON, problem+json, YAML…); '' for none. */
  body: string;
}

export interface ApiHandlerOptions {
  ctx: AppContext;
  routes: readonly Route[];
  services?: ApiServices;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** The server's own origins (http://127.0.0.1:3200, http://localhost:3200): other Origins get 403. */
  origins: () => readonly string[];
  /** Bound to a loopback address: Host must then name the loopback too. */
  loopback: boolean;
  /** Told of an unexpected error (logged with its stack at debug level). */
  onInternalError?: (e: Error) => void;
}

export interface ApiHandler {
  (request: ApiRequest): Promise<ApiResponse | ApiStream>;
}

/** How the admin API words hints: query and body fields, and the API call to make. */
export const API_WORDING: Wording = {
  option: (name) => `the "${name}" field`,
  turnOn: (name) => `set "${name}" to true`,
  action: (name, subject) => {
    const p = subject ? encodeURIComponent(subject) : '{project}';
    return {
      listProjects: `call GET ${API_PREFIX}/projects`,
      listEndpoints: `call GET ${API_PREFIX}/projects/${p}/endpoints`,
      listRequests: `call GET ${API_PREFIX}/projects/${p}/requests`,
      initProject: `create a project with POST ${API_PREFIX}/projects`,
      listServers: `call GET ${API_PREFIX}/servers`,
      activateLicense: `activate a license with POST ${API_PREFIX}/license/activate`,
      listEnvironments: `call GET ${API_PREFIX}/projects/${p}/environments`,
      listRecordings: `call GET ${API_PREFIX}/projects/${p}/endpoints/{endpoint}/recordings`,
    }[name];
  },
};

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const json = (status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'Content-Type': `${JSON_TYPE}; charset=utf-8`, ...headers },
  body: JSON.stringify(value),
});

/** An `application/problem+json` reply: `{ type, title, status, detail, code }` (+ details). */
export function problem(
  status: number,
  code: string,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { 'Content-Type': `${PROBLEM_TYPE}; charset=utf-8`, ...headers },
    body: JSON.stringify({ type: 'about:blank', title, status, detail, code, ...extra }),
  };
}

/** The problem reply of an error: the catalogue's status and title; an unknown error is a bare 500. */
export function problemOf(e: unknown, onInternalError?: (e: Error) => void): ApiResponse {
  const err = toMockdevError(e);
  if (err.code === 'INTERNAL') {
    onInternalError?.(e instanceof Error ? e : err);
    return problem(500, 'INTERNAL', ERROR_CATALOGUE.INTERNAL.title, err.message);
  }
  return problem(
    err.httpStatus,
    err.code,
    ERROR_CATALOGUE[err.code].title,
    err.describe(API_WORDING),
    err.details ? { details: err.details } : {},
  );
}

const mediaType = (value: string | undefined): string => (value ?? '').split(';')[0]!.trim().toLowerCase();

/** Parses a body by its media type: JSON, or YAML where a route accepts it. */
async function parseBody(text: string, type: string): Promise<unknown> {
  if (text.trim() === '') return undefined;
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    try {
      return parseYaml(text) as unknown;
    } catch (e) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `The request body is not valid YAML: ${(e as Error).message}`,
      );
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `The request body is not valid JSON: ${(e as Error).message}`,
      {
        hint: 'Send a JSON document with Content-Type: application/json',
      },
    );
  }
}

export function createApiHandler(options: ApiHandlerOptions): ApiHandler {
  const { onInternalError } = options;
  const ctx = withReach(options.ctx, API_REACH);
  const services = options.services ?? {};
  const auth = createAuth(options.token);
  // One matcher per method over the route paths; a path known under another method is a 405.
  const table = compileRoutes(
    options.routes.map((route) => ({
      method: route.method,
      path: API_PREFIX + route.path,
      enabled: true,
      route,
    })),
  );
  const anyMethod = compileRoutes(
    options.routes.map((route) => ({ method: 'ANY', path: API_PREFIX + route.path, enabled: true, route })),
  );
  const allowedFor = (path: string): string[] =>
    options.routes.filter((r) => table.match(r.method, path)?.endpoint.route === r).map((r) => r.method);

  /**
   * The server's own origins, and the origin of the page the request names in Host: a page
   * served here calls back to the address the browser used (another machine's 192.168.1.5:3200
   * when bound to 0.0.0.0 with a token). A loopback server has refused any other Host already.
   */
  const isOwnOrigin = (origin: string, host: string | undefined): boolean =>
    options.origins().includes(origin) || (host !== undefined && origin === `http://${host}`);

  return async (request) => {
    const method = request.method.toUpperCase();
    const headers = request.headers;
    if (options.loopback && !hostAllowed(headers.host))
      return problem(
        403,
        'FORBIDDEN',
        'Forbidden',
        `Host "${headers.host}" is not this machine (DNS rebinding protection)`,
      );
    const origin = headers.origin;
    if (origin !== undefined && origin !== '' && !isOwnOrigin(origin.replace(/\/$/, ''), headers.host))
      return problem(
        403,
        'FORBIDDEN',
        'Forbidden',
        `Origin "${origin}" is not this server's own: the admin API answers only its own UI and clients without an Origin`,
      );
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    // Signing in (and asking whether one must) is the one thing a request without the token may do.
    if (!auth.allows(headers) && path.replace(/\/$/, '') !== SESSION_PATH)
      return problem(
        401,
        'UNAUTHORIZED',
        'Unauthorized',
        `This admin API needs a token: send "Authorization: Bearer <token>", or sign in with POST ${SESSION_PATH} {"token": "…"} (the --token given to mockdev ui, or MOCKDEV_UI_TOKEN)`,
        {},
        { 'WWW-Authenticate': 'Bearer' },
      );

    const found = table.match(method, path);
    if (!found) {
      if (anyMethod.match('ANY', path)) {
        const allow = allowedFor(path);
        return problem(
          405,
          'METHOD_NOT_ALLOWED',
          'Method not allowed',
          `${method} is not allowed on ${path}; use ${allow.join(', ')}`,
          {},
          { Allow: allow.join(', ') },
        );
      }
      return problem(
        404,
        'NOT_FOUND',
        'Not found',
        `No admin API route ${method} ${path}; see GET ${API_PREFIX}/openapi.json`,
      );
    }
    const route = found.endpoint.route;

    const type = mediaType(headers['content-type']);
    const accepted = route.bodyTypes ?? [JSON_TYPE];
    if (MUTATING.has(method) && (request.body !== '' || route.body !== undefined) && !accepted.includes(type))
      return problem(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported media type',
        `${method} ${path} takes ${accepted.join(' or ')}${type ? `, not ${type}` : ' (no Content-Type was sent)'}`,
      );

    try {
      const params = found.params; // decoded by the matcher
      const rawQuery: Record<string, string> = {};
      if (q !== -1) for (const [k, v] of new URLSearchParams(request.url.slice(q + 1))) rawQuery[k] ??= v;
      const query = route.query ? parseInput(route.query, rawQuery, 'query') : rawQuery;
      const parsed = await parseBody(request.body, type);
      const body = route.body ? parseInput(route.body, parsed, 'body') : parsed;
      const result = await route.handle({
        ctx,
        services,
        params,
        query: query as Record<string, string | undefined>,
        body,
        rawBody: request.body,
        contentType: type,
        headers,
        auth,
      });
      if (isStream(result)) return result;
      if (isReply(result)) {
        const r = result.reply;
        if (r.text !== undefined)
          return {
            status: r.status,
            headers: { 'Content-Type': r.contentType ?? 'text/plain; charset=utf-8', ...r.headers },
            body: r.text,
          };
        if (r.json === undefined) return { status: r.status, headers: { ...r.headers }, body: '' };
        return json(r.status, r.json, r.headers);
      }
      const status = route.response.status ?? 200;
      if (status === 204 || result === undefined) return { status: 204, headers: {}, body: '' };
      return json(status, result);
    } catch (e) {
      if (e instanceof ApiRefusal) return problem(e.status, e.code, e.title, e.message, {}, e.headers);
      return problemOf(e, onInternalError);
    }
  };
}
