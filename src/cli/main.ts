#!/usr/bin/env node
/**
 * The CLI entry: parse -> dispatch -> the one error-to-exit-code map. This is the only place
 * that decides the process's exit code. Heavy modules load only inside the command that runs.
 */
import { runCli } from './program.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`mockdev: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
