/**
 * Runs every store contract against every implementation in IMPLEMENTATIONS: a new store
 * implementation is tested by adding it there.
 */
import { IMPLEMENTATIONS } from './implementations.js';
import { environmentStoreContract } from './environment-store.contract.js';
import { flowRunStoreContract } from './flow-run-store.contract.js';
import { licenseStoreContract } from './license-store.contract.js';
import { projectFlowsContract } from './project-flows.contract.js';
import { projectStoreContract } from './project-store.contract.js';
import { recordingStoreContract } from './recording-store.contract.js';
import { requestLogContract } from './request-log.contract.js';
import { requestStatsContract } from './request-stats.contract.js';
import { requestWaitContract } from './request-wait.contract.js';
import { resourceStatesContract } from './resource-states.contract.js';
import { serverRegistryContract, settingsStoreContract } from './servers-settings.contract.js';
import { uiStateStoreContract } from './ui-state-store.contract.js';

for (const impl of IMPLEMENTATIONS) {
  projectStoreContract(impl);
  projectFlowsContract(impl);
  requestLogContract(impl);
  requestStatsContract(impl);
  requestWaitContract(impl);
  recordingStoreContract(impl);
  flowRunStoreContract(impl);
  serverRegistryContract(impl);
  settingsStoreContract(impl);
  licenseStoreContract(impl);
  environmentStoreContract(impl);
  uiStateStoreContract(impl);
  resourceStatesContract(impl);
}
