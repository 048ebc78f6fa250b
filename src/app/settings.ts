import { MockdevError } from '../core/errors.js';
import { SettingsPatchSchema } from '../core/model/settings-patch.js';
import { maskSettings, SERVER_PORT_LABELS, serverPortClash, type Settings } from '../core/model/settings.js';
import { isSensitiveAt, parseInput, shownValue } from '../core/validate.js';
import type { AppContext } from './context.js';

/** The settings (defaults for what is not set), secrets masked. */
export const readSettings = async (ctx: Pick<AppContext, 'settings'>): Promise<Settings> =>
  maskSettings(await ctx.settings.read());

export interface UpdateSettingsOptions {
  /** How the adapter names a setting in a message (`--default-port`); default: its own name. */
  name?: (setting: string) => string;
}

/**
 * Checks a change to the settings (SettingsPatchSchema: the allowed values of each); a bad one
 * is INVALID_ARGUMENT naming the setting, the value and what it may be.
 */
export function checkSettingsPatch(patch: unknown, options: UpdateSettingsOptions = {}): Partial<Settings> {
  const result = SettingsPatchSchema.safeParse(patch);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path[0];
    if (key === undefined || options.name === undefined)
      return parseInput(SettingsPatchSchema, patch, 'settings');
    const given = (patch as Record<string, unknown>)[String(key)];
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid ${options.name(String(key))}${isSensitiveAt(SettingsPatchSchema, [key]) ? '' : shownValue(given)}: ${issue.message}`,
      {
        details: { field: String(key) },
      },
    );
  }
  const data = Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined));
  if (Object.keys(data).length === 0) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: `Give at least one setting to change: ${Object.keys(SettingsPatchSchema.shape).join(', ')}`,
    });
  }
  return data as Partial<Settings>;
}

/**
 * Changes the settings given (checked first); the others stay as they are. Returns all of them,
 * secrets masked. The MCP server and the web UI cannot be given one port.
 */
export async function updateSettings(
  ctx: Pick<AppContext, 'settings'>,
  patch: unknown,
  options: UpdateSettingsOptions = {},
): Promise<Settings> {
  const change = checkSettingsPatch(patch, options);
  const clash = serverPortClash(await ctx.settings.read(), change);
  if (clash) {
    const { setting, other, port } = clash;
    const what = options.name
      ? `Invalid ${options.name(setting)} ${port}: it is ${SERVER_PORT_LABELS[other]} (${options.name(other)})`
      : `${capitalize(SERVER_PORT_LABELS[setting])} cannot be ${port}: it is ${SERVER_PORT_LABELS[other]}`;
    throw new MockdevError('INVALID_ARGUMENT', what, {
      hint: 'The MCP server and the web UI listen side by side: give each a port of its own',
      details: { field: setting },
    });
  }
  return maskSettings(await ctx.settings.update(change));
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
