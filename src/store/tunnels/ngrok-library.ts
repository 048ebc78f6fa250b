import { createRequire } from 'node:module';

/**
 * The boundary with the @ngrok/ngrok library (an optional dependency: its native agent ships in
 * a per-platform npm package, so a platform without one installs mockdev without it). Loaded
 * lazily, only by what uses ngrok; tests give a stand-in of this shape.
 */
export interface NgrokLibrary {
  forward(config: {
    addr: number | string;
    authtoken: string;
    verify_upstream_tls?: boolean;
  }): Promise<{ url(): string | null }>;
  disconnect(url?: string): Promise<void>;
}

export interface LoadedNgrok {
  library: NgrokLibrary;
  version?: string;
}

/** The name is a variable so that the bundler leaves the library out (it is loaded from node_modules). */
const LIBRARY = '@ngrok/ngrok';

/** Loads the library; throws (with the loader's reason) where it is not installed or does not load. */
export async function loadNgrok(): Promise<LoadedNgrok> {
  const loaded = (await import(LIBRARY)) as NgrokLibrary & { default?: NgrokLibrary };
  const library = typeof loaded.forward === 'function' ? loaded : loaded.default!;
  let version: string | undefined;
  try {
    version = (createRequire(import.meta.url)(`${LIBRARY}/package.json`) as { version?: string }).version;
  } catch {
    version = undefined;
  }
  return { library, version };
}

/** The first line of why something failed. */
export const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** The line the holder (ngrok-holder.ts) writes once the tunnel is open: `url=<public URL>`. */
export const URL_LINE = /^url=(https:\/\/\S+)$/m;
