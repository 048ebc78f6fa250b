import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, cliEnv, ROOT } from './cli.js';
import { waitUntil } from './wait.js';

/** The stand-in cloudflared (test/fixtures/tunnels/cloudflared): prints what the real one prints. */
export const FAKE_CLOUDFLARED = join(ROOT, 'test', 'fixtures', 'tunnels', 'cloudflared');
/** The URL the stand-in prints in its banner (FAKE_CLOUDFLARED_NAME unset). */
export const FAKE_URL = 'https://seasonal-deck-organisms-sf.trycloudflare.com';
/** A PATH with the stand-in first, and node (its interpreter). */
export const PATH_WITH_FAKE = [dirname(FAKE_CLOUDFLARED), dirname(process.execPath), '/usr/bin', '/bin'].join(
  ':',
);
/** A PATH without any cloudflared. */
export const PATH_WITHOUT = [dirname(process.execPath), '/nonexistent-mockdev-test'].join(':');

/** Whether a process has ended (gone, or a zombie nobody reaped). */
export function ended(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Kills a process (and its group) if it still runs: every test's t.after. */
export function killPid(pid: number | undefined): void {
  if (!pid) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

export const waitEnded = (pid: number, what: string) => waitUntil(() => ended(pid), what, 10_000);

/** A pid a file holds, once written. */
export const pidIn = (file: string): Promise<number> =>
  waitUntil(() => {
    try {
      return Number(readFileSync(file, 'utf8')) || undefined;
    } catch {
      return undefined;
    }
  }, `a pid in ${file}`);

/** The pids of processes (Linux /proc) whose environment has every one of `vars`. */
export function pidsWithEnv(vars: string[]): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (vars.every((v) => env.includes(v)) && !ended(Number(name))) out.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/** A spawned long-running mockdev command (`ui`, `mcp --http`): the port it says it listens on. */
export async function startListening(
  args: string[],
  options: { dataDir: string; env?: Record<string, string> },
): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.dataDir,
    env: cliEnv(options.dataDir, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const port = await waitUntil(
      () => Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]),
      `${args[0]} to listen`,
      20_000,
    );
    return { child, port, stop };
  } catch (e) {
    await stop();
    throw new Error(`${String(e)}\n${out}`);
  }
}
