import { readSettings, updateSettings } from '../../app/settings.js';
import { MockdevError } from '../../core/errors.js';
import type { Settings } from '../../core/model/settings.js';
import { toInt } from '../args.js';
import type { SettingsUpdateOptions } from '../commands/settings.js';
import { printFields, printJson } from '../output.js';
import { log } from '../log.js';
import { readStdin } from '../stdin.js';
import { cliContext } from './context.js';

/** The flag of each setting, for messages. */
const FLAGS: Record<string, string> = {
  theme: '--theme',
  defaultPort: '--default-port',
  mcpPort: '--mcp-port',
  uiPort: '--ui-port',
  mcpAutoStart: '--mcp-auto-start',
  mcpLoggingMode: '--mcp-logging-mode',
  confirmBeforeDelete: '--confirm-before-delete',
  developerMode: '--developer-mode',
  errorReporting: '--error-reporting',
  errorReportingUrl: '--error-reporting-url',
  requestLogLimit: '--request-log-limit',
  requestBodyLimitBytes: '--request-body-limit',
  requestSizeLimitBytes: '--request-size-limit',
  ngrokAuthtoken: '--ngrok-authtoken',
};

/** A word as typed; the settings' own rules (app/settings.ts) check the value. */
const word = (value: string | undefined): string | undefined => value?.trim().toLowerCase();

/** true / false as typed; anything else is left for the rules to refuse. */
function bool(value: string | undefined): boolean | string | undefined {
  const v = word(value);
  return v === 'true' ? true : v === 'false' ? false : value;
}

/** An http(s) URL, or none (or empty) for no URL. */
function url(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  return v === '' || v.toLowerCase() === 'none' ? null : v;
}

/** A value, or none (any case) for no value. */
const clearable = (value: string): string | null => (value.trim().toLowerCase() === 'none' ? null : value);

/** The options given, as typed values (numbers, booleans); the app checks them. */
export function settingsPatch(opts: SettingsUpdateOptions): Record<string, unknown> {
  const patch: Record<string, unknown> = {
    theme: word(opts.theme),
    defaultPort: toInt(opts.defaultPort, '--default-port'),
    mcpPort: toInt(opts.mcpPort, '--mcp-port'),
    uiPort: toInt(opts.uiPort, '--ui-port'),
    mcpAutoStart: bool(opts.mcpAutoStart),
    mcpLoggingMode: word(opts.mcpLoggingMode),
    confirmBeforeDelete: bool(opts.confirmBeforeDelete),
    developerMode: bool(opts.developerMode),
    errorReporting: bool(opts.errorReporting),
    errorReportingUrl: url(opts.errorReportingUrl),
    requestLogLimit: toInt(opts.requestLogLimit, '--request-log-limit'),
    requestBodyLimitBytes: toInt(opts.requestBodyLimit, '--request-body-limit'),
    requestSizeLimitBytes: toInt(opts.requestSizeLimit, '--request-size-limit'),
    ngrokAuthtoken: opts.ngrokAuthtoken === undefined ? undefined : clearable(opts.ngrokAuthtoken),
  };
  for (const key of Object.keys(patch)) if (patch[key] === undefined) delete patch[key];
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
    ['Request size limit', `${s.requestSizeLimitBytes} bytes`],
    ['ngrok auth token', s.ngrokAuthtoken ?? 'not set'],
  ]);
}

export async function show(opts: { json?: boolean }): Promise<void> {
  const s = await readSettings(cliContext());
  if (opts.json) printJson(s);
  else print(s);
}

export async function update(opts: SettingsUpdateOptions & { json?: boolean }): Promise<void> {
  const { json, ...rest } = opts;
  if (rest.ngrokAuthtoken === '-')
    rest.ngrokAuthtoken = (
      await readStdin('--ngrok-authtoken', 'echo "$TOKEN" | mockdev settings update --ngrok-authtoken -')
    ).split(/\r?\n/)[0]!;
  const onCommandLine =
    opts.ngrokAuthtoken !== undefined &&
    opts.ngrokAuthtoken !== '-' &&
    clearable(opts.ngrokAuthtoken) !== null;
  const patch = settingsPatch(rest);
  if (Object.keys(patch).length === 0) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: 'Pass at least one option, e.g. --theme dark; run "mockdev settings update --help" for all of them',
    });
  }
  const s = await updateSettings(cliContext(), patch, { name: (key) => FLAGS[key] ?? key });
  if (onCommandLine)
    log.warn(
      'A token given on the command line is visible in the process list: prefer --ngrok-authtoken - (stdin) or NGROK_AUTHTOKEN',
    );
  if (json) printJson(s);
  else print(s);
}
