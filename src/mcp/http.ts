/**
 * The MCP server's HTTP mode (SPEC 4.2): Streamable HTTP with sessions on /mcp, the legacy
 * HTTP+SSE transport on /mcp/sse (+ /mcp/messages), and JSON side paths for health, recent
 * calls and open connections. Loopback by default; foreign Origins are refused (DNS rebinding).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../app/context.js';
import { listen } from '../runtime/listen.js';
import { CallLog } from './call-log.js';
import type { McpLoggingMode } from './logging-mode.js';
import { isLoopbackHost, originAllowed, hostAllowed } from '../runtime/origin.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { SessionRegistry, type TransportKind } from './sessions.js';
import { ALL_TOOLS } from './tools/index.js';

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_LOG_LIMIT = 100;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface HttpModeOptions extends Omit<McpServerOptions, 'onCall' | 'ctx'> {
  ctx: AppContext;
  host: string;
  port: number;
  loggingMode: McpLoggingMode;
  /** A Streamable HTTP session with no open stream and no request for this long is ended (ms). */
  sessionIdleMs?: number;
  /** Diagnostics (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface RunningHttpMode {
  url: string;
  host: string;
  port: number;
  sessions: SessionRegistry;
  calls: CallLog;
  close(): Promise<void>;
}

const sendJson = (res: ServerResponse, status: number, body: unknown, type = 'application/json'): void => {
  if (res.headersSent) return void res.end();
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
  res.end(text);
};

/** Errors of the side paths: application/problem+json, like mockdev's other HTTP interfaces. */
const sendProblem = (
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  code: string,
): void =>
  sendJson(res, status, { type: 'about:blank', title, status, detail, code }, 'application/problem+json');

/** JSON-RPC errors on /mcp, the shape MCP clients read. */
const sendRpcError = (res: ServerResponse, status: number, code: number, message: string): void =>
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });

async function readJsonBody(
  req: IncomingMessage,
): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return { ok: false, status: 413, message: `Request body larger than ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the request body is not valid JSON' };
  }
}

export async function startHttpMode(options: HttpModeOptions): Promise<RunningHttpMode> {
  const { ctx, log = () => undefined } = options;
  const startedAt = new Date();
  const sessions = new SessionRegistry();
  const calls = new CallLog(options.loggingMode);
  const loopback = isLoopbackHost(options.host);

  const newServer = (sessionId: () => string | undefined, kind: TransportKind) =>
    createMcpServer({
      ...options,
      onCall: (record) => {
        const id = sessionId();
        if (id) sessions.touch(id);
        calls.add({ ...record, sessionId: id ?? null, transport: kind, client: sessions.client(id) });
      },
    });

  async function handleStreamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req);
      if (!read.ok) return sendRpcError(res, read.status, -32700, read.message);
      body = read.body;
    } else if (req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return sendRpcError(res, 405, -32000, `Method ${req.method} not allowed on ${MCP_PATH}`);
    }
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session || session.transport !== 'streamable-http') {
        return sendRpcError(
          res,
          404,
          -32001,
          `Session "${sessionId}" not found: it ended or the server restarted. Initialize a new session`,
        );
      }
      sessions.touch(sessionId);
      if (req.method === 'GET') {
        session.openStreams++;
        res.once('close', () => {
          session.openStreams--;
          sessions.touch(sessionId);
        });
      }
      return (session.connection as StreamableHTTPServerTransport).handleRequest(req, res, body);
    }
    const initializing =
      req.method === 'POST' &&
      (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));
    if (!initializing) {
      return sendRpcError(
        res,
        400,
        -32000,
        'Bad request: no Mcp-Session-Id header. Send an initialize request first to open a session',
      );
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const now = new Date().toISOString();
        sessions.add({
          id,
          transport: 'streamable-http',
          server,
          connection: transport,
          since: now,
          lastActivity: now,
          openStreams: 0,
        });
      },
    });
    const server = newServer(() => transport.sessionId, 'streamable-http');
    server.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function openLegacySse(res: ServerResponse): Promise<void> {
    const transport = new SSEServerTransport(`${MCP_PATH}/messages`, res);
    const server = newServer(() => transport.sessionId, 'sse');
    const now = new Date().toISOString();
    sessions.add({
      id: transport.sessionId,
      transport: 'sse',
      server,
      connection: transport,
      since: now,
      lastActivity: now,
      openStreams: 1,
    });
    server.onclose = () => sessions.remove(transport.sessionId);
    await server.connect(transport);
  }

  async function postLegacyMessage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const id = url.searchParams.get('sessionId') ?? '';
    const session = sessions.get(id);
    if (!session || session.transport !== 'sse') {
      return sendRpcError(
        res,
        404,
        -32001,
        `Session "${id}" not found. Open a new stream with GET ${MCP_PATH}/sse`,
      );
    }
    const read = await readJsonBody(req);
    if (!read.ok) return sendRpcError(res, read.status, -32700, read.message);
    sessions.touch(id);
    await (session.connection as SSEServerTransport).handlePostMessage(req, res, read.body);
  }

  function health() {
    return {
      status: 'ok',
      name: 'mockdev',
      version: options.version,
      uptime: Math.round((Date.now() - startedAt.getTime()) / 1000),
      startedAt: startedAt.toISOString(),
      toolCount: (options.tools ?? ALL_TOOLS).length,
      tools: (options.tools ?? ALL_TOOLS).map((t) => t.name),
      sessions: sessions.size,
      loggingMode: calls.mode,
    };
  }

  function logs(res: ServerResponse, url: URL): void {
    const raw = url.searchParams.get('limit');
    const limit = raw === null ? DEFAULT_LOG_LIMIT : Number(raw);
    if (!Number.isInteger(limit) || limit < 1) {
      return sendProblem(
        res,
        400,
        'Invalid limit',
        `Invalid limit "${raw}": must be a whole number of at least 1`,
        'INVALID_ARGUMENT',
      );
    }
    sendJson(res, 200, { loggingMode: calls.mode, logs: calls.recent(Math.min(limit, calls.capacity)) });
  }

  const SIDE_PATHS: Record<
    string,
    (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>
  > = {
    [`${MCP_PATH}/health`]: (_req, res) => sendJson(res, 200, health()),
    [`${MCP_PATH}/logs`]: (_req, res, url) => logs(res, url),
    [`${MCP_PATH}/connections`]: (_req, res) => sendJson(res, 200, { connections: sessions.list() }),
    [`${MCP_PATH}/sse`]: (_req, res) => openLegacySse(res),
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (!originAllowed(req.headers.origin)) {
      return sendProblem(
        res,
        403,
        'Forbidden origin',
        `Origin "${req.headers.origin}" is not allowed: the mockdev MCP server accepts browser requests from localhost origins only`,
        'FORBIDDEN_ORIGIN',
      );
    }
    if (loopback && !hostAllowed(req.headers.host)) {
      return sendProblem(
        res,
        403,
        'Forbidden host',
        `Host "${req.headers.host}" is not allowed: the server is bound to loopback; use http://127.0.0.1 or http://localhost`,
        'FORBIDDEN_HOST',
      );
    }
    if (path === MCP_PATH) return handleStreamable(req, res);
    if (path === `${MCP_PATH}/messages`) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return sendProblem(
          res,
          405,
          'Method not allowed',
          `Use POST on ${MCP_PATH}/messages`,
          'METHOD_NOT_ALLOWED',
        );
      }
      return postLegacyMessage(req, res, url);
    }
    const side = SIDE_PATHS[path];
    if (side) {
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        return sendProblem(res, 405, 'Method not allowed', `Use GET on ${path}`, 'METHOD_NOT_ALLOWED');
      }
      return side(req, res, url);
    }
    sendProblem(
      res,
      404,
      'Not found',
      `No such path ${path}. MCP clients connect to ${MCP_PATH}; see also ${Object.keys(SIDE_PATHS).join(', ')}`,
      'NOT_FOUND',
    );
  }

  const {
    server: http,
    port,
    url,
  } = await listen(
    (req, res) => {
      route(req, res).catch((e: unknown) => {
        log(
          `[error] MCP HTTP request ${req.method} ${req.url} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
        if (!res.headersSent)
          sendProblem(
            res,
            500,
            'Internal error',
            'The request failed unexpectedly; the server keeps running',
            'INTERNAL',
          );
        else res.end();
      });
    },
    { host: options.host, port: options.port },
  );
  http.on('error', (e) => log(`[error] MCP HTTP server: ${e.message}`));

  // Project changes from any process (the store's change feed) reach every session.
  const watch = ctx.projects.watch((change) => {
    void sessions.broadcast({ event: 'project_changed', change: change.change, projectId: change.projectId });
  });
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweeper = setInterval(
    () => void sessions.expireIdle(idleMs),
    Math.max(50, Math.min(60_000, idleMs / 2)),
  );
  sweeper.unref();

  let closed: Promise<void> | undefined;
  return {
    url: `${url}${MCP_PATH}`,
    host: options.host,
    port,
    sessions,
    calls,
    close: () =>
      (closed ??= (async () => {
        watch.close();
        clearInterval(sweeper);
        await sessions.closeAll();
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })()),
  };
}
