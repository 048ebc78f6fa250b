/**
 * The store interfaces (ports). The app's use cases, the runtime and the adapters see stores only
 * through these; `src/store/` holds today's implementation (JSON folders, SQLite and a file spool
 * in the data directory) and a later one (PostgreSQL for shared deployments) adds another. Each
 * interface has one contract test suite (test/contract/) that every implementation runs.
 *
 * Types only: nothing here costs anything at run time.
 */
import type { MockdevError } from './errors.js';
import type { ContractVerdict } from './model/contract.js';
import type { Endpoint } from './model/endpoint.js';
import type { Flow } from './model/flow.js';
import type { Resource } from './model/resource.js';
import type { ProjectFile } from './model/project.js';
import type { Recording } from './model/recording.js';
import type { ParsedRequestFilters, RequestRecord, RequestSummary } from './model/request.js';
import type { RequestStats, RequestStatsFilters, StatsWindow } from './model/request-stats.js';
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

// ---------------------------------------------------------------- request log

/**
 * A response as the request log stores it. The object that answers many requests (an endpoint's
 * precompiled response) is the same object every time and `shared`: the log stores it once.
 */
export interface LoggedResponse {
  readonly headersJson: string;
  /** Already cut at the body cap (see `truncated`); null for no body (HEAD). */
  readonly body: Buffer | null;
  readonly truncated: boolean;
  readonly shared: boolean;
}

/** A record as the server hands it over: wire-level pieces, converted only when read. */
export interface NewRequestRecord {
  endpointId: string | null;
  /** ms since the epoch */
  ts: number;
  method: string;
  /** The request target as received: path and query. */
  url: string;
  /** node's req.rawHeaders: [name, value, name, value, ...] */
  rawHeaders: string[];
  /** Already cut at the body cap (see `truncated`). */
  body: Buffer | null;
  /** The request body was longer than the cap. */
  truncated: boolean;
  status: number;
  durationMs: number;
  response: LoggedResponse;
  /**
   * The variation that answered, as it was named then; null or absent: the endpoint's own
   * response, or none (no endpoint, a proxy).
   */
  variation?: LoggedVariation | null;
  /** The request's HTTP major version: 2 for HTTP/2, else HTTP/1.1 (node's httpVersionMajor). */
  httpMajor?: number;
  /**
   * The socket's remote address (node keeps it per connection); the log derives the caller's
   * address from it and the headers (core/client-address.ts). Absent: unknown.
   */
  remoteAddress?: string;
  /** Milliseconds the response was held back (its delay, as sampled); absent or 0: none. */
  delayMs?: number;
  /** The fault the request got (`reset`, `drip:1024`; core/model/fault.ts); absent or null: none. */
  fault?: string | null;
}

/** A variation as the request log keeps it: the same object for every request it answers. */
export interface LoggedVariation {
  readonly id: string;
  readonly name: string;
}

export interface RequestLogWriterOptions {
  projectId: string;
  /** Retention: records kept per project (the oldest unstarred are dropped first). */
  limit: number;
  /** Told, in one line, what went wrong (a failed write, records lost). */
  onWarning?: (message: string) => void;
}

/** A server's side of the request log: takes records on the request path, cheaply. */
export interface RequestLogWriter {
  /** Takes one record; never throws, never blocks. The record object is not kept. */
  push(record: NewRequestRecord): void;
  /** Records that could not be written (each reported through onWarning), this writer's life long. */
  readonly lost: number;
  /**
   * Writes what is queued and makes it readable. Records pushed after this are counted as lost
   * and reported, never dropped silently.
   */
  close(): Promise<void>;
}

export interface RequestLogStore {
  /** Newest first. */
  list(projectId: string, filters: ParsedRequestFilters): Promise<RequestRecord[]>;
  get(id: string): Promise<RequestRecord | undefined>;
  setStarred(id: string, starred: boolean): Promise<RequestRecord | undefined>;
  /** All the ids or none: when any is unknown, nothing is deleted and the unknown ones are returned. */
  deleteIds(ids: string[]): Promise<{ deleted: string[]; missing: string[] }>;
  /** Deletes every record of a project; returns how many. */
  clear(projectId: string): Promise<number>;
  /**
   * The records logged after `cursor`, of every project, oldest first, at most `limit`, in brief;
   * and the cursor to pass next time. Without a cursor: no records, and the cursor of now (what
   * is logged from then on comes next). How a watcher sees what any server logs.
   */
  since(cursor: string | undefined, limit: number): Promise<{ records: RequestSummary[]; cursor: string }>;
  openWriter(options: RequestLogWriterOptions): RequestLogWriter;
  /**
   * How many of a project's records pass `filters` (the list's, without a limit; `after`: only
   * those logged after that id). Like every read it first takes in what servers have written.
   */
  count(projectId: string, filters: RequestStatsFilters): Promise<number>;
  /**
   * Calls `onWritten` soon after any server (of any process) writes records to the log, as the
   * log's own delivery allows (it may also call it when nothing new is readable); the caller
   * then reads. Never throws; `close()` stops it. What `requests wait` follows.
   */
  watchWrites(onWritten: () => void): Subscription;
  /**
   * The records of a project logged after `cursor` (oldest first, at most `limit`), whole, and
   * the cursor to pass next time. Without a cursor: no records, and the cursor of now. What a
   * live contract check follows; like every read it first expands what is spooled, so a serving
   * process calls it only while its writer is idle, never under load.
   */
  after(
    projectId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ records: RequestRecord[]; cursor: string }>;
  /**
   * What the request log's charts show: the project's records in `window` that pass `filters`,
   * by status class per time bucket, and their latencies (a histogram and p50/p95/p99); the rules
   * are core/model/request-stats.ts's. Like every read it first expands what is spooled.
   */
  stats(projectId: string, filters: RequestStatsFilters, window: StatsWindow): Promise<RequestStats>;
  /** Stores live contract verdicts with their records (ids no longer logged are ignored). */
  setContractVerdicts(verdicts: { id: string; verdict: ContractVerdict }[]): Promise<void>;
  close(): void;
}

// ---------------------------------------------------------------- recordings

/** One side of a proxied exchange as the server hands it over: wire pieces, converted when written. */
export interface NewRecordedMessage {
  /** Flat [name, value, ...] list (hop-by-hop headers already left out on the response side). */
  rawHeaders: string[];
  /** Cut at the body cap (see `truncated`); null for no body. As on the wire: possibly gzip/br. */
  body: Buffer | null;
  truncated: boolean;
}

/** A proxied exchange as the server hands it over; the writer stores it after the response. */
export interface NewRecording {
  endpointId: string;
  /** ms since the epoch, when the request arrived. */
  ts: number;
  durationMs: number;
  /** The URL the request was forwarded to. */
  target: string;
  request: NewRecordedMessage & { method: string; /** path and query as received */ url: string };
  response: NewRecordedMessage & { status: number };
}

export interface RecordingWriterOptions {
  projectId: string;
  /** Bodies (decoded ones too) beyond this are stored cut short. */
  bodyLimitBytes: number;
  /** Told, in one line, what went wrong (a failed write, recordings lost). */
  onWarning?: (message: string) => void;
}

/** A server's side of the recordings: takes exchanges after they were answered, never blocking. */
export interface RecordingWriter {
  /** Takes one recording; never throws, never blocks (stored in batches, off the request path). */
  push(recording: NewRecording): void;
  /** Recordings that could not be stored (each reported through onWarning). */
  readonly lost: number;
  /** Stores what is queued. Recordings pushed after this are counted as lost. */
  close(): Promise<void>;
}

/**
 * Recordings of proxy endpoints (SPEC 2 "Recording"). Kept per endpoint; removing an endpoint
 * or a project removes its recordings (the app calls clearEndpoints / clearProject).
 */
export interface RecordingStore {
  /** The recordings of one endpoint, newest first (at most `limit`). */
  list(endpointId: string, options?: { limit?: number }): Promise<Recording[]>;
  get(id: string): Promise<Recording | undefined>;
  /** false when there was no such recording. */
  delete(id: string): Promise<boolean>;
  /** Deletes every recording of these endpoints; returns how many. */
  clearEndpoints(endpointIds: string[]): Promise<number>;
  /** Deletes every recording of a project (its endpoints gone with it); returns how many. */
  clearProject(projectId: string): Promise<number>;
  /** How many recordings each endpoint of a project has (endpoints without any left out). */
  countByEndpoint(projectId: string): Promise<Record<string, number>>;
  openWriter(options: RecordingWriterOptions): RecordingWriter;
  close(): void;
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
