import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  dataDir: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /**
   * The process's file-size limit (`ulimit -f`, set through sh, in the shell's blocks): a write
   * beyond it fails with EFBIG, as a full disk fails a write, for any user (root too).
   */
  fileSizeLimitBlocks?: number;
}

/** The environment of a CLI run in a test: the data dir given, no log level from the shell. */
export const cliEnv = (dataDir: string, env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  MOCKDEV_LOG_LEVEL: undefined,
  ...env,
  MOCKDEV_DATA_DIR: dataDir,
});

/** Runs the built CLI as a user would, in its own process, with a bounded time. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const limit = options.fileSizeLimitBlocks;
    const [cmd, argv] =
      limit === undefined
        ? [process.execPath, [CLI, ...args]]
        : ['sh', ['-c', `ulimit -f ${limit} && exec "$0" "$@"`, process.execPath, CLI, ...args]];
    const child = spawn(cmd, argv, {
      cwd: options.cwd ?? tmpdir(),
      env: cliEnv(options.dataDir, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mockdev ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'mockdev-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Parses stdout as JSON, failing with the whole output when it is not. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** An error is one line on stderr, nothing on stdout, the documented exit code, and no stack trace. */
/** A run that succeeded (exit 0; its stderr shown otherwise), for chaining. */
export function assertCliOk(r: CliResult): CliResult {
  assert.equal(r.code, 0, r.stderr);
  return r;
}

export function assertCliError(r: CliResult, code: number, re: RegExp): void {
  assert.equal(r.code, code, `exit code (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, re);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}
