import type { Route } from '../route.js';
import { endpointRoutes } from './endpoints.js';
import { environmentRoutes } from './environments.js';
import { importRoutes } from './imports.js';
import { licenseRoutes } from './license.js';
import { metaRoutes } from './meta.js';
import { projectRoutes } from './projects.js';
import { recordingRoutes } from './recordings.js';
import { settingsRoutes } from './settings.js';
import { variationRoutes } from './variations.js';
import { serverRoutes } from './servers.js';
import { sessionRoutes } from './session.js';
import { requestRoutes } from './requests.js';
import { eventRoutes } from './events.js';
import { flowRoutes } from './flows.js';
import { flowRunRoutes } from './flow-runs.js';
import { uiStateRoutes } from './ui-state.js';
import { tlsRoutes } from './tls.js';
import { tunnelRoutes } from './tunnels.js';
import { contractRoutes } from './contract.js';
import { resourceRoutes } from './resources.js';

/**
 * Every route of the admin API, grouped by resource (one file per group, like the CLI's
 * commands). The OpenAPI document lists exactly these.
 */
export const ALL_ROUTES: readonly Route[] = [
  ...metaRoutes(() => ALL_ROUTES),
  ...sessionRoutes,
  ...projectRoutes,
  ...endpointRoutes,
  ...variationRoutes,
  ...resourceRoutes,
  ...importRoutes,
  ...recordingRoutes,
  ...environmentRoutes,
  ...settingsRoutes,
  ...licenseRoutes,
  ...serverRoutes,
  ...tunnelRoutes,
  ...tlsRoutes,
  ...contractRoutes,
  ...requestRoutes,
  ...flowRoutes,
  ...flowRunRoutes,
  ...eventRoutes,
  ...uiStateRoutes,
];
