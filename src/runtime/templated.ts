import { compileRoutes, splitPath } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import {
  compileTemplate,
  isTemplate,
  type Template,
  type TemplateContext,
} from '../core/templates/engine.js';
import { buildAnswer, problemAnswer, type Answer } from './answer.js';
import type { Exchange } from './exchange.js';

/**
 * Templated responses at run time (docs/templates.md): the template context of a request, each
 * part worked out only when a template reads it (the body parsed at most once), and the plans of
 * responses whose body or header values are templates.
 */

export interface TemplateOptions {
  /** The environment's variables (`{{env.KEY}}`), read when the endpoints were (re)loaded. */
  env?: Record<string, string>;
  /** Told of a template that failed for a request (the request is answered 500). */
  onError?: (message: string) => void;
}

const decode = (s: string): string => {
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** Builds the context of one request: every part lazy, computed once. */
export function contextFor(
  e: Pick<Endpoint, 'method' | 'path'>,
  env: Record<string, string>,
): (ex: Exchange) => TemplateContext {
  let route: ReturnType<typeof compileRoutes> | undefined;
  return (ex) => {
    const url = ex.url;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let params: Record<string, string> | undefined;
    let query: Record<string, string> | undefined;
    let headers: Record<string, string> | undefined;
    let bodyRaw: string | undefined;
    let body: unknown;
    let bodyRead = false;
    const ctx = {
      method: ex.method,
      path,
      env,
      get params() {
        if (!params) {
          route ??= compileRoutes([{ method: e.method, path: e.path, enabled: true }]);
          params = { ...(route.match(e.method, url)?.params ?? {}) };
        }
        return params;
      },
      get query() {
        if (!query) {
          // Repeated keys: the first value.
          query = {};
          if (q !== -1)
            for (const pair of url.slice(q + 1).split('&')) {
              if (!pair) continue;
              const eq = pair.indexOf('=');
              const k = decode(eq === -1 ? pair : pair.slice(0, eq));
              if (!Object.prototype.hasOwnProperty.call(query, k))
                query[k] = eq === -1 ? '' : decode(pair.slice(eq + 1));
            }
        }
        return query;
      },
      get headers() {
        if (!headers) {
          // Lower-cased names, and the names as sent (WireMock's request.headers.X-Id).
          headers = {};
          const raw = ex.req.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) {
            const lower = raw[i]!.toLowerCase();
            if (!Object.prototype.hasOwnProperty.call(headers, lower)) {
              headers[lower] = raw[i + 1]!;
              headers[raw[i]!] = raw[i + 1]!;
            }
          }
        }
        return headers;
      },
      get bodyRaw() {
        return (bodyRaw ??= ex.body === null ? '' : ex.body.toString('utf8'));
      },
      get body() {
        if (!bodyRead) {
          bodyRead = true;
          const raw = ctx.bodyRaw;
          body = raw;
          if (raw !== '' && !ex.bodyTruncated) {
            try {
              body = JSON.parse(raw) as unknown;
            } catch {
              body = raw;
            }
          }
        }
        return body;
      },
      get request() {
        return {
          url,
          path,
          pathSegments: splitPath(path).map(decode),
          method: ex.method,
          get query() {
            return ctx.query;
          },
          get headers() {
            return ctx.headers;
          },
          get body() {
            return ctx.bodyRaw;
          },
        };
      },
    };
    return ctx as TemplateContext;
  };
}

type ResponseFields = Pick<Endpoint, 'status' | 'headers' | 'body' | 'contentType'>;

/** Whether a response has a template in its body or a header value. */
export const isTemplated = (r: ResponseFields): boolean =>
  isTemplate(r.body) || Object.values(r.headers).some(isTemplate);

/** The problem answer of a template that failed: names the endpoint and the template error. */
export function templateFailure(
  e: Pick<Endpoint, 'id' | 'name' | 'method' | 'path'>,
  error: unknown,
  bodyLimitBytes: number,
): Answer {
  const message = error instanceof Error ? error.message : String(error);
  return problemAnswer(
    500,
    'Template error',
    `The template of endpoint "${e.name}" (${e.method} ${e.path}) failed: ${message}`,
    { endpointId: e.id, templateError: message },
    bodyLimitBytes,
    false,
  );
}

/** Produces a templated response per request; a template that does not compile answers 500. */
export function templateProduce(
  e: Endpoint,
  r: ResponseFields,
  bodyLimitBytes: number,
  options: TemplateOptions,
): (ex: Exchange) => Answer {
  const context = contextFor(e, options.env ?? {});
  let compiled: { body: Template | string; headers: [string, Template | string][] };
  try {
    compiled = {
      body: isTemplate(r.body) ? compileTemplate(r.body) : r.body,
      headers: Object.entries(r.headers).map(([k, v]) => [k, isTemplate(v) ? compileTemplate(v) : v]),
    };
  } catch (error) {
    const answer = templateFailure(e, error, bodyLimitBytes);
    return () => answer;
  }
  const render = (t: Template | string, ctx: TemplateContext) => (typeof t === 'string' ? t : t.render(ctx));
  const fail = (error: unknown): Answer => {
    const message = error instanceof Error ? error.message : String(error);
    options.onError?.(`Template error in endpoint "${e.name}" (${e.method} ${e.path}): ${message}`);
    return templateFailure(e, error, bodyLimitBytes);
  };
  // Only the body is a template (the common case): the headers are worked out once, the
  // length and the log's header JSON are completed per request.
  if (compiled.headers.every(([, t]) => typeof t === 'string') && typeof compiled.body !== 'string') {
    const template = compiled.body;
    const base = buildAnswer(
      { status: r.status, headers: r.headers, body: '', contentType: r.contentType },
      0,
      false,
    );
    const lengthAt = base.headers.indexOf('Content-Length');
    if (lengthAt === -1) return () => base; // 204 and 304 carry no body: nothing to render
    const before = base.headers.slice(0, lengthAt);
    const after = base.headers.slice(lengthAt + 2);
    const json = base.logged.headersJson;
    const lengthJson = json.indexOf('"Content-Length":"0"');
    const jsonBefore = json.slice(0, lengthJson);
    const jsonAfter = json.slice(lengthJson + '"Content-Length":"0"'.length);
    return (ex) => {
      let body: string;
      try {
        body = template.render(context(ex));
      } catch (error) {
        return fail(error);
      }
      const bytes = Buffer.from(body, 'utf8');
      const length = String(bytes.length);
      const headersJson = `${jsonBefore}"Content-Length":"${length}"${jsonAfter}`;
      const truncated = bytes.length > bodyLimitBytes;
      return {
        status: r.status,
        headers: [...before, 'Content-Length', length, ...after],
        body,
        logged: {
          headersJson,
          body: truncated ? bytes.subarray(0, bodyLimitBytes) : bytes,
          truncated,
          shared: false,
        },
        loggedHead: { headersJson, body: null, truncated: false, shared: false },
      };
    };
  }
  return (ex) => {
    try {
      const ctx = context(ex);
      const headers: Record<string, string> = {};
      for (const [k, t] of compiled.headers) headers[k] = render(t, ctx);
      const body = render(compiled.body, ctx);
      return buildAnswer(
        { status: r.status, headers, body, contentType: r.contentType },
        bodyLimitBytes,
        false,
      );
    } catch (error) {
      return fail(error);
    }
  };
}
