import type { LicenseService, Stores } from '../core/ports.js';
import { usableDataDir } from '../store/fs/data-dir.js';
import { openLocalStores } from '../store/local.js';
import { HttpLicenseService } from '../store/net/license-service.js';

/** What every use case needs: the stores, the data directory and the working folder. */
export interface AppContext extends Stores {
  /** The data directory: the MCP server reaches only what is inside it. */
  dataDir: string;
  /** Folder that relative paths the user gives are resolved against. */
  cwd: string;
  /** The environment of this run: MOCKDEV_LICENSE_URL and MOCKDEV_LICENSE_PUBLIC_KEY are read from it. */
  env: NodeJS.ProcessEnv;
  /** The license service of e-mail activation (over HTTP here). */
  licenseService: LicenseService;
}

export interface ContextOptions {
  dataDir?: string;
  /** Environment the data directory is read from when `dataDir` is not given (default: the process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How often the change feed polls a served project folder / the data directory (ms). */
  folderPollMs?: number;
  dataDirPollMs?: number;
}

/**
 * The context over this machine's stores (the data directory from the environment by default,
 * checked first: an unusable one is an error naming the variable that chose it).
 */
export function createContext(options: ContextOptions = {}): AppContext {
  const dataDir = options.dataDir ?? usableDataDir(options.env);
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  return {
    ...openLocalStores(dataDir, { ...options, cwd }),
    dataDir,
    cwd,
    env,
    licenseService: new HttpLicenseService(),
  };
}
