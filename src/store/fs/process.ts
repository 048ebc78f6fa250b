import { readFileSync } from 'node:fs';

/** The kernel's start time of a process (field 22 of /proc/PID/stat), where /proc exists. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19];
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Alive and, where a start time was recorded and can be read, the same process (not a reused pid). */
export function isSameProcessAlive(pid: number, procStart: string | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (procStart === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === procStart;
}
