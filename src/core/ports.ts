/**
 * The store interfaces (ports). The app's use cases, the runtime and the adapters see stores only
 * through these; `src/store/` holds today's implementation (JSON folders, SQLite and a file spool
 * in the data directory) and a later one (PostgreSQL for shared deployments) adds another. Each
 * interface has one contract test suite (test/contract/) that every implementation runs.
 *
 * Types only: nothing here costs anything at run time.
 */
import type { MockdevError } from './errors.js';
import type { Endpoint } from './model/endpoint.js';
import type { Flow } from './model/flow.js';
import type { Resource } from './model/resource.js';
import type { ProjectFile } from './model/project.js';
import type { ServerRecord } from './model/server.js';
import type { StoredLicense } from './model/license.js';
import type { Settings } from './model/settings.js';
import type { ActiveEnvironments, Environment } from './model/environment.js';
import type { TreeState } from './model/ui-state.js';

// ---------------------------------------------------------------- projects

/** A project as a store holds it: its settings, its endpoints, and the store's handle for it. */
export interface StoredProject {
  /** The store's handle for this project: pass it back to read, update and remove it. Opaque. */
  key: string;
  /** Where it lives, for people (a folder, or a database): printed, never parsed. */
  location: string;
  /**
   * In the store's own space (the data directory). Projects made by `init` in a folder the user
   * chose are not (folder projects); the MCP server reaches only managed projects (SPEC 4.3).
   */
  managed: boolean;
  project: ProjectFile;
  endpoints: Endpoint[];
  /** Its flows (`flows.json` here), in order; none when it has none. */
  flows: Flow[];
  /** Its resources (`resources.json` here; issue 26), in order; none when it has none. */
  resources: Resource[];
}

/** What a change to a project writes back; fields left out stay as they are. */
export interface ProjectChangeResult<T> {
  project?: ProjectFile;
  endpoints?: Endpoint[];
  flows?: Flow[];
  resources?: Resource[];
  result: T;
}

export interface ProjectChange {
  projectId: string;
  key: string;
  change: 'created' | 'updated' | 'deleted';
}

export interface Subscription {
  close(): void;
}

export interface ProjectSummary {
  id: string;
  name: string;
  port: number;
  managed: boolean;
}

export interface ProjectQuery {
  /** Only the managed projects (names are unique among them), not the folder projects the store knows. */
  managedOnly?: boolean;
  /**
   * Only the projects inside the store's own space (the data directory), the MCP server's reach:
   * the managed ones and the known folder projects whose folder is in it (`npm start`'s demo).
   */
  dataDirOnly?: boolean;
}

/** A project the store knows but cannot read: it is listed as such, never left out silently. */
export interface UnreadableProject {
  /** As StoredProject's. */
  key: string;
  location: string;
  managed: boolean;
  /** The file that could not be read. */
  file: string;
  /** Why (CORRUPT_FILE, UNSUPPORTED_VERSION, IO_ERROR), naming the file. */
  error: MockdevError;
  /** Its id and name as the store knew them before it broke, when it did. */
  id?: string;
  name?: string;
}

/**
 * Projects are managed (in the store's own space) or folder projects (in a folder the user chose).
 * The store knows a folder project once it was created in its folder or opened by it
 * (`openFolder`: `serve ./my-api`, any command given a folder) until that folder holds no
 * project any more: from then on `find` and `list` include it, as they do managed projects.
 * Names are unique among managed projects only; a folder project may share one (then `find`
 * returns both, and the caller says the name is ambiguous).
 */
export interface ProjectStore {
  /**
   * Every project the store knows, managed and folder projects, oldest first. A project that
   * cannot be read is returned as unreadable, never skipped silently.
   */
  list(query?: ProjectQuery): Promise<{ projects: StoredProject[]; unreadable: UnreadableProject[] }>;
  /** Id, name and port of every project the store knows (or only the managed ones), without reading endpoints. */
  summaries(query?: ProjectQuery): Promise<ProjectSummary[]>;
  /** A managed project by id; undefined when there is none. A broken one throws, naming the file. */
  get(id: string): Promise<StoredProject | undefined>;
  /**
   * The projects an id or a name refers to, managed and known folder projects alike: those with
   * that id, else those with that name (exact matches, else case-insensitive ones). Reads only
   * the projects it returns (an index answers the lookup). A broken one throws, naming the file:
   * a broken file never makes a project disappear.
   */
  find(idOrName: string, query?: ProjectQuery): Promise<StoredProject[]>;
  /**
   * The project in a folder the user named (relative to `cwd`); undefined when the folder holds
   * none. A folder project opened so is known to the store from then on (see above).
   */
  openFolder(path: string, cwd: string): Promise<StoredProject | undefined>;
  /** Reads a project again by its key. PROJECT_NOT_FOUND when it is gone. */
  read(key: string): Promise<StoredProject>;
  /**
   * Creates a project (with `flows`, when given; none otherwise): a managed one (names are unique among them, case-insensitively: NAME_TAKEN
   * otherwise), or one in a folder (`folder`, relative to `cwd`; CONFLICT when it already holds
   * a project, unless `overwrite`), which the store knows from then on.
   */
  create(
    project: ProjectFile,
    endpoints: Endpoint[],
    options?: { folder?: { path: string; cwd: string; overwrite?: boolean }; flows?: Flow[] },
  ): Promise<StoredProject>;
  /**
   * Read-modify-write of one project, serialised against every other writer (other processes
   * included): `change` gets the project as stored now and says what to write back. A rename
   * of a managed project to a name another has is NAME_TAKEN.
   */
  update<T>(
    key: string,
    change: (current: StoredProject) => ProjectChangeResult<T> | Promise<ProjectChangeResult<T>>,
  ): Promise<T>;
  /** Deletes a project (a managed one entirely; in a folder, only mockdev's files, and forgets it). */
  remove(key: string): Promise<void>;
  /**
   * The change feed: calls `listener` when a project is created, changed or deleted, by this
   * process or any other (hand edits included). With `key`, only that project's changes (a
   * folder project's too); without, the managed projects' changes. The listener may be called
   * synchronously from the notification: keep it cheap.
   */
  watch(listener: (change: ProjectChange) => void, options?: { key?: string }): Subscription;
}

// ---------------------------------------------------------------- servers and settings

/**
 * The running mock servers: registered by each server, read by `status` and `stop`. A server is
 * known by its process and port, so one process may run several (`mockdev ui` runs the servers
 * started through the admin API).
 */
export interface ServerRegistry {
  register(record: ServerRecord): Promise<void>;
  /** Removes the record of one server (its pid and port). */
  unregister(record: Pick<ServerRecord, 'pid' | 'port'>): Promise<void>;
  /** The servers running now; records of servers that are gone are removed, never returned. */
  list(): Promise<ServerRecord[]>;
  /**
   * Asks a server to stop; false when it was already gone. A server whose record says
   * `stopByRequest` gets a stop request its host process picks up (onStopRequest); any other
   * server's process gets SIGTERM.
   */
  signalStop(record: ServerRecord): boolean;
  /** Whether the server of a record still runs (its process lives and its record is still there). */
  isRunning(record: ServerRecord): boolean;
  /**
   * The host's side of `stopByRequest`: calls `listener` (once) when a stop of this server is
   * requested, by this process or another; polled, within about 200 ms.
   */
  onStopRequest(record: Pick<ServerRecord, 'pid' | 'port'>, listener: () => void): Subscription;
  /**
   * Asks a running server to start a run of a flow (`flow run`): the host picks it up through
   * onRunRequest within about 200 ms and records the run under `runId`. False when the server
   * is gone.
   */
  requestRun(record: ServerRecord, request: FlowRunRequest): boolean;
  /** The host's side of requestRun: calls `listener` once per request, in the order they were made. */
  onRunRequest(
    record: Pick<ServerRecord, 'pid' | 'port'>,
    listener: (request: FlowRunRequest) => void,
  ): Subscription;
}

/** A run of a flow asked for by hand: the id it will be recorded under, and the flow. */
export type FlowRunRequest = { runId: string; flowId: string };

export interface SettingsStore {
  /** Defaults for what is not set. A broken settings file is CORRUPT_FILE, naming it. */
  read(): Promise<Settings>;
  update(patch: Partial<Settings>): Promise<Settings>;
}

/**
 * The activated license. The key is a secret: an implementation keeps it readable by the user
 * only and never puts it into an error message or a log.
 */
export interface LicenseStore {
  /** The license activated last; undefined when none is. A broken file is CORRUPT_FILE, naming it. */
  read(): Promise<StoredLicense | undefined>;
  /** Replaces the activated license. */
  write(license: StoredLicense): Promise<void>;
}

// ---------------------------------------------------------------- the license service

/** What the license service says of an e-mail activation. */
export type ActivationAnswer = { status: 'pending' } | { status: 'confirmed'; key: string };

export interface LicenseServiceOptions {
  /** How long one request may take (default: the implementation's, 10 s over HTTP). */
  timeoutMs?: number;
}

/**
 * The license service of e-mail activation (docs/license.md) at the base URL a caller gives
 * (MOCKDEV_LICENSE_URL). Every failure (unreachable, no answer in time, a status that is not
 * 2xx, an answer that is not the protocol's JSON) is IO_ERROR naming the URL, but for the
 * refusals the protocol names (a second trial: CONFLICT; no activation asked for: NOT_FOUND); an
 * answer is never quoted (it may hold a key).
 */
export interface LicenseService {
  /** Asks the service to e-mail an activation link to `email`. */
  requestActivation(service: string, email: string, options?: LicenseServiceOptions): Promise<void>;
  /**
   * Asks the service to e-mail `email` a link that confirms a trial (one per address): CONFLICT
   * when the address had its trial.
   */
  requestTrial(service: string, email: string, options?: LicenseServiceOptions): Promise<void>;
  /** Whether the activation of `email` was confirmed, and then the key the service sends. */
  checkActivation(service: string, email: string, options?: LicenseServiceOptions): Promise<ActivationAnswer>;
}

// ---------------------------------------------------------------- environments

/**
 * Environments (Pro): variables and secrets, project-scoped or global, and which are active for
 * each project. Secrets' values are kept apart from the plain variables, readable by the user
 * only, and never put into an error message or a log. Names are unique per scope (a project,
 * or the global ones), case-insensitively: NAME_TAKEN otherwise.
 */
export interface EnvironmentStore {
  /** Every environment (or, with `projectIds`, the global ones and those of these projects), oldest first. */
  list(query?: { projectIds?: string[] }): Promise<Environment[]>;
  /** One environment by id, secrets' values included; undefined when there is none. */
  get(id: string): Promise<Environment | undefined>;
  /** Stores a new environment (NAME_TAKEN when its scope has one of that name). */
  create(environment: Environment): Promise<Environment>;
  /**
   * Read-modify-write of one environment, serialised against every other writer: `change` gets
   * it as stored and returns what to store (its id and scope stay). NOT_FOUND when it is gone.
   */
  update(id: string, change: (current: Environment) => Environment): Promise<Environment>;
  /** Deletes an environment and any activation of it; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Deletes a project's environments and what was active for it; returns how many. */
  removeProject(projectId: string): Promise<number>;
  /** What is active for a project (ids; nulls when nothing is). */
  getActive(projectId: string): Promise<ActiveEnvironments>;
  /** Sets what is active for a project; the ids must exist (NOT_FOUND otherwise). */
  setActive(projectId: string, active: ActiveEnvironments): Promise<void>;
}

// ---------------------------------------------------------------- documents the user names

/** Files the user names: OpenAPI documents to import, `export -o` targets. */
export interface UserFiles {
  /**
   * Reads a file, relative to the working folder, or with `within` relative to `within.root`:
   * then a path that leads outside that folder, symlinks followed, is refused with
   * INVALID_ARGUMENT (`within.name` says what the folder is). A missing or unreadable file is
   * INVALID_ARGUMENT naming it.
   */
  read(path: string, options?: { within?: { root: string; name: string } }): Promise<Buffer>;
  /**
   * The entries of a folder (names, and which are folders), sorted by name; undefined when the
   * path is not a folder (a file, or nothing). Same `within` rule as `read`.
   */
  list(
    path: string,
    options?: { within?: { root: string; name: string } },
  ): Promise<{ name: string; folder: boolean }[] | undefined>;
  /** Absolute form of a path the user gave. */
  resolve(path: string): string;
  /** Writes a file atomically (temp file, fsync, rename): a reader never sees half of it. */
  writeAtomic(path: string, text: string): Promise<void>;
}

/**
 * What the web UI keeps per project (the endpoint tree's expanded folders): in the data
 * directory, not in the browser, so another browser or a restart sees it too.
 */
export interface UiStateStore {
  /** The project's tree state; undefined when none was saved (or what was saved is unreadable). */
  readTree(projectId: string): Promise<TreeState | undefined>;
  writeTree(projectId: string, state: TreeState): Promise<void>;
  /** Forgets the project's state (the project was deleted). */
  removeProject(projectId: string): Promise<void>;
}

export type * from './ports-serving.js';
export type * from './ports-log.js';
import type { RecordingStore, RequestLogStore } from './ports-log.js';
import type {
  ContractStore,
  FlowRunStore,
  ResourceStateStore,
  TlsFiles,
  TunnelRegistry,
} from './ports-serving.js';

/** Every store a running mockdev uses. */
export interface Stores {
  projects: ProjectStore;
  requests: RequestLogStore;
  recordings: RecordingStore;
  flowRuns: FlowRunStore;
  servers: ServerRegistry;
  settings: SettingsStore;
  license: LicenseStore;
  environments: EnvironmentStore;
  files: UserFiles;
  uiState: UiStateStore;
  tls: TlsFiles;
  tunnels: TunnelRegistry;
  contracts: ContractStore;
  resourceStates: ResourceStateStore;
  /** Releases what the stores hold open (database handles, watchers). */
  close(): void;
}
