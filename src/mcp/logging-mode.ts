import { MockdevError } from '../core/errors.js';
import { MCP_LOGGING_MODES } from '../core/model/settings.js';

export type McpLoggingMode = (typeof MCP_LOGGING_MODES)[number];

/** Checks a `--logging-mode` value; the settings file's value is checked by its schema. */
export function parseLoggingMode(value: string): McpLoggingMode {
  const mode = value.trim().toLowerCase();
  if (!(MCP_LOGGING_MODES as readonly string[]).includes(mode)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid --logging-mode "${value}": must be one of ${MCP_LOGGING_MODES.join(', ')}`,
      {
        hint: 'off keeps no call log, errors keeps failed calls, all keeps every call',
      },
    );
  }
  return mode as McpLoggingMode;
}
