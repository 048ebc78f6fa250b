/**
 * The MCP server's HTTP mode as a handler (SPEC 4.2): a request and its response in, no socket
 * (http.ts listens). Every request passes the HTTP guard (http/guard.ts: Host, then Origin, then
 * the token), then the route table below: Streamable HTTP on /mcp, the legacy HTTP+SSE
 * transport on /mcp/sse and /mcp/messages (http-transports.ts), and JSON side paths for health,
 * recent calls and open connections. Refusals and the side paths answer problem+json; /mcp and
 * /mcp/messages answer JSON-RPC errors, the shape MCP clients read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../app/context.js';
import { TOKEN_ENV } from '../core/binding.js';
import { MockdevError } from '../core/errors.js';
import { bearerAuth, createGuard, flatHeaders } from '../http/guard.js';
import { methodNotAllowed, sendProblem } from '../http/reply.js';
import { CallLog } from './call-log.js';
import { createTransports, MCP_PATH, rpcMethodNotAllowed } from './http-transports.js';
import type { McpLoggingMode } from './logging-mode.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { SessionRegistry, type TransportKind } from './sessions.js';
import { ALL_TOOLS } from './tools/index.js';
import { MCP_WORDING } from './wording.js';

export { MCP_PATH };

const DEFAULT_LOG_LIMIT = 100;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface McpHttpOptions extends Omit<McpServerOptions, 'onCall' | 'ctx'> {
  ctx: AppContext;
  loggingMode: McpLoggingMode;
  /** Bound to a loopback address: the Host must then name the loopback too. */
  loopback: boolean;
  /** The server's own origins (its listen URLs); pages of any loopback origin pass too. */
  origins: () => readonly string[];
  /** Every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** A Streamable HTTP session with no open stream and no request for this long is ended (ms). */
  sessionIdleMs?: number;
  /** Diagnostics (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly sessions: SessionRegistry;
  readonly calls: CallLog;
  /** Ends every session and stops watching for project changes. */
  close(): Promise<void>;
}

type Handle = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const { ctx, log = () => undefined } = options;
  const startedAt = new Date();
  const sessions = new SessionRegistry();
  const calls = new CallLog(options.loggingMode);
  const tools = options.tools ?? ALL_TOOLS;
  const guard = createGuard({
    what: 'the MCP server',
    loopback: options.loopback,
    origins: options.origins,
    loopbackOrigins: true,
    auth: bearerAuth(options.token),
    tokenHint: `with the token mockdev mcp --http was started with (${TOKEN_ENV.mcp}, --token-file or --token -)`,
  });

  const transports = createTransports({
    sessions,
    newServer: (sessionId: () => string | undefined, kind: TransportKind) =>
      createMcpServer({
        ...options,
        onCall: (record) => {
          const id = sessionId();
          if (id) sessions.touch(id);
          calls.add({ ...record, sessionId: id ?? null, transport: kind, client: sessions.client(id) });
        },
      }),
  });

  const sendJson = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body, null, 2));
  };

  const health = () => ({
    status: 'ok',
    name: 'mockdev',
    version: options.version,
    uptime: Math.round((Date.now() - startedAt.getTime()) / 1000),
    startedAt: startedAt.toISOString(),
    toolCount: tools.length,
    tools: tools.map((t) => t.name),
    sessions: sessions.size,
    loggingMode: calls.mode,
  });

  const logs: Handle = (_req, res, url) => {
    const raw = url.searchParams.get('limit');
    const limit = raw === null ? DEFAULT_LOG_LIMIT : Number(raw);
    if (!Number.isInteger(limit) || limit < 1)
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Invalid limit "${raw}": must be a whole number of at least 1`,
        {
          details: { field: 'limit', value: raw },
        },
      );
    sendJson(res, { loggingMode: calls.mode, logs: calls.recent(Math.min(limit, calls.capacity)) });
  };

  /** The paths and what each method does on them. /mcp answers in JSON-RPC, the others problem+json. */
  const ROUTES: Record<string, Record<string, Handle>> = {
    [MCP_PATH]: { GET: transports.streamable, POST: transports.streamable, DELETE: transports.streamable },
    [`${MCP_PATH}/messages`]: { POST: transports.postSseMessage },
    [`${MCP_PATH}/sse`]: { GET: transports.openSse },
    [`${MCP_PATH}/health`]: { GET: (_req, res) => sendJson(res, health()) },
    [`${MCP_PATH}/logs`]: { GET: logs },
    [`${MCP_PATH}/connections`]: { GET: (_req, res) => sendJson(res, { connections: sessions.list() }) },
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    guard(flatHeaders(req.headers), path);
    const methods = ROUTES[path];
    if (!methods)
      throw new MockdevError('NOT_FOUND', `No such path ${path}`, {
        hint: `MCP clients connect to ${MCP_PATH}; see also ${Object.keys(ROUTES)
          .filter((p) => p !== MCP_PATH && p !== `${MCP_PATH}/messages`)
          .join(', ')}`,
      });
    const method = req.method ?? 'GET';
    const handle = methods[method];
    const allow = Object.keys(methods);
    if (!handle) {
      if (path === MCP_PATH) return rpcMethodNotAllowed(res, method, allow);
      throw methodNotAllowed(method, path, allow);
    }
    await handle(req, res, url);
  }

  const handler = (async (req, res) => {
    try {
      await route(req, res);
    } catch (e) {
      if (!(e instanceof MockdevError))
        log(
          `[error] MCP HTTP request ${req.method} ${req.url} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      const error =
        e instanceof MockdevError
          ? e
          : new MockdevError('INTERNAL', 'The request failed unexpectedly; the server keeps running');
      sendProblem(res, error, { say: MCP_WORDING });
    }
  }) as McpHttpHandler;

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
  Object.assign(handler, {
    sessions,
    calls,
    close: () =>
      (closed ??= (async () => {
        watch.close();
        clearInterval(sweeper);
        await sessions.closeAll();
      })()),
  });
  return handler;
}
