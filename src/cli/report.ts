import type { MockdevError, Wording } from '../core/errors.js';

/**
 * What the CLI prints for an error that ends a command: one line, the message and its fix. A
 * stack trace follows only for a bug (INTERNAL) with debug logs on (MOCKDEV_LOG_LEVEL=debug or
 * the developerMode setting), so that it can be reported; a usage error (any other code: a bad
 * option, a project not found, a busy port) is one line whatever the level.
 */
export function errorReport(err: MockdevError, say: Wording, debug: boolean): string {
  const line = `mockdev: ${err.describe(say)}\n`;
  if (!debug || err.code !== 'INTERNAL') return line;
  const stack = (err.cause as Error | undefined)?.stack;
  return stack ? `${line}${stack}\n` : line;
}
