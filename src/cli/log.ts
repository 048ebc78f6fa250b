/** Diagnostics on stderr, filtered by MOCKDEV_LOG_LEVEL (SPEC part 8). */
import { currentIo, currentRun } from './io.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Reads MOCKDEV_LOG_LEVEL (from the current run's environment) into the current run; returns
 * an error message when the value is not a level.
 */
export function initLogLevel(env: NodeJS.ProcessEnv = currentIo().env): string | undefined {
  const raw = env.MOCKDEV_LOG_LEVEL;
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    return `Invalid MOCKDEV_LOG_LEVEL "${raw}": must be one of ${LOG_LEVELS.join(', ')}`;
  }
  currentRun().logLevel = value as LogLevel;
  return undefined;
}

export const enabled = (level: LogLevel): boolean =>
  LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(currentRun().logLevel);

const write = (level: LogLevel, message: string) => {
  if (enabled(level)) currentIo().stderr.write(`${level === 'info' ? '' : `[${level}] `}${message}\n`);
};

export const log = {
  error: (m: string) => write('error', m),
  warn: (m: string) => write('warn', m),
  info: (m: string) => write('info', m),
  debug: (m: string) => write('debug', m),
  trace: (m: string) => write('trace', m),
};
