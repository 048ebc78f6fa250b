import { parse as parseYaml } from 'yaml';
import { compileRoutes } from '../core/match/router.js';
import { MockdevError, type Wording } from '../core/errors.js';
import { parseJsonBody } from '../core/sliced-json.js';
import { jsonSyntaxProblem, parseInput } from '../core/validate.js';
import { withReach, type AppContext } from '../app/context.js';
import { bodyTooLarge, DEFAULT_BODY_LIMIT_BYTES, type BodyLimit } from '../http/body.js';
import { createGuard, type Headers } from '../http/guard.js';
import { methodNotAllowed, problemReply, type HttpReply } from '../http/reply.js';
import { createAuth } from './auth.js';
import { UI_WORDING, UI_WORDING_HEADER } from './ui-wording.js';
import { API_REACH, isReply, isStream, type ApiServices, type ApiStream, type Route } from './route.js';

/**
 * The admin API as a function (docs/admin-api.md): a request in, a reply out, no socket (http.ts
 * is the adapter that listens). Every request passes the same checks, in order:
 *
 *   guard    -> the HTTP guard (http/guard.ts): a Host that is not a loopback name on a loopback
 *               bind, 403 FORBIDDEN_HOST; an Origin that is not this server's own, 403
 *               FORBIDDEN_ORIGIN; with a token, neither `Authorization: Bearer <token>` nor a
 *               signed-in session (auth.ts), 401 (only /session answers without: it signs in)
 *   route    -> 404 for an unknown path, 405 for a known path with another method
 *   type     -> a body must be application/json (or a type the route names): 415 otherwise, so
 *               no plain HTML form or `text/plain` fetch can change anything (no CSRF)
 *   size     -> a body over the route's limit (1 MiB; endpoint contents 16 MiB; an OpenAPI
 *               document 32 MiB): 413. The adapter (http.ts) asks `accept` before reading a byte.
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
  headers: Headers;
  body: string;
  /** Aborted when the client goes away before its answer (a long wait stops then). */
  signal?: AbortSignal;
}

/** A reply: status, headers and the body text (JSON, problem+json, YAML…; '' for none). */
export type ApiResponse = HttpReply;

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

/** What the checks that need no body say of a request: its refusal, or the body limit of its route. */
export type Acceptance = { ok: true; limit: BodyLimit } | { ok: false; reply: ApiResponse };

export interface ApiHandler {
  (request: ApiRequest): Promise<ApiResponse | ApiStream>;
  /**
   * The checks before the body (guard, route, type): what an adapter asks before it reads the
   * body, so that a refused request or an oversized body is never read. `hasBody`: the request
   * announces one (Content-Length above 0, or chunked).
   */
  accept(request: Omit<ApiRequest, 'body'> & { hasBody: boolean }): Acceptance;
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
      importContract: `import it with POST ${API_PREFIX}/projects/${p}/contract`,
    }[name];
  },
};

const JSON_TYPE = 'application/json';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const json = (status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'Content-Type': `${JSON_TYPE}; charset=utf-8`, ...headers },
  body: JSON.stringify(value),
});

/**
 * The problem reply of an error (http/reply.ts, worded for the API): the catalogue's status and
 * title; an unknown error is a bare 500, told to `onInternalError`.
 */
export function problemOf(
  e: unknown,
  onInternalError?: (e: Error) => void,
  say: Wording = API_WORDING,
): ApiResponse {
  if (!(e instanceof MockdevError)) onInternalError?.(e instanceof Error ? e : new Error(String(e)));
  return problemReply(e, { say });
}

/** The words a request asks hints in: the web UI's (`X-Mockdev-Wording: ui`), else the API's. */
export const wordingOf = (headers: Headers): Wording =>
  headers[UI_WORDING_HEADER]?.trim().toLowerCase() === 'ui' ? UI_WORDING : API_WORDING;

const mediaType = (value: string | undefined): string => (value ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Parses a body by its media type: JSON (a large one in slices, others served meanwhile), or
 * YAML where a route accepts it.
 */
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
    return await parseJsonBody(text);
  } catch (e) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `The request body is not valid JSON: ${jsonSyntaxProblem(e)}`,
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

  const guard = createGuard({
    what: 'the admin API',
    loopback: options.loopback,
    origins: options.origins,
    auth,
    open: (path) => path.replace(/\/$/, '') === SESSION_PATH,
    tokenHint: `or sign in with POST ${SESSION_PATH} {"token": "…"} (the token mockdev ui was started with)`,
  });

  /** The route of a request and its body limit, or the refusal: guard, route, type. */
  const check = (request: Omit<ApiRequest, 'body'>, hasBody: boolean) => {
    const method = request.method.toUpperCase();
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    guard(request.headers, path);
    const found = table.match(method, path);
    if (!found) {
      if (anyMethod.match('ANY', path)) throw methodNotAllowed(method, path, allowedFor(path));
      throw new MockdevError(
        'NOT_FOUND',
        `No admin API route ${method} ${path}; see GET ${API_PREFIX}/openapi.json`,
      );
    }
    const route = found.endpoint.route;
    const type = mediaType(request.headers['content-type']);
    const accepted = route.bodyTypes ?? [JSON_TYPE];
    if (MUTATING.has(method) && (hasBody || route.body !== undefined) && !accepted.includes(type))
      throw new MockdevError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${method} ${path} takes ${accepted.join(' or ')}${type ? `, not ${type}` : ' (no Content-Type was sent)'}`,
      );
    const limit: BodyLimit = {
      bytes: route.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      name: `the limit of ${route.method} ${API_PREFIX}${route.path}`,
    };
    return { found, route, path, q, type, limit };
  };

  const handler = (async (request) => {
    const say = wordingOf(request.headers);
    let checked: ReturnType<typeof check>;
    try {
      checked = check(request, request.body !== '');
      const { bytes } = checked.limit;
      if (request.body.length * 3 > bytes && Buffer.byteLength(request.body) > bytes)
        throw bodyTooLarge(checked.limit);
    } catch (e) {
      return problemOf(e, onInternalError, say);
    }
    const { found, route, q, type } = checked;
    const headers = request.headers;
    try {
      const params = found.params; // decoded by the matcher
      const rawQuery: Record<string, string> = {};
      if (q !== -1) for (const [k, v] of new URLSearchParams(request.url.slice(q + 1))) rawQuery[k] ??= v;
      const query = route.query ? parseInput(route.query, rawQuery, 'query') : rawQuery;
      // A route without a body schema reads the text itself (an OpenAPI document): not parsed twice.
      const body = route.body
        ? parseInput(route.body, await parseBody(request.body, type), 'body')
        : undefined;
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
        say,
        signal: request.signal,
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
      return problemOf(e, onInternalError, say);
    }
  }) as ApiHandler;
  handler.accept = (request) => {
    try {
      return { ok: true, limit: check(request, request.hasBody).limit };
    } catch (e) {
      return { ok: false, reply: problemOf(e, onInternalError, wordingOf(request.headers)) };
    }
  };
  return handler;
}
