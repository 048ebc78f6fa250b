import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpServerOptions } from './server.js';

/** How long requests still running when stdin closes (or a signal arrives) may finish. */
const DRAIN_MS = 5000;

type RequestId = string | number;
const requestId = (m: JSONRPCMessage): RequestId | undefined =>
  'id' in m && 'method' in m ? (m.id as RequestId) : undefined;
const responseId = (m: JSONRPCMessage): RequestId | undefined =>
  'id' in m && !('method' in m) ? (m.id as RequestId) : undefined;

/**
 * Serves MCP over stdin/stdout until stdin closes, the client disconnects, or a signal arrives;
 * requests already received are answered first (for up to 5 s). stdout carries protocol
 * messages only; diagnostics go to stderr through `options`.
 */
export async function serveStdio(options: McpServerOptions): Promise<void> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const s of signals) process.once(s, stop);
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.stdout.once('error', stop); // the client went away (EPIPE)
  server.onclose = stop;
  await server.connect(transport);

  // Track requests in flight so that a closing stdin does not drop their answers.
  const pending = new Set<RequestId>();
  let drained: (() => void) | undefined;
  const received = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    received?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    const id = responseId(message);
    if (id !== undefined && pending.delete(id) && pending.size === 0) drained?.();
  };

  await stopped;
  for (const s of signals) process.off(s, stop);
  if (pending.size > 0) {
    await new Promise<void>((resolve) => {
      drained = resolve;
      setTimeout(resolve, DRAIN_MS).unref();
    });
  }
  await server.close().catch(() => undefined);
  process.stdin.destroy();
}
