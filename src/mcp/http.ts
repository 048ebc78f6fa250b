/**
 * `mockdev mcp --http`: the HTTP mode's handler (http-handler.ts) on a socket (http/listen.ts).
 * Loopback by default; beyond loopback a token is required (core/binding.ts).
 */
import { isLoopbackHost } from '../core/binding.js';
import { listenOrigins } from '../http/guard.js';
import { listen } from '../http/listen.js';
import { createMcpHttpHandler, MCP_PATH, type McpHttpOptions } from './http-handler.js';
import type { CallLog } from './call-log.js';
import type { SessionRegistry } from './sessions.js';

export { MCP_PATH };

export interface HttpModeOptions extends Omit<McpHttpOptions, 'loopback' | 'origins'> {
  host: string;
  port: number;
}

export interface RunningHttpMode {
  url: string;
  host: string;
  port: number;
  sessions: SessionRegistry;
  calls: CallLog;
  close(): Promise<void>;
}

export async function startHttpMode(options: HttpModeOptions): Promise<RunningHttpMode> {
  const { host, log = () => undefined } = options;
  let port = options.port;
  const loopback = isLoopbackHost(host);
  const handler = createMcpHttpHandler({ ...options, loopback, origins: listenOrigins(host, () => port) });
  let listening;
  try {
    listening = await listen((req, res) => void handler(req, res), { host, port, what: 'the MCP server' });
  } catch (e) {
    await handler.close();
    throw e;
  }
  const { server: http, url } = listening;
  port = listening.port;
  http.on('error', (e) => log(`[error] MCP HTTP server: ${e.message}`));
  let closed: Promise<void> | undefined;
  return {
    url: `${url}${MCP_PATH}`,
    host,
    port,
    sessions: handler.sessions,
    calls: handler.calls,
    close: () =>
      (closed ??= (async () => {
        await handler.close();
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          listening.closeAll();
        });
      })()),
  };
}
