import type { Command } from 'commander';
import { examples } from '../help.js';

export interface McpOptions {
  http?: boolean;
  port?: string;
  host?: string;
  loggingMode?: string;
}

const handlers = () => import('../handlers/mcp.js');

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('start the MCP server for AI assistants (stdio by default, or HTTP)')
    .option('--http', 'serve over HTTP (Streamable HTTP on /mcp, SSE on /mcp/sse) instead of stdio')
    .option(
      '-p, --port <PORT>',
      'HTTP port, 1024-65535, or 0 for any free port (default: the mcpPort setting, 3100)',
    )
    .option('--host <HOST>', 'HTTP bind address (default: 127.0.0.1; other addresses have no authentication)')
    .option(
      '--logging-mode <MODE>',
      'which calls /mcp/logs keeps for this run: off | errors | all (default: the mcpLoggingMode setting)',
    )
    .addHelpText(
      'after',
      `${examples('mockdev mcp', 'mockdev mcp --http', 'mockdev mcp --http -p 3200 --logging-mode errors')}

Over stdio, stdout carries MCP messages only; logs go to stderr. The server runs until
stdin closes or it gets SIGINT/SIGTERM. Only projects in the data directory are reachable.
HTTP paths: POST /mcp, GET /mcp/sse, GET /mcp/health, GET /mcp/logs?limit=N, GET /mcp/connections.`,
    )
    .action(async (opts: McpOptions) => (await handlers()).mcp(opts));
}
