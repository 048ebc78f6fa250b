import type { Stores } from '../core/ports.js';
import { dataPaths } from './fs/data-dir.js';
import { tightenDataDir } from './fs/private.js';
import { FolderProjectStore, type FolderProjectStoreOptions } from './fs/project-store.js';
import { FileContractStore } from './fs/contract-files.js';
import { FileEnvironmentStore } from './fs/environment-store.js';
import { FileLicenseStore } from './fs/license-store.js';
import { FileServerRegistry } from './fs/server-registry.js';
import { FileSettingsStore } from './fs/settings-store.js';
import { FileUiStateStore } from './fs/ui-state-store.js';
import { FileResourceStateStore } from './fs/resource-state-store.js';
import { LocalUserFiles } from './fs/user-files.js';
import { FileTlsFiles } from './fs/tls-files.js';
import { FileTunnelRegistry } from './tunnels/registry.js';
import { LocalFlowRuns } from './flow-runs/local-flow-runs.js';
import { LocalRecordings } from './recordings/local-recordings.js';
import { LocalRequestLog } from './request-log/local-request-log.js';

export interface LocalStoreOptions extends FolderProjectStoreOptions {
  /** Folder that relative paths the user gives are resolved against. */
  cwd: string;
  /** Told, once, of what opening did on its own (a data directory made private). */
  onInfo?: (message: string) => void;
}

/**
 * The stores of one data directory on this machine: projects as JSON folders, the request log
 * in SQLite with a file spool (the flow runs in the same database), servers and settings as JSON files. Nothing is opened until used;
 * the data directory is private (0700, its files 0600), and made so when an earlier mockdev left
 * it readable by others.
 */
export function openLocalStores(dataDir: string, options: LocalStoreOptions): Stores {
  const paths = dataPaths(dataDir);
  // A data directory an earlier mockdev made readable by others becomes private (private.ts).
  const tightened = tightenDataDir(dataDir);
  if (tightened) options.onInfo?.(tightened);
  const requests = new LocalRequestLog(paths.requestLog);
  const recordings = new LocalRecordings(paths.recordings);
  const flowRuns = new LocalFlowRuns(paths.requestLog, () => requests.db());
  return {
    projects: new FolderProjectStore(dataDir, options),
    requests,
    recordings,
    flowRuns,
    servers: new FileServerRegistry(dataDir),
    settings: new FileSettingsStore(dataDir),
    license: new FileLicenseStore(dataDir),
    environments: new FileEnvironmentStore(dataDir),
    files: new LocalUserFiles(options.cwd),
    uiState: new FileUiStateStore(dataDir),
    tls: new FileTlsFiles(dataDir),
    tunnels: new FileTunnelRegistry(dataDir),
    contracts: new FileContractStore(dataDir),
    resourceStates: new FileResourceStateStore(dataDir),
    close: () => {
      flowRuns.close();
      requests.close();
      recordings.close();
    },
  };
}
