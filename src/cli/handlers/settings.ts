import { readSettings, updateSettings } from '../../app/settings.js';
import { MockdevError } from '../../core/errors.js';
import { PortSchema } from '../../core/model/fields.js';
import { MCP_LOGGING_MODES, type Settings } from '../../core/model/settings.js';
import { parseInput } from '../../core/validate.js';
import { toInt } from '../args.js';
import type { SettingsUpdateOptions } from '../commands/settings.js';
import { printFields, printJson } from '../output.js';
import { cliContext } from './context.js';

const THEMES = ['light', 'dark', 'system'] as const;

function oneOf<T extends string>(
  value: string | undefined,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid ${flag} "${value}": must be one of ${allowed.join(', ')}`,
    );
  }
  return v as T;
}

function bool(value: string | undefined, flag: string): boolean | undefined {
  const v = oneOf(value, flag, ['true', 'false'] as const);
  return v === undefined ? undefined : v === 'true';
}

function port(value: string | undefined, flag: string): number | undefined {
  const n = toInt(value, flag);
  return n === undefined ? undefined : parseInput(PortSchema, n, flag);
}

function atLeast(value: string | undefined, flag: string, min: number): number | undefined {
  const n = toInt(value, flag);
  if (n !== undefined && n < min) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid ${flag} "${value}": must be a whole number of at least ${min}`,
    );
  }
  return n;
}

function url(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '' || v.toLowerCase() === 'none') return null;
  let protocol = '';
  try {
    protocol = new URL(v).protocol;
  } catch {
    // checked below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid --error-reporting-url "${value}": must be an http or https URL, or none`,
    );
  }
  return v;
}

/** The options given, checked; INVALID_ARGUMENT (exit 2) naming the allowed values. */
export function settingsPatch(opts: SettingsUpdateOptions): Partial<Settings> {
  const patch: Partial<Settings> = {
    theme: oneOf(opts.theme, '--theme', THEMES),
    defaultPort: port(opts.defaultPort, '--default-port'),
    mcpPort: port(opts.mcpPort, '--mcp-port'),
    uiPort: port(opts.uiPort, '--ui-port'),
    mcpAutoStart: bool(opts.mcpAutoStart, '--mcp-auto-start'),
    mcpLoggingMode: oneOf(opts.mcpLoggingMode, '--mcp-logging-mode', MCP_LOGGING_MODES),
    confirmBeforeDelete: bool(opts.confirmBeforeDelete, '--confirm-before-delete'),
    developerMode: bool(opts.developerMode, '--developer-mode'),
    errorReporting: bool(opts.errorReporting, '--error-reporting'),
    errorReportingUrl: url(opts.errorReportingUrl),
    requestLogLimit: atLeast(opts.requestLogLimit, '--request-log-limit', 1),
    requestBodyLimitBytes: atLeast(opts.requestBodyLimit, '--request-body-limit', 0),
  };
  for (const key of Object.keys(patch) as (keyof Settings)[]) if (patch[key] === undefined) delete patch[key];
  return patch;
}

function print(s: Settings): void {
  printFields([
    ['Theme', s.theme],
    ['Default port', s.defaultPort],
    ['MCP port', s.mcpPort],
    ['UI port', s.uiPort],
    ['MCP auto-start', s.mcpAutoStart],
    ['MCP logging mode', s.mcpLoggingMode],
    ['Confirm before delete', s.confirmBeforeDelete],
    ['Developer mode', s.developerMode],
    ['Error reporting', s.errorReporting ? 'on (nothing is reported yet)' : 'off'],
    ['Error reporting URL', s.errorReportingUrl],
    ['Request log limit', s.requestLogLimit],
    ['Request body limit', `${s.requestBodyLimitBytes} bytes`],
  ]);
}

export async function show(opts: { json?: boolean }): Promise<void> {
  const s = await readSettings(cliContext());
  if (opts.json) printJson(s);
  else print(s);
}

export async function update(opts: SettingsUpdateOptions & { json?: boolean }): Promise<void> {
  const { json, ...rest } = opts;
  const patch = settingsPatch(rest);
  if (Object.keys(patch).length === 0) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: 'Pass at least one option, e.g. --theme dark; run "mockdev settings update --help" for all of them',
    });
  }
  const s = await updateSettings(cliContext(), patch);
  if (json) printJson(s);
  else print(s);
}
