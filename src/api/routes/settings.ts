import { readSettings, updateSettings } from '../../app/settings.js';
import { SettingsPatchSchema, type SettingsPatch } from '../../core/model/settings-patch.js';
import { SettingsSchema } from '../../core/model/settings.js';
import { defineRoute, type Route } from '../route.js';

/** The settings, as `mockdev settings show|update --json`, with the same rules for each value. */
export const settingsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/settings',
    tag: 'Settings',
    summary: 'The settings, defaults for what is not set (as `mockdev settings show --json`)',
    response: { schema: SettingsSchema, description: 'Every setting' },
    handle: ({ ctx }) => readSettings(ctx),
  }),
  defineRoute<SettingsPatch>({
    method: 'PATCH',
    path: '/settings',
    tag: 'Settings',
    summary: 'Change some settings; the others stay (as `mockdev settings update --json`)',
    description:
      'A bad value answers 400 naming the setting and the values it may take; an unknown setting 400 naming the known ones.',
    body: SettingsPatchSchema,
    response: { schema: SettingsSchema, description: 'Every setting, as changed' },
    handle: ({ ctx, body }) => updateSettings(ctx, body),
  }),
];
