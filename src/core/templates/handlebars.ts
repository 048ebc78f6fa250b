import { createRequire } from 'node:module';

/** Handlebars, loaded on first use: commands and servers without templates never load it. */

export type Handlebars = typeof import('handlebars');
let loaded: Handlebars | undefined;
let hbEnv: Handlebars | undefined;

/** Whether Handlebars has been loaded (tests check a static server never loads it). */
export const engineLoaded = (): boolean => hbEnv !== undefined;
/**
 * The Handlebars environment parsing and checking templates, loaded on first use
 * (synchronously: compiling is), so commands and servers without templates never load it.
 */
export function hbs(): Handlebars {
  if (hbEnv) return hbEnv;
  loaded = createRequire(import.meta.url)('handlebars') as Handlebars;
  return (hbEnv = loaded.create());
}

/** The Handlebars module itself (new environments are made from it), once loaded. */
export const hbModule = (): Handlebars | undefined => loaded;
