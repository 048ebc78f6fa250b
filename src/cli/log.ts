/** Diagnostics on stderr, filtered by MOCKDEV_LOG_LEVEL (SPEC part 8). */

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

let current: LogLevel = 'info';

/** Reads MOCKDEV_LOG_LEVEL; returns an error message when the value is not a level. */
export function initLogLevel(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.MOCKDEV_LOG_LEVEL;
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    return `Invalid MOCKDEV_LOG_LEVEL "${raw}": must be one of ${LOG_LEVELS.join(', ')}`;
  }
  current = value as LogLevel;
  return undefined;
}

export const logLevel = (): LogLevel => current;
export const enabled = (level: LogLevel): boolean => LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(current);

const write = (level: LogLevel, message: string) => {
  if (enabled(level)) process.stderr.write(`${level === 'info' ? '' : `[${level}] `}${message}\n`);
};

export const log = {
  error: (m: string) => write('error', m),
  warn: (m: string) => write('warn', m),
  info: (m: string) => write('info', m),
  debug: (m: string) => write('debug', m),
  trace: (m: string) => write('trace', m),
};
