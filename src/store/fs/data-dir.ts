import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The data directory of DECISIONS "Where state lives": $MOCKDEV_DATA_DIR, else the platform's
 * user data directory.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.MOCKDEV_DATA_DIR && env.MOCKDEV_DATA_DIR.trim() !== '') return env.MOCKDEV_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'mockdev');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'mockdev');
  const xdg =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== ''
      ? env.XDG_DATA_HOME
      : join(homedir(), '.local', 'share');
  return join(xdg, 'mockdev');
}

/** The data directory's layout: every store finds its files here. */
export const dataPaths = (dataDir: string) => ({
  root: dataDir,
  projects: join(dataDir, 'projects'),
  /** The folder projects (made by `init`, served or opened by their folder) this data dir knows. */
  folders: join(dataDir, 'folders.json'),
  settings: join(dataDir, 'settings.json'),
  requestLog: join(dataDir, 'requests.db'),
  servers: join(dataDir, 'servers'),
});
