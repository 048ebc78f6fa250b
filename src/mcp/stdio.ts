import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpServerOptions } from './server.js';

/**
 * Serves MCP over stdin/stdout until stdin closes, the client disconnects, or a signal arrives.
 * stdout carries protocol messages only; anything else goes to stderr through `options`.
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
  await stopped;
  for (const s of signals) process.off(s, stop);
  await server.close().catch(() => undefined);
  process.stdin.destroy();
}
