import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../../core/errors.js';
import type { TunnelProviderCheck, TunnelProviderName } from '../../core/model/tunnel.js';
import { processStartTime } from '../fs/process.js';
import { PRIVATE_FILE } from '../fs/private.js';
import { makeTunnelsDir, tunnelLogFile } from './registry.js';
import { signalTree, stopTree } from './process-tree.js';

/**
 * A tunnel provider (docs/tunnels.md): one module each (cloudflared.ts, ngrok.ts); a third is
 * one more file and one more line in providers.ts. A tunnel runs in a background process of its
 * own that outlives the command which started it; its output goes to <data>/tunnels/<id>.log,
 * read for the public URL.
 */
export interface TunnelProvider {
  readonly name: TunnelProviderName;
  /** Whether it can run here (its version, where it was found), or how to install it. */
  check(input: CheckInput): Promise<TunnelProviderCheck>;
  /** Starts a tunnel to 127.0.0.1:port in a background process; resolves once it has a public URL. */
  start(input: StartInput): Promise<StartedTunnel>;
}

export interface CheckInput {
  env: NodeJS.ProcessEnv;
  /** The auth token the provider would use (ngrok), if any: its presence is reported, never its value. */
  authtoken?: string;
}

export interface StartInput extends CheckInput {
  dataDir: string;
  projectId: string;
  /** The local port the tunnel forwards to. */
  port: number;
  /** The local server speaks HTTPS (`serve --tls`): forwarded as https, its certificate not checked. */
  https?: boolean;
  /** How long to wait for the public URL. */
  timeoutMs: number;
}

export interface StartedTunnel {
  url: string;
  /** The background process that holds the tunnel (the leader of its process group). */
  pid: number;
  procStart?: string;
}

/** How many of a provider's last output lines an error quotes. */
const QUOTED_LINES = 4;

/** The last non-empty lines of a process's output, in one line. */
export function lastLines(text: string, count = QUOTED_LINES): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.slice(-count).join(' | ');
}

export interface DetachedRun {
  /** The provider, for messages ("cloudflared"). */
  what: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  dataDir: string;
  projectId: string;
  timeoutMs: number;
  /** The public URL in the output so far, once there. */
  findUrl(output: string): string | undefined;
}

const readLog = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/**
 * Runs a provider's process detached (a process group of its own, its output to the tunnel's
 * log file) and waits for its public URL. When it exits first, or gives none in time, it is
 * stopped with everything it started, and the error quotes its last output lines.
 */
export async function runDetached(run: DetachedRun): Promise<StartedTunnel> {
  await makeTunnelsDir(run.dataDir);
  const log = tunnelLogFile(run.dataDir, run.projectId);
  let fd: number;
  try {
    fd = openSync(log, 'w', PRIVATE_FILE);
  } catch (e) {
    throw new MockdevError('IO_ERROR', `Could not create ${log}: ${(e as Error).message}`);
  }
  let exited: string | undefined;
  let child;
  try {
    child = spawn(run.command, run.args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: run.env,
      windowsHide: true,
    });
  } finally {
    closeSync(fd);
  }
  child.on('error', (e) => (exited ??= `could not be started (${e.message})`));
  child.on(
    'exit',
    (code, signal) => (exited ??= signal ? `was ended by ${signal}` : `exited with code ${code}`),
  );
  child.unref();
  const pid = child.pid;
  const deadline = Date.now() + run.timeoutMs;
  for (;;) {
    const output = readLog(log);
    const url = pid === undefined ? undefined : run.findUrl(output);
    if (url !== undefined && exited === undefined)
      return { url, pid: pid!, procStart: processStartTime(pid!) };
    if (exited !== undefined || pid === undefined || Date.now() >= deadline) {
      const why =
        exited ??
        `gave no public URL within ${Math.round(run.timeoutMs / 100) / 10} s (MOCKDEV_TUNNEL_TIMEOUT_MS)`;
      if (pid !== undefined) {
        if (exited === undefined) await stopTree(pid, 1000);
        else signalTree(pid, 'SIGKILL'); // what it started, if anything outlived it
      }
      const quoted = lastLines(readLog(log));
      rmSync(log, { force: true });
      throw new MockdevError(
        'IO_ERROR',
        `${run.what} ${why}${quoted ? `. Its last output: ${quoted}` : ' (it printed nothing)'}`,
        {
          hint: 'Check the network and the output above, then try again; "mockdev tunnel install" checks the provider',
        },
      );
    }
    await sleep(100);
  }
}
