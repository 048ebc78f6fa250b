import { TOKEN_ENV } from '../../core/binding.js';
import { DEFAULT_HOST } from '../../core/model/fields.js';
import { MockdevError } from '../../core/errors.js';
import { parseLoggingMode } from '../../mcp/logging-mode.js';
import type { McpServerOptions } from '../../mcp/server.js';
import type { McpOptions } from '../commands/mcp.js';
import { currentIo } from '../io.js';
import { enabled, log } from '../log.js';
import { packageVersion } from '../../core/version.js';
import { guardFromTunnels } from '../../app/tunnels.js';
import { cliContext } from './context.js';
import { listenPort, serverToken } from './listening.js';

export async function mcp(opts: McpOptions): Promise<void> {
  const ctx = cliContext();
  const settings = await ctx.settings.read();
  const loggingMode =
    opts.loggingMode === undefined ? settings.mcpLoggingMode : parseLoggingMode(opts.loggingMode);
  const httpOnly = {
    '--port': opts.port,
    '--host': opts.host,
    '--token': opts.token,
    '--token-file': opts.tokenFile,
  };
  const given = Object.keys(httpOnly).filter((k) => httpOnly[k as keyof typeof httpOnly] !== undefined);
  if (!opts.http && given.length > 0) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${given.join(' and ')} ${given.length === 1 ? 'applies' : 'apply'} to the HTTP mode only`,
      {
        hint: 'Add --http, or drop them to use stdio',
      },
    );
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
  const token = await serverToken(opts, { host, what: 'the MCP server', env: TOKEN_ENV.mcp });
  const { startHttpMode, MCP_PATH } = await import('../../mcp/http.js');
  const { isWildcardHost, openableUrls } = await import('../../http/addresses.js');
  const running = await startHttpMode({
    ...base,
    host,
    port: listenPort(opts.port, settings.mcpPort),
    loggingMode,
    token,
    log: (line) => currentIo().stderr.write(`${line}\n`),
  });
  // The MCP server is never tunnelled: `tunnel start -P` refuses this port while it runs.
  let guard;
  try {
    guard = await guardFromTunnels(ctx, { port: running.port, what: 'mockdev mcp --http' });
  } catch (e) {
    await running.close();
    throw e;
  }
  if (token !== undefined) log.info('Every request needs "Authorization: Bearer <token>".');
  // A wildcard bind (0.0.0.0) is opened at 127.0.0.1 here and at the machine's addresses elsewhere.
  const urls = openableUrls('http', host, running.port);
  const url = `${urls.local}${MCP_PATH}`;
  log.info(`mockdev MCP server listening on ${url} (Streamable HTTP; legacy SSE on ${url}/sse)`);
  if (isWildcardHost(host) && urls.others.length > 0)
    log.info(
      `Listening on every address (${host}): from other machines use ${urls.others.map((u) => `${u}${MCP_PATH}`).join(' or ')}`,
    );
  log.info(
    `Health: ${url}/health  Logs: ${url}/logs  Connections: ${url}/connections  (logging mode: ${loggingMode})`,
  );
  log.info('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  guard.close();
  await running.close();
  log.info('MCP server stopped.');
}
