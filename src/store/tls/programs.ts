/**
 * The programs `tls status` asks (certutil, keytool): found on the caller's PATH, run without a
 * shell, bounded by a timeout after which the program and anything it started are killed and
 * the answer is "timed out", never a wait.
 */
import { spawn } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface ProgramResult {
  /** The exit code; null when killed (timed out) or it could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not start. */
  error?: string;
}

/** What a run keeps of a program's output: enough for a keystore listing, no more. */
const MAX_OUTPUT = 8 * 1024 * 1024;

/** The program's full path on `PATH` (as the environment gives it), or undefined. */
export async function findProgram(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const file of names) {
      const full = join(dir, file);
      try {
        await fs.access(full, constants.X_OK);
        if ((await fs.stat(full)).isFile()) return full;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Runs `file args`, stdin closed; resolves within `timeoutMs` whatever the program does. */
export function runProgram(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let done = false;
    // Its own process group (not on Windows), so a timeout kills what it started too.
    const group = process.platform !== 'win32';
    const child = spawn(file, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
    const finish = (result: Omit<ProgramResult, 'stdout' | 'stderr'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...result, stdout, stderr });
    };
    const timer = setTimeout(() => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
      finish({ code: null, timedOut: true });
    }, options.timeoutMs);
    const keep = (text: string, chunk: Buffer) =>
      text.length < MAX_OUTPUT ? text + chunk.toString('utf8') : text;
    child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    child.on('error', (e) => finish({ code: null, timedOut: false, error: e.message }));
    child.on('close', (code) => finish({ code, timedOut: false }));
  });
}
