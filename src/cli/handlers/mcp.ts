import { DEFAULT_HOST, PortSchema } from '../../core/model/fields.js';
import { MockdevError } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import { isLoopbackHost } from '../../runtime/origin.js';
import { parseLoggingMode } from '../../mcp/logging-mode.js';
import type { McpServerOptions } from '../../mcp/server.js';
import { toInt } from '../args.js';
import type { McpOptions } from '../commands/mcp.js';
import { currentIo } from '../io.js';
import { enabled, log } from '../log.js';
import { packageVersion } from '../../core/version.js';
import { cliContext } from './context.js';

function port(value: string | undefined, fallback: number): number {
  const n = toInt(value, '--port');
  if (n === undefined) return fallback;
  if (n === 0) return 0;
  return parseInput(PortSchema, n, '--port');
}

export async function mcp(opts: McpOptions): Promise<void> {
  const ctx = cliContext();
  const settings = await ctx.settings.read();
  const loggingMode =
    opts.loggingMode === undefined ? settings.mcpLoggingMode : parseLoggingMode(opts.loggingMode);
  if (!opts.http && (opts.port !== undefined || opts.host !== undefined)) {
    throw new MockdevError('INVALID_ARGUMENT', '--port and --host apply to the HTTP mode only', {
      hint: 'Add --http, or drop them to use stdio',
    });
  }
  const base: McpServerOptions = {
    ctx,
    version: packageVersion(),
    onInternalError: (e) => {
      log.error(`MCP tool failed unexpectedly: ${e.message}`);
      const cause = e.cause as Error | undefined;
      if (enabled('debug') && cause?.stack) log.debug(cause.stack);
    },
  };

  if (!opts.http) {
    const { serveStdio } = await import('../../mcp/stdio.js');
    log.debug(`mockdev MCP server on stdio (data directory ${ctx.dataDir}, logging mode ${loggingMode})`);
    return serveStdio({
      ...base,
      onCall: (c) => {
        if (loggingMode === 'all' || (loggingMode === 'errors' && !c.ok)) {
          log.info(
            `mcp ${c.tool} ${c.ok ? 'ok' : `error ${c.error?.code}: ${c.error?.message}`} (${c.durationMs} ms)`,
          );
        }
      },
    });
  }

  const host = opts.host?.trim() || DEFAULT_HOST;
  const { startHttpMode } = await import('../../mcp/http.js');
  const running = await startHttpMode({
    ...base,
    host,
    port: port(opts.port, settings.mcpPort),
    loggingMode,
    log: (line) => currentIo().stderr.write(`${line}\n`),
  });
  if (!isLoopbackHost(host)) {
    log.warn(
      `The MCP server listens on ${host}, reachable from other machines, and has no authentication: anyone who can reach it can read and change your mock projects. Use --host 127.0.0.1 unless you need this.`,
    );
  }
  log.info(
    `mockdev MCP server listening on ${running.url} (Streamable HTTP; legacy SSE on ${running.url}/sse)`,
  );
  log.info(
    `Health: ${running.url}/health  Logs: ${running.url}/logs  Connections: ${running.url}/connections  (logging mode: ${loggingMode})`,
  );
  log.info('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  log.info('MCP server stopped.');
}
