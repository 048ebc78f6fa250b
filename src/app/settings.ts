import type { Settings } from '../core/model/settings.js';
import type { AppContext } from './context.js';

/** The settings (defaults for what is not set). */
export const readSettings = (ctx: Pick<AppContext, 'settings'>): Promise<Settings> => ctx.settings.read();

/** Changes the settings given; the others stay as they are. Returns all of them. */
export const updateSettings = (
  ctx: Pick<AppContext, 'settings'>,
  patch: Partial<Settings>,
): Promise<Settings> => ctx.settings.update(patch);
