import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { closestRoutes } from '../core/match/closest.js';
import type { NewRequestRecord } from '../store/request-log.js';
import { compileResponse, lookup, type CompiledProject, type CompiledResponse } from './compile.js';

/**
 * The mock server as a request handler: request in, response out, no socket (listen.ts owns
 * that). Matching and responses follow DECISIONS "Mock server behaviour". The hot path is a
 * route lookup and one write of precomputed headers and body; the log record is handed to a
 * batching writer without any encoding work.
 */
export interface MockHandlerOptions {
  projectId: string;
  /** The endpoints now in force (the live-reload source); called once per request. */
  current: () => CompiledProject;
  /** Receives one record per answered request. */
  record: (record: NewRequestRecord) => void;
  /** Request bodies beyond this are logged cut short with `truncated`. */
  bodyLimitBytes: number;
  /** Called for each answered request (debug logging); leave unset on the fast path. */
  onAnswered?: (record: NewRequestRecord) => void;
}

export interface MockHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Requests received and not yet answered. */
  readonly inFlight: number;
  /** From now on responses close their connection (used while stopping). */
  closeConnections(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
}

const PREFLIGHT_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';

/** Finds a header in node's rawHeaders without building req.headers. */
function rawHeader(raw: string[], lowerName: string): string | undefined {
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

export function createMockHandler(options: MockHandlerOptions): MockHandler {
  const { projectId, record, bodyLimitBytes, onAnswered } = options;
  let inFlight = 0;
  let closing = false;
  let idleWaiters: (() => void)[] = [];

  const done = () => {
    inFlight--;
    if (inFlight === 0 && idleWaiters.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  const notFound = (project: CompiledProject, method: string, url: string): CompiledResponse => {
    const path = pathOf(url);
    const closest = closestRoutes(project.routes.endpoints, method, path).map((e) => ({
      id: e.id,
      name: e.endpoint.name,
      method: e.method,
      path: e.path,
    }));
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'No matching endpoint',
      status: 404,
      detail: `No endpoint matches ${method} ${path}`,
      method,
      path,
      closest,
    });
    return compileResponse(
      { status: 404, headers: {}, body, contentType: 'application/problem+json' },
      bodyLimitBytes,
    );
  };

  const preflight = (req: IncomingMessage): CompiledResponse => {
    const raw = req.rawHeaders;
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
    return compileResponse({ status: 204, headers, body: '' }, bodyLimitBytes);
  };

  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    start: number,
    body: Buffer | null,
    truncated: boolean,
  ) => {
    const project = options.current();
    const method = req.method!;
    const url = req.url!;
    let endpointId: string | null = null;
    let response: CompiledResponse;
    let match = lookup(project, method, url);
    if (!match && method === 'HEAD') match = lookup(project, 'GET', url);
    if (match) {
      endpointId = match.id;
      response = match.response;
    } else if (method === 'OPTIONS') {
      response = preflight(req);
    } else {
      response = notFound(project, method, url);
    }
    const write = () => {
      if (closing) res.shouldKeepAlive = false;
      res.writeHead(response.status, response.headers);
      if (method === 'HEAD') res.end();
      else res.end(response.wireBody);
      const r: NewRequestRecord = {
        projectId,
        endpointId,
        ts: Date.now(),
        method,
        url,
        rawHeaders: req.rawHeaders,
        body,
        status: response.status,
        durationMs: performance.now() - start,
        truncated: truncated || response.logTruncated,
        resHeadersJson: response.logHeadersJson,
        resBody: method === 'HEAD' ? null : response.logBody,
        shared: method === 'HEAD' ? undefined : response.shared,
      };
      record(r);
      if (onAnswered) onAnswered(r);
      done();
    };
    if (response.delay > 0) setTimeout(write, response.delay);
    else write();
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    inFlight++;
    const raw = req.rawHeaders;
    const length = rawHeader(raw, 'content-length');
    if ((length === undefined || length === '0') && rawHeader(raw, 'transfer-encoding') === undefined) {
      respond(req, res, start, null, false);
      return;
    }
    // A body: keep up to the cap for the log, count the rest, answer once it is all read.
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    req.on('data', (chunk: Buffer) => {
      if (kept >= bodyLimitBytes) {
        truncated = true;
        return;
      }
      const room = bodyLimitBytes - kept;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        kept += room;
        truncated = true;
      } else {
        chunks.push(chunk);
        kept += chunk.length;
      }
    });
    let settled = false;
    req.on('end', () => {
      settled = true;
      respond(req, res, start, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), truncated);
    });
    req.on('error', () => undefined); // the client went away mid-body: 'close' follows
    req.on('close', () => {
      if (!settled) {
        settled = true;
        done();
      }
    });
  }) as MockHandler;

  Object.defineProperty(handler, 'inFlight', { get: () => inFlight });
  handler.closeConnections = () => {
    closing = true;
  };
  handler.idle = () =>
    inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  return handler;
}
