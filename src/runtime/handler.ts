import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MockdevError } from '../core/errors.js';
import type { RequestLogWriter } from '../core/ports.js';
import { ClientGone, closeAfterAnswer, readBody, type BodyLimit } from '../http/body.js';
import { problemAnswer } from './answer.js';
import { lookup, type CompiledProject } from './compile.js';
import type { Exchange } from './exchange.js';
import { createPipeline, rawHeader, type AfterResponse } from './pipeline.js';

/**
 * The mock server as a request handler: request in, response out, no socket (http/listen.ts
 * owns that). It reads the request body whole, up to the request size limit (http/body.ts;
 * beyond it 413, logged), runs the pipeline
 * (pipeline.ts) against the endpoints now in force, and keeps count of what is in flight so that
 * a stop can answer everything before the log closes.
 */
export interface MockHandlerOptions {
  /**
   * The endpoints now in force (the live-reload source), asked once per request. A promise
   * while they are being reloaded: the request waits for the new endpoints.
   */
  current: () => CompiledProject | Promise<CompiledProject>;
  log: RequestLogWriter;
  /** Request and response bodies beyond this are logged cut short (the log's cap). */
  bodyLimitBytes: number;
  /** The largest request body taken (templates and rules see it whole); beyond it 413. */
  requestSizeLimitBytes: number;
  /** Run after each response is sent and logged (debug lines). Leave empty on the fast path. */
  afterResponse?: AfterResponse[];
  /** Called as each request arrives (trace lines). Leave unset on the fast path. */
  onRequest?: (method: string, url: string) => void;
}

export interface MockHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Requests received and not yet answered. */
  readonly inFlight: number;
  /** From now on responses close their connection, and pending delays end at once. */
  beginStop(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
}

/** Whether the endpoint answering this request streams its body (a proxy endpoint). */
function streamsBody(project: CompiledProject, ex: Exchange): boolean {
  return lookup(project, ex.method, ex.url)?.streamsBody === true;
}

export function createMockHandler(options: MockHandlerOptions): MockHandler {
  const { bodyLimitBytes, onRequest } = options;
  const sizeLimit: BodyLimit = {
    bytes: options.requestSizeLimitBytes,
    name: "the mock server's request size limit",
    hint: 'Raise the requestSizeLimitBytes setting ("mockdev settings update --request-size-limit <BYTES>") and restart the server',
  };
  let inFlight = 0;
  let stopping = false;
  let idleWaiters: (() => void)[] = [];

  const done = () => {
    inFlight--;
    if (inFlight === 0 && idleWaiters.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  const pipeline = createPipeline({
    bodyLimitBytes,
    log: options.log,
    afterResponse: options.afterResponse,
    done,
    closing: () => stopping,
  });

  const run = (ex: Exchange) => {
    const project = options.current();
    if (project instanceof Promise) {
      project.then(
        (p) => pipeline.run(ex, p),
        () => {
          // The source keeps the last good endpoints; a failed reload never reaches here.
          ex.res.destroy();
          done();
        },
      );
    } else pipeline.run(ex, project);
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    const ex: Exchange = {
      req,
      res,
      method: req.method!,
      url: req.url!,
      start: performance.now(),
      body: null,
      bodyTruncated: false,
      json: undefined,
      endpoint: null,
      variation: null,
      delayMs: 0,
      fault: null,
    };
    if (onRequest) onRequest(ex.method, ex.url);
    const raw = req.rawHeaders;
    const length = rawHeader(raw, 'content-length');
    if ((length === undefined || length === '0') && rawHeader(raw, 'transfer-encoding') === undefined) {
      run(ex);
      return;
    }
    // A body for a proxy endpoint is streamed to its target, not read here.
    const project = options.current();
    if (project instanceof Promise) {
      project.then(
        (p) => (streamsBody(p, ex) ? pipeline.run(ex, p) : readRequestBody(ex)),
        () => readRequestBody(ex),
      );
    } else if (streamsBody(project, ex)) pipeline.run(ex, project);
    else readRequestBody(ex);
  }) as MockHandler;

  /** A body: read whole, then answered; over the request size limit, a logged 413. */
  const readRequestBody = (ex: Exchange) => {
    readBody(ex.req, sizeLimit).then(
      (body) => {
        ex.body = body;
        run(ex);
      },
      (e: unknown) => {
        if (e instanceof ClientGone) return done();
        closeAfterAnswer(ex.res);
        ex.bodyTruncated = true;
        const answer = problemAnswer(e as MockdevError, {}, bodyLimitBytes, false);
        const project = options.current();
        if (project instanceof Promise)
          project.then(
            (p) => pipeline.refuse(ex, p, answer),
            () => pipeline.refuse(ex, null, answer),
          );
        else pipeline.refuse(ex, project, answer);
      },
    );
  };

  Object.defineProperty(handler, 'inFlight', { get: () => inFlight });
  handler.beginStop = () => {
    stopping = true;
    pipeline.flushDelays();
  };
  handler.idle = () =>
    inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  return handler;
}
