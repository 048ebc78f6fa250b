import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { isProcessAlive, isSameProcessAlive } from '../fs/process.js';

/**
 * The process a tunnel runs in, and its children: started detached, it leads a process group
 * of its own (POSIX), so a signal to the group reaches whatever it started too.
 */

/** Sends `signal` to the process's group (POSIX), else to the process; false when it is gone. */
export function signalTree(pid: number, signal: NodeJS.Signals): boolean {
  if (process.platform !== 'win32') {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      // not a group leader (or gone): the process alone
    }
  }
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process has ended: gone, or a zombie its parent has not reaped yet (Linux /proc). */
export function hasEnded(pid: number): boolean {
  if (!isProcessAlive(pid)) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Whether the process recorded (pid and start time) still runs: not gone, not reused, no zombie. */
export const isRunning = (pid: number, procStart?: string): boolean =>
  isSameProcessAlive(pid, procStart) && !hasEnded(pid);

/** Waits until the process has ended, at most `ms`; whether it has. */
export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!hasEnded(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

/**
 * Stops a process and its group: SIGTERM, SIGKILL after `graceMs` when it still runs, and
 * SIGKILL to what is left of its group once it is gone. Nothing is sent when the pid is no
 * longer the process that was recorded (`procStart`). Resolves with whether it ran.
 */
export async function stopTree(pid: number, graceMs: number, procStart?: string): Promise<boolean> {
  if (!isRunning(pid, procStart)) return false;
  signalTree(pid, 'SIGTERM');
  if (!(await waitGone(pid, graceMs))) {
    signalTree(pid, 'SIGKILL');
    await waitGone(pid, 2000);
  }
  // Children that outlived their leader (the group keeps its id while one of them runs).
  if (process.platform !== 'win32') {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // none left
    }
  }
  return true;
}
