import { checkTunnelProviders, startTunnel, stopTunnel, tunnelStatus } from '../../app/tunnels.js';
import type { TunnelProviderName, TunnelRecord } from '../../core/model/tunnel.js';
import { toInt } from '../args.js';
import type { TunnelStartOptions } from '../commands/tunnel.js';
import { printJson, printLine } from '../output.js';
import { cliContext } from './context.js';

/** A tunnel as --json prints it (without the bookkeeping of its process's start time). */
const shown = (t: TunnelRecord) => {
  const { procStart: _procStart, ...rest } = t;
  return rest;
};

const describe = (t: TunnelRecord): string =>
  `${t.url} -> ${t.https ? 'https://' : ''}127.0.0.1:${t.port} (${t.provider}, pid ${t.pid}${t.withServer ? ', stops with its server' : ''})`;

export async function start(project: string, opts: TunnelStartOptions): Promise<void> {
  const { tunnel, alreadyRunning } = await startTunnel(cliContext(), project, {
    provider: opts.provider as TunnelProviderName | undefined,
    port: toInt(opts.port, '--port'),
  });
  if (opts.json) return printJson({ ...shown(tunnel), alreadyRunning });
  printLine(
    alreadyRunning
      ? `A tunnel is already running: ${describe(tunnel)}`
      : `Tunnel started: ${describe(tunnel)}`,
  );
  printLine(tunnel.url);
}

export async function status(project: string, opts: { json?: boolean }): Promise<void> {
  const tunnel = await tunnelStatus(cliContext(), project);
  if (opts.json) return printJson(tunnel ? { running: true, ...shown(tunnel) } : { running: false });
  if (!tunnel) return printLine(`No tunnel is running for "${project}".`);
  printLine(`${describe(tunnel)}, started ${tunnel.startedAt}`);
}

export async function stop(project: string, opts: { json?: boolean }): Promise<void> {
  const stopped = await stopTunnel(cliContext(), project);
  if (opts.json) return printJson(stopped ? { stopped: true, ...shown(stopped) } : { stopped: false });
  printLine(
    stopped
      ? `Stopped the tunnel ${stopped.url} (pid ${stopped.pid})`
      : `No tunnel is running for "${project}".`,
  );
}

export async function install(opts: { json?: boolean }): Promise<void> {
  const checks = await checkTunnelProviders(cliContext());
  if (opts.json) return printJson(checks);
  for (const c of checks) {
    if (c.available) {
      printLine(`${c.provider}: available${c.version ? `, version ${c.version}` : ''} (${c.detail})`);
      continue;
    }
    printLine(`${c.provider}: not available: ${c.detail}`);
    if (c.install) {
      printLine('  Install it:');
      for (const command of c.install.commands) printLine(`    ${command}`);
      printLine(`  Or download it: ${c.install.page}`);
    }
  }
}
