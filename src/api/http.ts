import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../app/context.js';
import { isLoopbackHost } from '../runtime/origin.js';
import { hostForUrl, listen } from '../runtime/listen.js';
import { createApiHandler, problem, type ApiResponse } from './handler.js';
import type { ApiServices, Route } from './route.js';

/**
 * `mockdev ui`'s HTTP server: the admin API under /api/v1 (and, from the UI issue, the web UI at
 * /). This adapter only reads the request, hands it to the handler (handler.ts) and writes the
 * reply; a streamed reply (the event stream) gets the response itself.
 */

/** The largest request body read (an OpenAPI document to import can be large). */
export const MAX_API_BODY_BYTES = 64 * 1024 * 1024;

export interface AdminServerOptions {
  ctx: AppContext;
  routes: readonly Route[];
  services?: ApiServices;
  host: string;
  port: number;
  token?: string;
  onInternalError?: (e: Error) => void;
  /** Requests outside /api/v1 (the web UI's files); 404 when absent. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface RunningAdminServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

function write(res: ServerResponse, reply: ApiResponse): void {
  if (res.headersSent) return void res.end();
  res.writeHead(reply.status, { 'Cache-Control': 'no-store', ...reply.headers });
  res.end(reply.body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_API_BODY_BYTES) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startAdminServer(options: AdminServerOptions): Promise<RunningAdminServer> {
  let port = options.port;
  const loopback = isLoopbackHost(options.host);
  const origins = (): string[] => {
    const own = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
    if (!loopback) own.push(`http://${hostForUrl(options.host)}:${port}`);
    return own;
  };
  const handle = createApiHandler({
    ctx: options.ctx,
    routes: options.routes,
    services: options.services,
    token: options.token,
    origins,
    loopback,
    onInternalError: options.onInternalError,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    if (!url.startsWith('/api/') && url !== '/api' && options.fallback) return options.fallback(req, res);
    void (async () => {
      try {
        const body = await readBody(req);
        if (body === null) {
          return write(
            res,
            problem(
              413,
              'PAYLOAD_TOO_LARGE',
              'Payload too large',
              `The request body is larger than ${MAX_API_BODY_BYTES} bytes`,
            ),
          );
        }
        const headers: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const reply = await handle({ method: req.method ?? 'GET', url, headers, body });
        if ('stream' in reply) return reply.stream(res, req);
        write(res, reply);
      } catch (e) {
        options.onInternalError?.(e instanceof Error ? e : new Error(String(e)));
        write(res, problem(500, 'INTERNAL', 'Internal error', 'The admin API failed unexpectedly'));
      }
    })();
  };
  const listening = await listen(onRequest, {
    host: options.host,
    port: options.port,
    what: 'the admin API',
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
        // Event streams never end on their own: close every connection.
        for (const s of sockets) s.destroy();
      }),
  };
}
