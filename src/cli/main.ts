#!/usr/bin/env node
/**
 * The CLI entry: parse -> dispatch -> the one error-to-exit-code map. This is the only place
 * that decides the process's exit code. Heavy modules load only inside the command that runs.
 */
import { runCli } from './program.js';

// A reader that closes early (`mockdev export P | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`mockdev: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
