import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MockdevError } from '../core/errors.js';
import { closestRoutes } from '../core/match/closest.js';
import type { NewRequestRecord, RequestLogWriter } from '../core/ports.js';
import { buildAnswer, PREFLIGHT_METHODS, problemAnswer, type Answer } from './answer.js';
import { lookup, type CompiledProject, type ResponsePlan } from './compile.js';
import { largeBody, parseBodyAhead, type Exchange } from './exchange.js';
import { createFaults, NO_ANSWER, rollFault } from './timing.js';

/**
 * The mock server's response pipeline. Every request passes the same named stages:
 *
 *   match   -> the endpoint for method and path (cached per target), HEAD falling back to GET
 *   flow    -> an endpoint a flow's `request` trigger names (flows/): answered by the endpoint its
 *              respond/proxy step names (that endpoint's choice, compiled in its place at each
 *              load, so the stages below need nothing of flows), and after `log` the runs it
 *              starts, in the background. An endpoint no flow names has no flow stage at all
 *   parse   -> only for a body over 64 KiB that the endpoint reads as JSON (a body rule, a template
 *              reading `body`): parsed ahead in slices, other requests served in between
 *              (core/sliced-json.ts); a smaller one is parsed when first read, at most once
 *   choose  -> the response plan: the endpoint's choice (active variation; rules next), or the
 *              server's own (CORS preflight, 404 with the closest endpoints)
 *   delay   -> the plan's delay (fixed, or sampled from its distribution) and whether this
 *              request gets the plan's fault (timing.ts); a stopping server ends every pending
 *              delay at once
 *   produce -> the answer: a static one as precompiled, or one produced for this request (none
 *              for a fault that sends no answer)
 *   send    -> written to the socket; an answer node refuses becomes a 500, never a crash; a
 *              fault instead when the request gets one (a drip ends at once when the server stops)
 *   log     -> the record of what was actually sent, to the request log writer
 *   after   -> after-response hooks (debug lines; contract checks later), then the flow stage's
 *              runs (startRuns: the run reads the record's `ts` and the response as logged)
 *
 * A static answer goes through match, choose, send and log without allocating anything but the
 * exchange and its log record.
 */

/** Called after a response was sent and logged. Keep it cheap: it runs on every request. */
export type AfterResponse = (exchange: Exchange, record: NewRequestRecord) => void;

export interface PipelineOptions {
  /** Request and response bodies beyond this are logged cut short. */
  bodyLimitBytes: number;
  log: RequestLogWriter;
  afterResponse?: AfterResponse[];
  /** Called when the answer to a request has been sent and logged. */
  done: () => void;
  /** Whether responses should close their connection (the server is stopping). */
  closing: () => boolean;
}

export interface Pipeline {
  /** Runs a request, its body read, through every stage against the endpoints now in force. */
  run(exchange: Exchange, project: CompiledProject): void;
  /** Answers a request refused before it could run (a body over the size limit), and logs it. */
  refuse(exchange: Exchange, project: CompiledProject | null, answer: Answer): void;
  /** Ends every pending delay now: those requests are answered and logged at once. */
  flushDelays(): void;
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const { bodyLimitBytes, log, done, closing } = options;
  const after = options.afterResponse ?? [];
  const delayed = new Map<NodeJS.Timeout, () => void>();
  const faults = createFaults();

  // ---- match
  const match = (project: CompiledProject, ex: Exchange) => {
    const found = lookup(project, ex.method, ex.url);
    ex.endpoint = found === null && ex.method === 'HEAD' ? lookup(project, 'GET', ex.url) : found;
  };

  // ---- choose: the endpoint's plan, or the server's own answer
  const preflight = (ex: Exchange): Answer => {
    const raw = ex.req.rawHeaders;
    const origin = rawHeader(raw, 'origin');
    const headers: Record<string, string> = {
      'Access-Control-Allow-Origin': origin ?? '*',
      'Access-Control-Allow-Methods': PREFLIGHT_METHODS,
      'Access-Control-Allow-Headers': rawHeader(raw, 'access-control-request-headers') ?? '*',
      'Access-Control-Max-Age': '86400',
      Allow: PREFLIGHT_METHODS,
    };
    if (origin) {
      headers.Vary = 'Origin';
      headers['Access-Control-Allow-Credentials'] = 'true';
    }
    return buildAnswer({ status: 204, headers, body: '' }, bodyLimitBytes, false);
  };
  const notFound = (project: CompiledProject, ex: Exchange): Answer => {
    const path = pathOf(ex.url);
    const closest = closestRoutes(project.routes.endpoints, ex.method, path).map((e) => ({
      id: e.id,
      name: e.endpoint.name,
      method: e.method,
      path: e.path,
    }));
    return problemAnswer(
      new MockdevError('NO_MATCHING_ENDPOINT', `No endpoint matches ${ex.method} ${path}`),
      { method: ex.method, path, closest },
      bodyLimitBytes,
      false,
    );
  };
  const choose = (project: CompiledProject, ex: Exchange): ResponsePlan =>
    ex.endpoint !== null
      ? ex.endpoint.choose(ex)
      : { delay: 0, answer: ex.method === 'OPTIONS' ? preflight(ex) : notFound(project, ex) };

  // ---- send: what node accepts is sent; an answer it refuses (a bad header) becomes a 500
  const send = (ex: Exchange, answer: Answer): Answer => {
    if (ex.fault !== null) return faults.send(ex, answer, head);
    const sent = head(ex, answer);
    if (ex.method === 'HEAD') ex.res.end();
    else ex.res.end(sent.body);
    return sent;
  };
  /** The status line and headers. */
  const head = (ex: Exchange, answer: Answer): Answer => {
    const res = ex.res;
    if (ex.req.httpVersionMajor === 2) return headH2(ex, answer);
    if (closing()) res.shouldKeepAlive = false;
    try {
      if (answer.statusText === undefined) res.writeHead(answer.status, answer.headers);
      else res.writeHead(answer.status, answer.statusText, answer.headers);
    } catch (e) {
      answer = failure(ex, 'sent', e);
      // The failed writeHead kept the reason phrase it was given (or the standard one of the
      // endpoint's status): the failure's own standard phrase is named, never left to node.
      res.writeHead(answer.status, STATUS_CODES[answer.status] ?? '', answer.headers);
    }
    return answer;
  };
  /**
   * HTTP/2 (an HTTPS server, http/secure.ts): no reason phrase, and none of the connection
   * headers HTTP/2 forbids (RFC 9113 8.2.2) that an endpoint may set for HTTP/1.1. The session
   * ends when the server stops (its GOAWAY), not per response.
   */
  const headH2 = (ex: Exchange, answer: Answer): Answer => {
    const res = ex.res;
    try {
      res.writeHead(answer.status, withoutConnectionHeaders(answer.headers));
    } catch (e) {
      answer = failure(ex, 'sent', e);
      res.writeHead(answer.status, answer.headers);
    }
    return answer;
  };

  // ---- log and after-response hooks
  const finish = (ex: Exchange, answer: Answer) => {
    const sent = answer.streamed === true ? answer : send(ex, answer);
    // Templates and rules saw the whole body; the log keeps it up to its own cap.
    const body = ex.body;
    const cut = body !== null && body.length > bodyLimitBytes;
    const record: NewRequestRecord = {
      endpointId: ex.endpoint?.id ?? null,
      ts: Date.now(),
      method: ex.method,
      url: ex.url,
      rawHeaders: ex.req.rawHeaders,
      body: cut ? body.subarray(0, bodyLimitBytes) : body,
      truncated: ex.bodyTruncated || cut,
      status: sent.status,
      durationMs: performance.now() - ex.start,
      response: ex.method === 'HEAD' ? sent.loggedHead : sent.logged,
      variation: ex.variation,
      httpMajor: ex.req.httpVersionMajor,
      remoteAddress: ex.req.socket.remoteAddress,
      delayMs: ex.delayMs,
      fault: ex.fault?.text ?? null,
    };
    log.push(record);
    for (let i = 0; i < after.length; i++) after[i]!(ex, record);
    // ---- flow: the runs this request starts (set only on endpoints a flow names)
    const endpoint = ex.endpoint;
    if (endpoint !== null && endpoint.startRuns !== undefined) endpoint.startRuns(ex, record);
    // A dripping answer is in flight until its last byte (a stopping server waits for it).
    if (ex.fault !== null && !ex.res.writableEnded) ex.res.once('close', done);
    else done();
  };

  // ---- produce
  const produce = (ex: Exchange, plan: ResponsePlan) => {
    if (plan.answer !== undefined) return finish(ex, plan.answer);
    if (ex.fault !== null && ex.fault.kind !== 'drip') return finish(ex, NO_ANSWER);
    let produced: Answer | Promise<Answer>;
    try {
      produced = plan.produce!(ex);
    } catch (e) {
      return finish(ex, failure(ex, 'produced', e));
    }
    if (produced instanceof Promise)
      produced.then(
        (a) => finish(ex, a),
        (e: unknown) => finish(ex, failure(ex, 'produced', e)),
      );
    else finish(ex, produced);
  };

  /** The 500 that stands in for a response that could not be produced or sent. */
  const failure = (ex: Exchange, what: 'produced' | 'sent', e: unknown): Answer =>
    problemAnswer(
      new MockdevError(
        'RESPONSE_FAILED',
        `The response of this endpoint could not be ${what}: ${e instanceof Error ? e.message : String(e)}`,
      ),
      { endpointId: ex.endpoint?.id ?? null },
      bodyLimitBytes,
      false,
    );

  /** From choose on: the plan, its delay, and the rest. */
  const respond = (ex: Exchange, project: CompiledProject) => {
    const plan = choose(project, ex);
    ex.variation = plan.variation ?? null;
    if (plan.fault !== undefined) ex.fault = rollFault(plan.fault);
    const delay = plan.sampleDelay === undefined ? plan.delay : plan.sampleDelay();
    // A stopping server delays nothing: what is in flight is answered at once.
    if (delay <= 0 || closing()) return produce(ex, plan);
    ex.delayMs = delay;
    const fire = () => {
      delayed.delete(timer);
      produce(ex, plan);
    };
    const timer = setTimeout(fire, delay);
    delayed.set(timer, fire);
  };

  return {
    run(ex, project) {
      match(project, ex);
      // ---- parse: a large body the endpoint reads as JSON, in slices
      if (ex.endpoint !== null && ex.endpoint.readsJson === true && largeBody(ex))
        return void parseBodyAhead(ex).then(() => respond(ex, project));
      respond(ex, project);
    },
    refuse(ex, project, answer) {
      if (project !== null) match(project, ex);
      finish(ex, answer);
    },
    flushDelays() {
      for (const [timer, fire] of [...delayed]) {
        clearTimeout(timer);
        fire();
      }
      faults.flush();
    },
  };
}

/** Headers HTTP/2 forbids in a message (RFC 9113 8.2.2), lower-case. */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** A flat header list without the connection headers; the list itself when it has none. */
export function withoutConnectionHeaders(headers: string[]): string[] {
  let kept: string[] | undefined;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    if (CONNECTION_HEADERS.has(name.toLowerCase())) kept ??= headers.slice(0, i);
    else if (kept) kept.push(name, headers[i + 1]!);
  }
  return kept ?? headers;
}

/** Finds a header in node's rawHeaders without building req.headers. */
export function rawHeader(raw: string[], lowerName: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!;
    if (k.length === lowerName.length && k.toLowerCase() === lowerName) return raw[i + 1];
  }
  return undefined;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
