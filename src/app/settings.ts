import { MockdevError } from '../core/errors.js';
import { SettingsPatchSchema } from '../core/model/settings-patch.js';
import { maskSettings, type Settings } from '../core/model/settings.js';
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

/** Changes the settings given (checked first); the others stay as they are. Returns all of them, secrets masked. */
export const updateSettings = async (
  ctx: Pick<AppContext, 'settings'>,
  patch: unknown,
  options: UpdateSettingsOptions = {},
): Promise<Settings> => maskSettings(await ctx.settings.update(checkSettingsPatch(patch, options)));
