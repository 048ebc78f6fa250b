import { resolveDataDir } from '../store/data-dir.js';
import { ProjectStore } from '../store/project-store.js';
import { SettingsStore } from '../store/settings-store.js';

/** What every use case needs: where data lives and the stores over it. */
export interface AppContext {
  dataDir: string;
  /** Folder that relative project paths are resolved against. */
  cwd: string;
  projects: ProjectStore;
  settings: SettingsStore;
}

export function createContext(options: { dataDir?: string; cwd?: string } = {}): AppContext {
  const dataDir = options.dataDir ?? resolveDataDir();
  return {
    dataDir,
    cwd: options.cwd ?? process.cwd(),
    projects: new ProjectStore(dataDir),
    settings: new SettingsStore(dataDir),
  };
}
