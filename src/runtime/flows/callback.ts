import * as http from 'node:http';
import { callbackUrlProblem } from '../../core/flows.js';
import { FLOW_DEPTH_HEADER } from '../../core/model/limits.js';
import { maskMarks, stripMarks } from '../../core/templates/marks.js';
import type { CompiledCallback, Text } from './compile.js';
import { RUN_BODY_KEPT_BYTES } from './context.js';

/**
 * A callback step's outbound request (docs/flows.md, "At run time"): its texts rendered, its URL checked,
 * sent with node's HTTP client within its timeout; the answer's body kept up to
 * RUN_BODY_KEPT_BYTES (the rest read and dropped).
 */

/** A callback ready to send: what goes out, and what the run record shows of it (secrets masked). */
export interface CallbackRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** A string: node writes a short one with the head in one write (a Buffer costs a writev). */
  body: string | null;
  /** The URL as stored: every secret-derived part masked. */
  shownUrl: string;
}

export interface CallbackAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
}

/** Makes one attempt; rejects with a one-line Error (refused, timed out, cancelled). */
export type SendCallback = (
  request: CallbackRequest,
  timeoutMs: number,
  signal: AbortSignal,
) => Promise<CallbackAnswer>;

const render = (t: Text, context: object): string => (typeof t === 'string' ? t : t.render(context as never));

/**
 * Renders a callback for one firing: URL, headers and body, the depth header added (and
 * a Content-Type for a body without one: JSON when it parses, else text). A template error or a
 * URL that is not absolute http(s) throws a one-line Error, secrets masked.
 */
export function renderCallback(c: CompiledCallback, context: object, depth: number): CallbackRequest {
  if (c.problem) throw new Error(c.problem);
  const rendered = render(c.url, context).trim();
  const url = stripMarks(rendered);
  const shownUrl = maskMarks(rendered);
  const problem = callbackUrlProblem(url, { rendered: true });
  if (problem)
    throw new Error(
      `the callback URL rendered to ${JSON.stringify(shownUrl.slice(0, 200))}, which ${problem}`,
    );
  const headers: Record<string, string> = {};
  for (const [k, v] of c.headers) headers[k] = stripMarks(render(v, context));
  const body = c.body === undefined ? null : stripMarks(render(c.body, context));
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
  if (body !== null && !has('content-type'))
    headers['Content-Type'] = looksJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
  for (const k of Object.keys(headers))
    if (k.toLowerCase() === FLOW_DEPTH_HEADER.toLowerCase()) delete headers[k];
  headers[FLOW_DEPTH_HEADER] = String(depth);
  return { method: c.method, url: new URL(url), headers, body, shownUrl };
}

function looksJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sockets a server keeps open to one callback host at most: beyond them, callbacks wait their
 * turn (within their timeout) instead of opening sockets without bound under load.
 */
export const CALLBACK_SOCKETS_MAX = 256;
const agentOptions = { keepAlive: true, maxSockets: CALLBACK_SOCKETS_MAX };
let httpAgent: http.Agent | undefined;
let httpsClient:
  Promise<{ https: typeof import('node:https'); agent: import('node:https').Agent }> | undefined;
/** node:https (and TLS) is loaded only when an https callback is first made. */
const loadHttps = () =>
  (httpsClient ??= import('node:https').then((https) => ({ https, agent: new https.Agent(agentOptions) })));

/** What a failed connection says, in one line. */
function connectionError(e: unknown, url: URL): string {
  const code = (e as NodeJS.ErrnoException).code;
  const where = url.host;
  if (code === 'ECONNREFUSED') return `connection refused by ${where}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host ${url.hostname} not found`;
  if (code === 'ECONNRESET') return `connection reset by ${where}`;
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0]!;
}

/**
 * A kept-alive socket the receiver closed just as the callback was written on it (its idle
 * timeout): the request never reached it, and is made again on another socket (as node's docs
 * advise for `reusedSocket`), at most this many times, without counting as an attempt.
 */
const STALE_SOCKET_RETRIES = 2;

/** The callback made with node's http/https client. */
export const sendCallback: SendCallback = async (request, timeoutMs, signal) => {
  const { client, agent } =
    request.url.protocol === 'https:'
      ? await loadHttps().then(({ https, agent }) => ({ client: https, agent }))
      : { client: http, agent: (httpAgent ??= new http.Agent(agentOptions)) };
  for (let stale = 0; ; stale++) {
    try {
      return await sendOnce(client, agent, request, timeoutMs, signal);
    } catch (e) {
      if (!(e instanceof StaleSocket)) throw e;
      if (stale >= STALE_SOCKET_RETRIES) throw e.cause;
    }
  }
};

/** The request failed on a kept-alive socket before any answer: `cause` is the error to report. */
class StaleSocket extends Error {}

function sendOnce(
  client: typeof http | typeof import('node:https'),
  agent: http.Agent,
  request: CallbackRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CallbackAnswer> {
  return new Promise<CallbackAnswer>((resolve, reject) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    let answered = false;
    const finish = (error: string | undefined, answer?: CallbackAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        req?.destroy();
        reject(new Error(error));
      } else resolve(answer!);
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
    const onAbort = () => finish('cancelled');
    if (signal.aborted) return finish('cancelled');
    signal.addEventListener('abort', onAbort);
    try {
      const headers = { ...request.headers };
      if (request.body !== null) headers['Content-Length'] = String(Buffer.byteLength(request.body));
      req = client.request(request.url, { method: request.method, headers, agent });
    } catch (e) {
      return finish(`the callback could not be made: ${e instanceof Error ? e.message : String(e)}`);
    }
    req.on('error', (e) => {
      const code = (e as NodeJS.ErrnoException).code;
      if (req?.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE') && !settled) {
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        return reject(new StaleSocket('stale socket', { cause: new Error(connectionError(e, request.url)) }));
      }
      finish(connectionError(e, request.url));
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept >= RUN_BODY_KEPT_BYTES + 1) return;
        chunks.push(chunk);
        kept += chunk.length;
      });
      res.on('error', (e) => finish(connectionError(e, request.url)));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        const status = res.statusCode ?? 0;
        finish(undefined, {
          status,
          statusText: res.statusMessage ?? '',
          headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.end(request.body ?? undefined);
  });
}
