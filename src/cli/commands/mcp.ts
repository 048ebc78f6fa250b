import type { Command } from 'commander';
import { TOKEN_ENV } from '../../core/binding.js';
import { examples, tokenOptions } from '../help.js';

export interface McpOptions {
  http?: boolean;
  port?: string;
  host?: string;
  loggingMode?: string;
  token?: string;
  tokenFile?: string;
}

const [TOKEN, TOKEN_FILE] = tokenOptions(TOKEN_ENV.mcp);

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
    .option('--host <HOST>', 'HTTP bind address (default: 127.0.0.1); any other address needs a token')
    .option(...TOKEN)
    .option(...TOKEN_FILE)
    .option(
      '--logging-mode <MODE>',
      'which calls /mcp/logs keeps for this run: off | errors | all (default: the mcpLoggingMode setting)',
    )
    .addHelpText(
      'after',
      `${examples(
        'mockdev mcp',
        'mockdev mcp --http',
        'mockdev mcp --http -p 3200 --logging-mode errors',
        'MOCKDEV_MCP_TOKEN=s3cret mockdev mcp --http --host 0.0.0.0',
        'mockdev mcp --http --host 0.0.0.0 --token-file ~/.config/mockdev/mcp-token',
      )}

Over stdio, stdout carries MCP messages only; logs go to stderr. The server runs until
stdin closes or it gets SIGINT/SIGTERM. Only projects in the data directory are reachable.
HTTP paths: POST /mcp, GET /mcp/sse, GET /mcp/health, GET /mcp/logs?limit=N, GET /mcp/connections.
With a token, every HTTP request needs "Authorization: Bearer <token>".`,
    )
    .action(async (opts: McpOptions) => (await handlers()).mcp(opts));
}
