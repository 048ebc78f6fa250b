import type { DocumentFetcher, LicenseService, Stores } from '../core/ports.js';
import { usableDataDir } from '../store/fs/data-dir.js';
import { openLocalStores } from '../store/local.js';
import { HttpDocumentFetcher } from '../store/net/document-fetch.js';
import { HttpLicenseService } from '../store/net/license-service.js';

/**
 * What a caller may reach, and how it may name a project (DECISIONS "Trust and data"). Set on a
 * context by the adapter that serves callers (withReach); a use case's options may narrow it,
 * never widen it.
 */
export interface ProjectReach {
  /** Only projects inside the data directory (the MCP server's rule). */
  dataDirOnly?: boolean;
  /**
   * How a project is named: 'idOrName', by its id or name only, never by a filesystem path (the
   * admin API and MCP; a lookup then never registers a folder); 'any' also takes a folder holding
   * project.json (the CLI, the default).
   */
  lookup?: 'idOrName' | 'any';
}

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
  /** Fetches documents over http(s) (`contract import`, `contract validate -s URL`). */
  documents: DocumentFetcher;
  /** What this context's callers may reach (unset: everything, the CLI's reach). */
  reach?: ProjectReach;
  /**
   * Set when the stores are this machine's (createContext): what opens the same ones again in
   * another thread (a worker; the stores are safe across threads and processes). A context of
   * other stores has none, and its use cases run on the caller's thread.
   */
  local?: LocalContext;
}

/** What createContext opened: the data directory, the working folder, the environment and whom to tell. */
export interface LocalContext {
  dataDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  onWarning?: (message: string) => void;
  onInfo?: (message: string) => void;
}

/** The context for callers of a narrower reach (the admin API, MCP): the same stores. */
export const withReach = (ctx: AppContext, reach: ProjectReach): AppContext => ({
  ...ctx,
  reach: {
    dataDirOnly: ctx.reach?.dataDirOnly === true || reach.dataDirOnly === true,
    lookup: ctx.reach?.lookup === 'idOrName' || reach.lookup === 'idOrName' ? 'idOrName' : 'any',
  },
});

export interface ContextOptions {
  dataDir?: string;
  /** Environment the data directory is read from when `dataDir` is not given (default: the process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How often the change feed polls a served project folder / the data directory (ms). */
  folderPollMs?: number;
  dataDirPollMs?: number;
  /** Told, in one line, of what a store did on its own (a broken bookkeeping file moved aside). */
  onWarning?: (message: string) => void;
  /** Told, once, of what opening the stores did (a data directory readable by others made private). */
  onInfo?: (message: string) => void;
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
    documents: new HttpDocumentFetcher(),
    local: { dataDir, cwd, env, onWarning: options.onWarning, onInfo: options.onInfo },
  };
}
