import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { CliInput, CliIo, CliOutput } from '../../src/cli/io.js';
import { runCli as runProgram } from '../../src/cli/program.js';
import { cliEnv, runCli, tempDir, type CliOptions, type CliResult } from './cli.js';

export interface InProcessOptions extends CliOptions {
  /** Which streams look like a terminal: all of them (`true`), or each on its own. */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
}

/** Collects what the CLI writes; looks like a terminal when asked to. */
class Capture extends Writable implements CliOutput {
  text = '';
  columns?: number;
  constructor(readonly isTTY: boolean) {
    super({ decodeStrings: false });
    if (isTTY) this.columns = 100;
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}

/**
 * Runs the CLI in this process (`runCli(argv, io)` of src/cli/program.ts) with its own stdout
 * and stderr buffers, stdin text, TTY flags, working folder and environment, and resolves with
 * what the spawned `runCli` of ./cli.ts resolves with: the exit code main.ts would set, stdout
 * and stderr. Runs may overlap; each sees only its own I/O and data dir. Fails after
 * `timeoutMs` (30 s by default) with what was written so far.
 */
export async function runCliInProcess(args: string[], options: InProcessOptions): Promise<CliResult> {
  const tty =
    typeof options.tty === 'object'
      ? options.tty
      : { stdin: options.tty, stdout: options.tty, stderr: options.tty };
  const stdin: CliInput = Readable.from(options.input ? [Buffer.from(options.input)] : [], {
    objectMode: false,
  });
  stdin.isTTY = tty.stdin === true;
  const stdout = new Capture(tty.stdout === true);
  const stderr = new Capture(tty.stderr === true);
  const io: CliIo = {
    stdin,
    stdout,
    stderr,
    cwd: options.cwd ?? tmpdir(),
    env: cliEnv(options.dataDir, options.env),
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `mockdev ${args.join(' ')} (in-process) took over ${timeoutMs} ms\nstdout: ${stdout.text}\nstderr: ${stderr.text}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    // As main.ts does: the exit code, or an internal error reported in one line.
    const code = await Promise.race([
      runProgram(args, io).catch((e: unknown) => {
        stderr.write(`mockdev: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
        return 1;
      }),
      timeout,
    ]);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(timer);
  }
}

/** A test's (or a suite's) after-hook registration: node:test's `t.after`, or `after`. */
export interface AfterHook {
  after(fn: () => unknown): void;
}

/** What a test that runs the CLI needs: its own temp folder and data dir, removed after it. */
export interface CliSandbox {
  /** The temp folder (the working folder of every run). */
  dir: string;
  /** `<dir>/data`, the data directory of every run. */
  dataDir: string;
  /** Runs the CLI in-process. */
  cli(args: string[], extra?: Partial<InProcessOptions>): Promise<CliResult>;
  /** Runs the built binary in its own process (for the tests that prove the real wiring). */
  spawn(args: string[], extra?: Partial<CliOptions>): Promise<CliResult>;
  /**
   * Runs `fn` after the test, before the folder is removed (the last deferred first): stop
   * servers and close contexts here, so nothing writes into the folder once it is gone.
   */
  defer(fn: () => unknown): void;
}

/** A fresh sandbox for one test (or one suite), cleaned up by `t.after`. */
export function cliSandbox(t: AfterHook, prefix = 'mockdev-test-'): CliSandbox {
  const tmp = tempDir(prefix);
  const deferred: (() => unknown)[] = [];
  t.after(async () => {
    try {
      for (const fn of deferred.reverse()) await fn();
    } finally {
      tmp.cleanup();
    }
  });
  const dataDir = join(tmp.dir, 'data');
  return {
    dir: tmp.dir,
    dataDir,
    defer: (fn) => void deferred.push(fn),
    cli: (args, extra = {}) => runCliInProcess(args, { dataDir, cwd: tmp.dir, ...extra }),
    spawn: (args, extra = {}) => runCli(args, { dataDir, cwd: tmp.dir, ...extra }),
  };
}
