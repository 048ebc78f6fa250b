import { SECRET_MASK } from '../core/model/credentials.js';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import * as http from 'node:http';
import { performance } from 'node:perf_hooks';
import { hasFinalWildcard, splitPath } from '../core/match/router.js';
import { DEFAULT_PROXY_TIMEOUT_MS, type Endpoint } from '../core/model/endpoint.js';
import type { NewRecording } from '../core/ports.js';
import {
  endToEndHeaders,
  forwardRequestHeaders,
  MAX_PROXY_HOPS,
  mockdevHops,
} from '../core/proxy/headers.js';
import { proxyTargetProblem } from '../core/proxy/target.js';
import { loopDetected, targetRefused } from './proxy-refusals.js';
import { problemAnswer, type Answer } from './answer.js';
import { MockdevError } from '../core/errors.js';
import type { Exchange } from './exchange.js';
import { compileTemplate, isTemplate } from '../core/templates/engine.js';
import { hasMarks, maskMarks, stripMarks } from '../core/templates/marks.js';
import { maskedError } from './rendered.js';
import { contextFor, templateFailure, type TemplateOptions } from './templated.js';

/**
 * Forwarding for proxy endpoints (docs/server.md "Proxy endpoints"), compiled once per endpoint:
 * the request goes to the target with its method, path (a wildcard endpoint's rest appended to
 * the target's base path; otherwise the whole request path), query, end-to-end headers (Host
 * rewritten, X-Forwarded-* added) and body, streamed; the answer comes back streamed, as is
 * (gzip and br untouched). Unreachable: 502; no answer within the timeout: 504. Each forwarded
 * request carries mockdev's `Via` entry; one that has passed MAX_PROXY_HOPS mockdev proxies
 * already (a proxy aimed at its own server) is answered 508 instead of forwarded again.
 */

export interface ProxyOptions {
  bodyLimitBytes: number;
  /** Takes a recording of an exchange (when the endpoint records), after it was answered. */
  record?: (recording: NewRecording) => void;
  /** Whether the server is stopping (responses then close their connection). */
  closing?: () => boolean;
  /** The environment's variables and error reporting, for a templated target. */
  templates?: TemplateOptions;
}

let httpsModule: Promise<typeof import('node:https')> | undefined;
/** node:https (and TLS) is loaded only when an https target is first used. */
const loadHttps = () => (httpsModule ??= import('node:https'));

/** Keeps at most `limit` bytes of what passes, for the log and recordings. */
class Capture {
  private chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    if (this.kept >= this.limit) {
      if (chunk.length) this.truncated = true;
      return;
    }
    const room = this.limit - this.kept;
    if (chunk.length > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
      this.truncated = true;
    } else {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
  }
  get body(): Buffer | null {
    return this.kept === 0 && this.chunks.length === 0 ? null : Buffer.concat(this.chunks);
  }
}

export type Forward = (exchange: Exchange) => Promise<Answer>;

/** Targets of a templated proxy endpoint compiled so far (per rendered URL), at most this many. */
const TARGET_CACHE_LIMIT = 32;

/**
 * A target with a template (`{{env.API_URL}}/v1`) is rendered per request (the request body is
 * not read for it: it is streamed on) and forwarded as a fixed target would be; any other is
 * compiled once.
 */
export function compileForward(e: Endpoint, options: ProxyOptions): Forward {
  const forward = compileTargetForward(e, options);
  return (ex) => {
    const hops = mockdevHops(ex.req.rawHeaders);
    return hops < MAX_PROXY_HOPS
      ? forward(ex)
      : Promise.resolve(loopDetected(e, ex, hops, options.bodyLimitBytes));
  };
}

function compileTargetForward(e: Endpoint, options: ProxyOptions): Forward {
  const targetText = e.proxy!.target;
  if (!isTemplate(targetText)) {
    const problem = proxyTargetProblem(targetText);
    if (problem === undefined) return compileFixedForward(e, options);
    const answer = targetRefused(e, targetText, problem, options.bodyLimitBytes);
    return () => Promise.resolve(answer);
  }
  const secrets = (options.templates?.secrets ?? []).filter((v) => v !== '');
  let template: ReturnType<typeof compileTemplate>;
  try {
    template = compileTemplate(targetText, { trackSecrets: secrets.length > 0 });
  } catch (error) {
    const answer = templateFailure(e, error, options.bodyLimitBytes);
    return () => Promise.resolve(answer);
  }
  const context = contextFor(
    e,
    options.templates?.env ?? {},
    template.tracked ? secrets : [],
    options.templates?.tunnel,
  );
  const byTarget = new Map<string, Forward>();
  return (ex) => {
    let forward: Forward | undefined;
    let rendered: string | undefined;
    try {
      rendered = template.render(context(ex)).trim();
      forward = byTarget.get(rendered);
      if (!forward) {
        const target = stripMarks(rendered);
        const url = new URL(target); // not a URL: a template error, with the rendered text
        // A URL of another scheme (file:, ftp:, …) is not forwarded: nothing is sent.
        const problem = proxyTargetProblem(target);
        if (problem !== undefined) {
          const seen = maskMarks(rendered);
          options.templates?.onError?.(
            `Proxy endpoint "${e.name}" (${e.method} ${e.path}): rendered target ${JSON.stringify(seen)} ${problem}`,
          );
          return Promise.resolve(targetRefused(e, seen, problem, options.bodyLimitBytes, true));
        }
        const shown = targetShown(rendered, url);
        forward = compileFixedForward({ ...e, proxy: { ...e.proxy!, target } }, options, shown);
        if (byTarget.size >= TARGET_CACHE_LIMIT) byTarget.clear();
        byTarget.set(rendered, forward);
      }
    } catch (failure) {
      const error = template.tracked ? maskedError(failure) : failure;
      const message = error instanceof Error ? error.message : String(error);
      const why =
        rendered === undefined
          ? message
          : `rendered target ${JSON.stringify(maskMarks(rendered))}: ${message}`;
      options.templates?.onError?.(`Template error in endpoint "${e.name}" (${e.method} ${e.path}): ${why}`);
      return Promise.resolve(templateFailure(e, new Error(why), options.bodyLimitBytes));
    }
    return forward(ex);
  };
}

/**
 * What the texts about a rendered target show of it (a 502 or 504, the recording's target): the
 * parts of the URL derived from a secret (marked when rendered) in their masked form; the exact
 * strings the texts are made of are replaced, however the URL parser changed them (a host
 * lower-cased). Identity when no secret went into the target.
 */
function targetShown(rendered: string, url: URL): (text: string) => string {
  if (!hasMarks(rendered)) return (text) => text;
  const masked = maskMarks(rendered);
  let seen: URL | undefined;
  try {
    seen = new URL(masked);
  } catch {
    seen = undefined; // a secret scheme, port or whole origin: those parts are masked whole
  }
  const base = (u: URL) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  const pairs = (
    [
      [stripMarks(rendered), masked],
      [base(url), seen ? base(seen) : SECRET_MASK],
      [`${url.protocol}//${url.host}`, seen ? `${seen.protocol}//${seen.host}` : SECRET_MASK],
      [url.host, seen?.host ?? SECRET_MASK],
      [url.hostname, seen?.hostname ?? SECRET_MASK],
      [url.search.slice(1), seen ? seen.search.slice(1) : SECRET_MASK],
    ] as [string, string][]
  )
    .filter(([real, shown]) => real !== '' && real !== shown)
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((out, [real, shown]) => out.split(real).join(shown), text);
}

function compileFixedForward(
  e: Endpoint,
  options: ProxyOptions,
  shown: (text: string) => string = (t) => t,
): Forward {
  const { bodyLimitBytes } = options;
  const settings = e.proxy!;
  const targetText = settings.target;
  const target = new URL(targetText);
  const secure = target.protocol === 'https:';
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = target.port ? Number(target.port) : secure ? 443 : 80;
  const basePath = target.pathname.replace(/\/+$/, '');
  const targetQuery = target.search.slice(1);
  /** Segments the wildcard's prefix has: the rest of the request path starts after them. */
  const prefixDepth = hasFinalWildcard(e.path) ? splitPath(e.path).length - 1 : -1;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const record = settings.record ? options.record : undefined;
  const origin = `${target.protocol}//${target.host}`;

  const upstreamPath = (url: string): string => {
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    let path: string;
    if (prefixDepth >= 0) {
      const rest = splitPath(rawPath).slice(prefixDepth).join('/');
      path = rest ? `${basePath}/${rest}${rawPath.endsWith('/') ? '/' : ''}` : basePath || '/';
    } else path = basePath + (rawPath.startsWith('/') ? rawPath : `/${rawPath}`);
    const search = [targetQuery, query].filter(Boolean).join('&');
    return search ? `${path}?${search}` : path;
  };

  const problem = (code: 'PROXY_FAILED' | 'PROXY_TIMEOUT', why: string, path: string): Answer =>
    problemAnswer(
      new MockdevError(
        code,
        shown(`The proxy target ${origin}${path} of endpoint "${e.name}" (${e.method} ${e.path}) ${why}`),
      ),
      { endpointId: e.id, target: shown(targetText), url: shown(`${origin}${path}`), reason: shown(why) },
      bodyLimitBytes,
      false,
    );

  return async (ex) => {
    const client: { request: typeof http.request } = secure ? await loadHttps() : http;
    const path = upstreamPath(ex.url);
    const headers = forwardRequestHeaders(ex.req.rawHeaders, {
      targetHost: target.host,
      clientAddress: ex.req.socket.remoteAddress,
      proto: 'http',
      httpVersion: ex.req.httpVersion,
    });
    const reqOptions: RequestOptions = {
      hostname,
      port,
      method: ex.method,
      path,
      headers: headers as unknown as RequestOptions['headers'],
      ...(secure ? { servername: hostname } : {}),
    };

    return new Promise<Answer>((resolve) => {
      let settled = false;
      const settle = (answer: Answer) => {
        if (settled) return;
        settled = true;
        resolve(answer);
      };
      const requestCapture = new Capture(bodyLimitBytes);
      let timedOut = false;
      let upReq: ClientRequest;
      try {
        upReq = client.request(reqOptions);
      } catch (err) {
        settle(problem('PROXY_FAILED', `could not be asked: ${(err as Error).message}`, path));
        return;
      }
      upReq.setTimeout(timeoutMs, () => {
        timedOut = true;
        upReq.destroy(new Error(`did not answer within ${timeoutMs} ms`));
      });

      // The request body: streamed as it arrives (or sent whole when it was read already).
      if (ex.body !== null) {
        requestCapture.add(ex.body);
        upReq.end(ex.body);
      } else {
        ex.req.on('error', () => undefined); // the client went away: 'close' on the response follows
        ex.req.on('data', (chunk: Buffer) => requestCapture.add(chunk));
        ex.req.pipe(upReq);
      }
      const keepRequestBody = () => {
        ex.body = requestCapture.body;
        ex.bodyTruncated = requestCapture.truncated || ex.bodyTruncated;
      };

      // The client went away: stop asking the target.
      ex.res.on('close', () => {
        if (!ex.res.writableFinished) upReq.destroy();
      });

      upReq.on('error', (err: NodeJS.ErrnoException) => {
        if (ex.res.headersSent) return; // the response side reports it
        keepRequestBody();
        // The rest of the request body is not read: this connection cannot be reused.
        ex.res.shouldKeepAlive = false;
        ex.req.unpipe(upReq);
        ex.req.resume();
        if (timedOut) settle(problem('PROXY_TIMEOUT', `did not answer within ${timeoutMs} ms`, path));
        else {
          const why = err.code ? `${err.code} (${err.message})` : err.message;
          settle(problem('PROXY_FAILED', `could not be reached: ${why}`, path));
        }
      });

      upReq.on('response', (up: IncomingMessage) => {
        const status = up.statusCode ?? 502;
        const resHeaders = endToEndHeaders(up.rawHeaders);
        if (options.closing?.()) ex.res.shouldKeepAlive = false;
        try {
          ex.res.writeHead(status, resHeaders);
        } catch (err) {
          up.destroy();
          settle(problem('PROXY_FAILED', `answered what cannot be sent on: ${(err as Error).message}`, path));
          return;
        }
        const responseCapture = new Capture(bodyLimitBytes);
        up.on('data', (chunk: Buffer) => responseCapture.add(chunk));
        up.pipe(ex.res);
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          keepRequestBody();
          const headersObject: Record<string, string> = {};
          for (let i = 0; i < resHeaders.length; i += 2) {
            const k = resHeaders[i]!;
            headersObject[k] =
              headersObject[k] === undefined
                ? resHeaders[i + 1]!
                : `${headersObject[k]}, ${resHeaders[i + 1]!}`;
          }
          const headersJson = JSON.stringify(headersObject);
          const body = responseCapture.body;
          const truncated = responseCapture.truncated;
          settle({
            status,
            headers: resHeaders,
            body: '',
            streamed: true,
            logged: { headersJson, body, truncated, shared: false },
            loggedHead: { headersJson, body: null, truncated: false, shared: false },
          });
          if (record) {
            const at = ex.start;
            const durationMs = performance.now() - at;
            const rawRequest = ex.req.rawHeaders;
            const method = ex.method;
            const url = ex.url;
            const requestBody = ex.body;
            const requestTruncated = ex.bodyTruncated;
            // Off the request path: the response is sent; the writer stores it in a batch.
            setImmediate(() =>
              record({
                endpointId: e.id,
                ts: Date.now() - Math.round(durationMs),
                durationMs,
                target: shown(`${origin}${path}`),
                request: {
                  method,
                  url,
                  rawHeaders: rawRequest,
                  body: requestBody,
                  truncated: requestTruncated,
                },
                response: { status, rawHeaders: resHeaders, body, truncated },
              }),
            );
          }
        };
        ex.res.on('finish', end);
        ex.res.on('close', () => {
          if (!ex.res.writableFinished) {
            up.destroy();
            end();
          }
        });
        up.on('error', () => {
          ex.res.destroy();
          end();
        });
        up.on('aborted', () => {
          ex.res.destroy();
          end();
        });
      });
    });
  };
}
