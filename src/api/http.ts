import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../app/context.js';
import { isLoopbackHost } from '../core/binding.js';
import { MockdevError } from '../core/errors.js';
import { ClientGone, readBody } from '../http/body.js';
import { flatHeaders, listenOrigins } from '../http/guard.js';
import { listen } from '../http/listen.js';
import { writeReply } from '../http/reply.js';
import { createApiHandler, problemOf } from './handler.js';
import type { ApiServices, Route } from './route.js';

/**
 * `mockdev ui`'s HTTP server: the admin API under /api/v1 (and, from the UI issue, the web UI at
 * /). This adapter only reads the request, hands it to the handler (handler.ts) and writes the
 * reply; a streamed reply (the event stream) gets the response itself. The handler's checks that
 * need no body run first: a refused request, or a body over its route's limit, is not read.
 */

export interface AdminServerOptions {
  ctx: AppContext;
  routes: readonly Route[];
  services?: ApiServices;
  host: string;
  port: number;
  token?: string;
  onInternalError?: (e: Error) => void;
  /** Serve HTTPS (HTTP/1.1 and HTTP/2) with this PEM pair. */
  tls?: { cert: string; key: string };
  /** Requests outside /api/v1 (the web UI's files); 404 when absent. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface RunningAdminServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startAdminServer(options: AdminServerOptions): Promise<RunningAdminServer> {
  let port = options.port;
  const loopback = isLoopbackHost(options.host);
  const handle = createApiHandler({
    ctx: options.ctx,
    routes: options.routes,
    services: options.services,
    token: options.token,
    origins: listenOrigins(options.host, () => port, options.tls ? 'https' : 'http'),
    loopback,
    onInternalError: options.onInternalError,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    if (!url.startsWith('/api/') && url !== '/api' && options.fallback) return options.fallback(req, res);
    void (async () => {
      try {
        const request = { method: req.method ?? 'GET', url, headers: flatHeaders(req.headers) };
        const hasBody =
          (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
        const accepted = handle.accept({ ...request, hasBody });
        if (!accepted.ok) return writeReply(res, accepted.reply);
        let body: string;
        try {
          body = (await readBody(req, accepted.limit)).toString('utf8');
        } catch (e) {
          if (e instanceof ClientGone) return;
          return writeReply(res, problemOf(e));
        }
        const gone = new AbortController(); // the client left before its answer: a wait stops
        res.once('close', () => {
          if (!res.writableFinished) gone.abort();
        });
        const reply = await handle({ ...request, body, signal: gone.signal });
        if ('stream' in reply) return reply.stream(res, req);
        writeReply(res, reply);
      } catch (e) {
        options.onInternalError?.(e instanceof Error ? e : new Error(String(e)));
        writeReply(res, problemOf(new MockdevError('INTERNAL', 'The admin API failed unexpectedly')));
      }
    })();
  };
  const listening = await listen(onRequest, {
    host: options.host,
    port: options.port,
    what: 'the admin API',
    tls: options.tls,
  });
  port = listening.port;
  const sockets = new Set<import('node:net').Socket>();
  listening.server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: listening.url,
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        // Event streams never end on their own: close every connection (HTTP/2 sessions too).
        listening.closeAll();
        for (const s of sockets) s.destroy();
      }),
  };
}
