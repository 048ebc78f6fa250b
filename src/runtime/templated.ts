import { clientAddress } from '../core/client-address.js';
import { compileRoutes } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import {
  compileTemplate,
  isTemplate,
  type Template,
  type TemplateContext,
} from '../core/templates/engine.js';
import type { TemplateResources } from '../core/templates/helpers-resources.js';
import { markSecrets, registerOriginal } from '../core/templates/marks.js';
import { buildAnswer, problemAnswer, type Answer } from './answer.js';
import { MockdevError } from '../core/errors.js';
import { bodyJson, NOT_JSON, type Exchange } from './exchange.js';
import { maskedError, renderedBytes, renderedStatusText, trackedAnswer } from './rendered.js';
import { parseQuery, parseQueryLists, WireMockRequest } from './wiremock-request.js';

/**
 * Templated responses at run time (docs/templates.md): the template context of a request, each
 * part worked out only when a template reads it (the body parsed at most once), and the plans of
 * responses whose status text, body or header values are templates.
 */

export interface TemplateOptions {
  /** The environment's variables (`{{env.KEY}}`), read when the endpoints were (re)loaded. */
  env?: Record<string, string>;
  /** The values of the secrets among `env`: the log stores them masked. */
  secrets?: string[];
  /** Told of a template that failed for a request (the request is answered 500). */
  onError?: (message: string) => void;
  /** The project's tunnel URL (`{{tunnel.url}}`), read when rendering: set as the tunnel changes. */
  tunnel?: TunnelUrl;
  /** The served project's resources (`{{resource 'users'}}`; runtime/resources.ts). */
  resources?: TemplateResources;
}

/** Where the served project's public tunnel URL is kept: one object per server, its `url` updated in place. */
export interface TunnelUrl {
  url: string;
}
const NO_TUNNEL: TunnelUrl = Object.freeze({ url: '' });

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

type Route = ReturnType<typeof compileRoutes>;

/** What a template sees of one request: every part worked out once, when first read. */
class RequestContext implements TemplateContext {
  readonly method: string;
  readonly path: string;
  readonly env: Record<string, string>;
  // True private fields: not properties, so a template cannot reach them (own properties are
  // what Handlebars reads).
  readonly #ex: Exchange;
  readonly #parts: UrlParts;
  readonly #tunnel: TunnelUrl;
  readonly #resources: TemplateResources | undefined;
  #p: Record<string, string> | undefined;
  #q: Record<string, string> | undefined;
  #h: Record<string, string> | undefined;
  #raw: string | undefined;
  #request: WireMockRequest | undefined;
  constructor(
    ex: Exchange,
    env: Record<string, string>,
    parts: UrlParts,
    tunnel: TunnelUrl,
    plainEnv?: Record<string, string>,
    resources?: TemplateResources,
  ) {
    this.#ex = ex;
    this.#resources = resources;
    this.env = env;
    this.#parts = parts;
    this.#tunnel = tunnel;
    this.method = ex.method;
    const q = ex.url.indexOf('?');
    this.path = q === -1 ? ex.url : ex.url.slice(0, q);
    // Secrets marked in `env`: a helper given the whole context gets it with the plain values.
    if (plainEnv) registerOriginal(this, { ...this, env: plainEnv });
  }
  get params(): Record<string, string> {
    return (this.#p ??= this.#parts.params(this.#ex.url));
  }
  get query(): Record<string, string> {
    return (this.#q ??= this.#parts.query(this.#ex.url));
  }
  get headers(): Record<string, string> {
    if (!this.#h) {
      // Lower-cased names, and the names as sent (WireMock's request.headers.X-Id).
      const headers: Record<string, string> = {};
      const raw = this.#ex.req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        const lower = raw[i]!.toLowerCase();
        if (!own(headers, lower)) {
          headers[lower] = raw[i + 1]!;
          headers[raw[i]!] = raw[i + 1]!;
        }
      }
      this.#h = headers;
    }
    return this.#h;
  }
  get bodyRaw(): string {
    return (this.#raw ??= this.#ex.body === null ? '' : this.#ex.body.toString('utf8'));
  }
  /** The body as JSON (parsed once per request, shared with the rules), else its text. */
  get body(): unknown {
    const json = bodyJson(this.#ex);
    return json === NOT_JSON ? this.bodyRaw : json;
  }
  get request(): TemplateContext['request'] {
    return (this.#request ??= new WireMockRequest(this, this.#ex, () =>
      this.#parts.queryLists(this.#ex.url),
    ));
  }
  get tunnel(): TunnelUrl {
    return this.#tunnel;
  }
  /** For the resource helpers (read in code): a getter no template reaches (CONTEXT_GETTERS). */
  get resources(): TemplateResources | undefined {
    return this.#resources;
  }
  /** Mockoon's `hostname`: the Host header's name, without its port. */
  get hostname(): string {
    return hostName(this.#ex.req.headers.host ?? '');
  }
  /** Mockoon's `ip`: the caller's address, as the request log gives it. */
  get ip(): string {
    return clientAddress(this.#ex.req.socket.remoteAddress, this.#ex.req.rawHeaders) ?? '';
  }
}

/** A Host header's name: `[::1]:3000` -> `::1`, `api.local:80` -> `api.local`. */
function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(1, end);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** Parsed URLs kept per endpoint: a repeated URL's parameters and query are parsed once. */
const URL_CACHE_LIMIT = 1024;

/** The path parameters and the query of a request target, each parsed once per distinct URL. */
interface UrlParts {
  params(url: string): Record<string, string>;
  query(url: string): Record<string, string>;
  /** All the values of each query parameter. */
  queryLists(url: string): Record<string, string[]>;
}

function urlParts(e: Pick<Endpoint, 'method' | 'path'>): UrlParts {
  let compiled: Route | undefined;
  const route = () => (compiled ??= compileRoutes([{ method: e.method, path: e.path, enabled: true }]));
  // Shared between the requests of one URL: frozen, so nothing a template does can change them.
  const cached = <T>(parse: (url: string) => Record<string, T>) => {
    const byUrl = new Map<string, Readonly<Record<string, T>>>();
    return (url: string) => {
      let hit = byUrl.get(url);
      if (hit === undefined) {
        hit = Object.freeze(parse(url));
        if (byUrl.size >= URL_CACHE_LIMIT) byUrl.clear();
        byUrl.set(url, hit);
      }
      return hit;
    };
  };
  return {
    params: cached((url) => ({ ...(route().match(e.method, url)?.params ?? {}) })),
    query: cached(parseQuery),
    queryLists: cached((url) => {
      const lists = parseQueryLists(url);
      for (const list of Object.values(lists)) Object.freeze(list);
      return lists;
    }),
  };
}

/**
 * Builds the context of one request: every part lazy, computed once. With `secrets`, their values
 * are marked in `env` (core/templates/marks.ts) for templates that track them.
 */
export function contextFor(
  e: Pick<Endpoint, 'method' | 'path'>,
  env: Record<string, string>,
  secrets: readonly string[] = [],
  tunnel: TunnelUrl = NO_TUNNEL,
  resources?: TemplateResources,
): (ex: Exchange) => TemplateContext {
  const parts = urlParts(e);
  if (secrets.length === 0) return (ex) => new RequestContext(ex, env, parts, tunnel, undefined, resources);
  const marked = markSecrets(env, secrets);
  return (ex) => new RequestContext(ex, marked, parts, tunnel, env, resources);
}

type ResponseFields = Pick<Endpoint, 'status' | 'statusText' | 'headers' | 'body' | 'contentType'>;

/** Whether a response has a template in its status text, its body or a header value. */
export const isTemplated = (r: ResponseFields): boolean =>
  (r.statusText !== undefined && isTemplate(r.statusText)) ||
  isTemplate(r.body) ||
  Object.values(r.headers).some(isTemplate);

/** The problem answer of a template that failed: names the endpoint and the template error. */
export function templateFailure(
  e: Pick<Endpoint, 'id' | 'name' | 'method' | 'path'>,
  error: unknown,
  bodyLimitBytes: number,
): Answer {
  const message = error instanceof Error ? error.message : String(error);
  return problemAnswer(
    new MockdevError(
      'TEMPLATE_FAILED',
      `The template of endpoint "${e.name}" (${e.method} ${e.path}) failed: ${message}`,
    ),
    { endpointId: e.id, templateError: message },
    bodyLimitBytes,
    false,
  );
}

/** How a templated response is produced for a request, and whether that reads the body as JSON. */
export interface TemplatePlan {
  produce: (ex: Exchange) => Answer;
  readsJson: boolean;
}

/**
 * Produces a templated response per request; a template that does not compile answers 500. When
 * the environment has secrets and a template reads it, the render tracks them: the client gets
 * the response as rendered, the log the same response with every secret-derived part masked.
 */
export function templatePlan(
  e: Endpoint,
  r: ResponseFields,
  bodyLimitBytes: number,
  options: TemplateOptions,
): TemplatePlan {
  const secrets = (options.secrets ?? []).filter((s) => s !== '');
  const trackSecrets = secrets.length > 0;
  let compiled: {
    statusText: Template | string;
    body: Template | string;
    headers: [string, Template | string][];
  };
  try {
    const statusText = r.statusText ?? '';
    const compile = (text: string) => (isTemplate(text) ? compileTemplate(text, { trackSecrets }) : text);
    compiled = {
      statusText: compile(statusText),
      body: compile(r.body),
      headers: Object.entries(r.headers).map(([k, v]) => [k, compile(v)]),
    };
  } catch (error) {
    const answer = templateFailure(e, error, bodyLimitBytes);
    return { produce: () => answer, readsJson: false };
  }
  const templates = [compiled.statusText, compiled.body, ...compiled.headers.map(([, t]) => t)].filter(
    (t): t is Template => typeof t !== 'string',
  );
  const tracked = templates.some((t) => t.tracked);
  const readsJson = templates.some((t) => t.parsesBody);
  const context = contextFor(e, options.env ?? {}, tracked ? secrets : [], options.tunnel, options.resources);
  const render = (t: Template | string, ctx: TemplateContext) => (typeof t === 'string' ? t : t.render(ctx));
  const fail = (failure: unknown): Answer => {
    const error = tracked ? maskedError(failure) : failure;
    const message = error instanceof Error ? error.message : String(error);
    options.onError?.(`Template error in endpoint "${e.name}" (${e.method} ${e.path}): ${message}`);
    return templateFailure(e, error, bodyLimitBytes);
  };
  // Only the body is a template (the common case): the headers are worked out once, the
  // length and the log's header JSON are completed per request.
  if (
    !tracked &&
    typeof compiled.statusText === 'string' &&
    compiled.headers.every(([, t]) => typeof t === 'string') &&
    typeof compiled.body !== 'string'
  ) {
    const template = compiled.body;
    const base = buildAnswer(
      {
        status: r.status,
        statusText: compiled.statusText,
        headers: r.headers,
        body: '',
        contentType: r.contentType,
      },
      0,
      false,
    );
    const statusText = base.statusText;
    const lengthAt = base.headers.indexOf('Content-Length');
    // 204 and 304 carry no body: nothing to render
    if (lengthAt === -1) return { produce: () => base, readsJson: false };
    const before = base.headers.slice(0, lengthAt);
    const after = base.headers.slice(lengthAt + 2);
    const json = base.logged.headersJson;
    const lengthJson = json.indexOf('"Content-Length":"0"');
    const jsonBefore = json.slice(0, lengthJson);
    const jsonAfter = json.slice(lengthJson + '"Content-Length":"0"'.length);
    const produce = (ex: Exchange): Answer => {
      let bytes: Buffer;
      try {
        // Sent as the bytes counted: writing the rendered (concatenated) string instead costs node
        // a second encoding, measured at ~30% of a templated endpoint's requests/s.
        bytes = renderedBytes(template.render(context(ex)));
      } catch (error) {
        return fail(error);
      }
      const length = String(bytes.length);
      const headersJson = `${jsonBefore}"Content-Length":"${length}"${jsonAfter}`;
      const truncated = bytes.length > bodyLimitBytes;
      return {
        status: r.status,
        statusText,
        headers: [...before, 'Content-Length', length, ...after],
        body: bytes,
        logged: {
          headersJson,
          body: truncated ? bytes.subarray(0, bodyLimitBytes) : bytes,
          truncated,
          shared: false,
        },
        loggedHead: { headersJson, body: null, truncated: false, shared: false },
      };
    };
    return { produce, readsJson };
  }
  const produce = (ex: Exchange): Answer => {
    try {
      const ctx = context(ex);
      const headers: Record<string, string> = {};
      for (const [k, t] of compiled.headers) headers[k] = render(t, ctx);
      const body = render(compiled.body, ctx);
      const statusText = render(compiled.statusText, ctx);
      const { status, contentType } = r;
      if (tracked) return trackedAnswer({ status, statusText, headers, body, contentType }, bodyLimitBytes);
      return buildAnswer(
        {
          status,
          statusText: renderedStatusText(statusText),
          headers,
          body: typeof compiled.body === 'string' ? body : renderedBytes(body),
          contentType,
        },
        bodyLimitBytes,
        false,
      );
    } catch (error) {
      return fail(error);
    }
  };
  return { produce, readsJson };
}
