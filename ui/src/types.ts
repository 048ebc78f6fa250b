/**
 * The admin API's shapes the UI uses: the core's model types (type imports only; nothing of the
 * core is bundled), plus the few answers that are not a model type.
 */
import type { Project } from '../../src/core/model/project';
import type { Resource, ResourceItem } from '../../src/core/model/resource';
import type { ServerRecord } from '../../src/core/model/server';

export type { Endpoint, Variation } from '../../src/core/model/endpoint';
export type { Project } from '../../src/core/model/project';
export type { Settings } from '../../src/core/model/settings';
export type { ProjectDetail } from '../../src/core/model/project';
export type { RequestRecord } from '../../src/core/model/request';
export type { Recording } from '../../src/core/model/recording';
export type { TreeState, TreeStateView } from '../../src/core/model/ui-state';
export type { Flow, FlowRun, FlowRunStep } from '../../src/core/model/flow';

/** A project in GET /projects: a folder project carries its folder. */
export type ProjectListing = Project & { dir?: string };

/** A project GET /projects lists as unreadable: its file and the problem (id and name when known). */
export type { UnreadableProjectListing } from '../../src/core/model/project-listing';

/** A running mock server (GET /servers, `mockdev status --json`). */
export type ServerInfo = ServerRecord & { uptimeMs: number };

export type {
  CertificateInfo,
  TlsStatus,
  TrustCheck,
  TrustInstructions,
  TrustTarget,
} from '../../src/core/model/tls';
export type { TunnelProviderCheck, TunnelProviderName, TunnelRecord } from '../../src/core/model/tunnel';
export type {
  ContractCoverage,
  ContractInfo,
  ContractReport,
  ContractViolation,
} from '../../src/core/model/contract';
export type { RequestStats } from '../../src/core/model/request-stats';

export type { Resource, ResourceItem } from '../../src/core/model/resource';
/** A resource as GET …/resources lists it: with how many items it holds now. */
export type ResourceView = Resource & { itemCount: number };
/** GET/PUT …/resources/{resource}/data, POST …/reset: the resource and its current items. */
export interface ResourceData {
  resource: Resource;
  items: ResourceItem[];
}
