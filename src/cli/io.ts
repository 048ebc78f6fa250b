import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import type { AppContext } from '../app/context.js';
import type { LogLevel } from './log.js';

/** A stream the CLI writes to: the process's stdout/stderr, or a test's buffer. */
export interface CliOutput extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
}

/** Where stdin comes from: the process's, or a test's text. */
export interface CliInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

/**
 * Everything a CLI run takes from its process: streams, working folder and environment. The
 * real binary uses the process's own; a test passes its own to run the CLI in-process.
 */
export interface CliIo {
  stdin: CliInput;
  stdout: CliOutput;
  stderr: CliOutput;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The state of one CLI run: its I/O, its log level and its AppContext (made on first use). */
export interface CliRun {
  readonly io: CliIo;
  logLevel: LogLevel;
  ctx?: AppContext;
  /**
   * The exit status of a command that ends without an error but is not a success (`flow wait`:
   * the run failed): it printed its result and set this, and the run exits with it.
   */
  exitCode?: number;
}

/** The process's own I/O, read lazily (touching process.stdin creates the stream). */
const PROCESS_IO: CliIo = {
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get cwd() {
    return process.cwd();
  },
  get env() {
    return process.env;
  },
};

const runs = new AsyncLocalStorage<CliRun>();
let processRun: CliRun | undefined;

/**
 * The current run: the in-process run this code is part of, else the process's own run. The
 * real binary never enters an AsyncLocalStorage context, so it pays nothing for the seam.
 */
export const currentRun = (): CliRun =>
  runs.getStore() ?? (processRun ??= { io: PROCESS_IO, logLevel: 'info' });

export const currentIo = (): CliIo => currentRun().io;

/** A path the user gave, resolved against the run's working folder as the process would ("" stays ""). */
export const fromCwd = (path: string): string => (path === '' ? path : resolve(currentIo().cwd, path));

/**
 * Runs `fn` as a CLI run of its own over `io`: module-level helpers (printing, logging,
 * confirmation, stdin, the AppContext) see this run's state only, so runs can overlap. The
 * AppContext the run opened is closed when it ends.
 */
export async function runWithIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  const run: CliRun = { io, logLevel: 'info' };
  try {
    return await runs.run(run, fn);
  } finally {
    run.ctx?.close();
  }
}
