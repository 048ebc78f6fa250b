import { httpsCredentials } from '../../app/https.js';
import { listServers, startServer, stopServers, type ServerInfo } from '../../app/server.js';
import { toInt } from '../args.js';
import type { ServeOptions } from '../commands/serve.js';
import type { TunnelProviderName } from '../../core/model/tunnel.js';
import { enabled, log } from '../log.js';
import { note, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';

export function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** `serve`: runs in the foreground until SIGINT, SIGTERM or `mockdev stop`, then returns. */
export async function serve(project: string | undefined, opts: ServeOptions): Promise<void> {
  const port = toInt(opts.port, '--port');
  const ctx = cliContext();
  const running = await startServer(ctx, {
    project,
    port,
    host: opts.host,
    ...(opts.tunnel !== undefined
      ? { tunnel: { provider: opts.tunnel === true ? undefined : (opts.tunnel as TunnelProviderName) } }
      : {}),

    tls: await httpsCredentials(ctx, opts),
    ...(opts.contract !== undefined ? { contract: opts.contract } : {}),
    logger: {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      request: enabled('debug')
        ? (r) => log.debug(`${r.method} ${r.url} -> ${r.status} (${r.durationMs.toFixed(1)} ms)`)
        : undefined,
      received: enabled('trace') ? (method, url) => log.trace(`<- ${method} ${url}`) : undefined,
    },
  });
  const endpoints = running.endpoints();
  printLine(
    `Serving "${running.project.name}" at ${running.url} (${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'})`,
  );
  if (running.record.tunnelUrl)
    printLine(`Public URL: ${running.record.tunnelUrl} (tunnel; stops with the server)`);
  const contract = running.contract();
  if (contract)
    printLine(
      `Checking each request against ${contract} (mockdev requests list ${running.project.id} --violations)`,
    );
  printLine();
  printTable(
    endpoints,
    [
      { header: 'METHOD', value: (e) => e.method },
      { header: 'URL', value: (e) => `${running.url}${e.path}` },
      { header: 'STATUS', value: (e) => e.status, align: 'right' },
      { header: 'ENABLED', value: (e) => (e.enabled ? 'yes' : 'no') },
      { header: 'NAME', value: (e) => e.name },
    ],
    'No endpoints yet: every request gets a 404 until you add some (mockdev endpoint add …); changes apply live.',
  );
  printLine();
  printLine('Requests are logged (mockdev requests list). Press Ctrl+C to stop.');
  const onSignal = () => void running.stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await running.stopped;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  note(`Stopped the server of "${running.project.name}".`);
}

// The project id last: `stop`, `requests list` and the other commands take it as well as the name.
const serverColumns = [
  { header: 'PROJECT', value: (s: ServerInfo) => s.projectName },
  { header: 'URL', value: (s: ServerInfo) => s.url },
  { header: 'PID', value: (s: ServerInfo) => s.pid, align: 'right' as const },
  { header: 'UPTIME', value: (s: ServerInfo) => formatUptime(s.uptimeMs), align: 'right' as const },
  { header: 'PROJECT ID', value: (s: ServerInfo) => s.projectId },
];

/** The public URL column, shown when a server has one (`serve --tunnel`). */
const tunnelColumn = { header: 'PUBLIC URL', value: (s: ServerInfo) => s.tunnelUrl ?? '' };

export async function status(opts: { json?: boolean }): Promise<void> {
  const servers = await listServers(cliContext());
  if (opts.json) return printJson(servers);
  const columns = servers.some((s) => s.tunnelUrl)
    ? [...serverColumns.slice(0, 2), tunnelColumn, ...serverColumns.slice(2)]
    : serverColumns;
  printTable(servers, columns, 'No mockdev server is running.');
}

export async function stop(project: string | undefined, opts: { json?: boolean }): Promise<void> {
  const stopped = await stopServers(cliContext(), project);
  if (opts.json) return printJson(stopped);
  if (stopped.length === 0) {
    printLine(
      project === undefined
        ? 'No mockdev server is running.'
        : `No mockdev server is running for "${project}".`,
    );
    return;
  }
  for (const s of stopped) printLine(`Stopped "${s.projectName}" at ${s.url} (pid ${s.pid})`);
}
