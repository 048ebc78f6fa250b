/**
 * The store interfaces of what a serving process keeps beside the projects and the request log:
 * the runs of flows, the TLS files, the running tunnels. Part of core/ports.ts (which re-exports
 * them); a file of their own only to keep each file short. Types only.
 */
import type { FlowRun } from './model/flow.js';
import type { ResourceItem, ResourceState } from './model/resource.js';
import type { GuardedPort, TunnelRecord } from './model/tunnel.js';
import type { StoredProject, Subscription } from './ports.js';

// ---------------------------------------------------------------- flow runs

export interface FlowRunWriterOptions {
  projectId: string;
  /** Retention: runs kept per project (the request log's limit), the oldest dropped first. */
  limit: number;
  /** Told, in one line, what went wrong (a failed write, runs lost). */
  onWarning?: (message: string) => void;
}

/** A server's side of the flow runs: takes each run as it changes, never blocking. */
export interface FlowRunWriter {
  /**
   * The run has changed (a later save of the same id replaces it). Never throws, never blocks;
   * stored in batches off the request path, readable within about 100 ms. The writer keeps the
   * object until its batch is stored and stores it as it is then: save it again after every
   * change, and never reuse the object for another run.
   */
  save(run: FlowRun): void;
  /** Saves that could not be stored (each reported through onWarning). */
  readonly lost: number;
  /** Stores what is queued. Saves after this are counted as lost. */
  close(): Promise<void>;
}

/**
 * The runs of flows and their steps' outcomes (docs/flows.md), beside the request log and with
 * its retention. A run's `requestId` is resolved on read from its `request` (method, URL and the
 * time the record was logged): null when that record is gone.
 */
export interface FlowRunStore {
  /** A project's runs, newest first (at most `limit`; of one flow with `flowId`). */
  list(projectId: string, query: { flowId?: string; limit: number }): Promise<FlowRun[]>;
  get(id: string): Promise<FlowRun | undefined>;
  /**
   * The runs saved (created or changed) after `cursor`, of every project, oldest change first,
   * at most `limit`, and the cursor to pass next time. Without a cursor: no runs, and the cursor
   * of now. How the admin API's event stream sees what any server's flows do.
   */
  since(cursor: string | undefined, limit: number): Promise<{ runs: FlowRun[]; cursor: string }>;
  /** Deletes every run of a project; returns how many. */
  clearProject(projectId: string): Promise<number>;
  openWriter(options: FlowRunWriterOptions): FlowRunWriter;
  close(): void;
}

// ---------------------------------------------------------------- TLS files and tunnels

/** A certificate and its private key, PEM. */
export interface PemPair {
  cert: string;
  key: string;
}

/**
 * The local CA and the leaf certificate (docs/tls.md): `<data dir>/tls/` here, private keys
 * readable by the user only. Never in an error message or a log: the keys.
 */
export interface TlsFiles {
  /** The folder and each file's path, for people (`tls status`, `tls trust`). */
  readonly paths: { dir: string; ca: string; caKey: string; cert: string; key: string };
  /** The CA, or undefined when none was made. A broken file is CORRUPT_FILE naming it. */
  readCa(): Promise<PemPair | undefined>;
  /** The leaf, or undefined when none was made. */
  readLeaf(): Promise<PemPair | undefined>;
  writeCa(pair: PemPair): Promise<void>;
  writeLeaf(pair: PemPair): Promise<void>;
}

/**
 * The running tunnels, one per project (docs/tunnels.md). A record whose process is gone is
 * stale: removed when seen, never returned.
 */
export interface TunnelRegistry {
  get(projectId: string): Promise<TunnelRecord | undefined>;
  list(): Promise<TunnelRecord[]>;
  record(tunnel: TunnelRecord): Promise<void>;
  /** Forgets a project's tunnel (its process was stopped). */
  remove(projectId: string): Promise<void>;
  /**
   * Marks the port of a running `mockdev ui` or `mcp --http` as never tunnelled, until the
   * subscription is closed (or the process is gone).
   */
  guardPort(guard: GuardedPort): Promise<Subscription>;
  /** The guarded ports of running processes (those of processes gone are removed when seen). */
  guardedPorts(): Promise<GuardedPort[]>;
}

// ---------------------------------------------------------------- contracts

/** A project's stored contract document (docs/contract.md). */
export interface StoredContract {
  /** The document as imported (JSON or YAML text). */
  text: string;
  /** Its file name, as project.json's `contract.file` records it. */
  file: string;
  /** Where it lives, for people (a path): printed, never parsed. */
  location: string;
}

/**
 * The contract documents of projects: one per project, in the project's folder here (another
 * store keeps it elsewhere). Writes are atomic; project.json's `contract` (written through
 * ProjectStore.update) names the file, so write the document first, then record it.
 */
export interface ContractStore {
  /** The document project.json names; undefined when it names none. A missing or unreadable file throws, naming it. */
  read(project: StoredProject): Promise<StoredContract | undefined>;
  /** Stores `text` as the project's document (replacing the one before); returns its file name. */
  write(project: StoredProject, text: string, format: 'json' | 'yaml'): Promise<string>;
  /** Removes the project's document file, when there is one. */
  remove(project: StoredProject): Promise<void>;
}

export interface FetchedDocument {
  text: string;
  /** The URL that answered (after redirects). */
  url: string;
  contentType: string | undefined;
}

export interface FetchDocumentOptions {
  /** Default CONTRACT_FETCH_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default CONTRACT_MAX_BYTES. */
  maxBytes?: number;
  /** Default CONTRACT_MAX_REDIRECTS. */
  maxRedirects?: number;
}

/**
 * Fetches a document over http(s): redirects followed, bounded in time and size. Every failure
 * (unreachable, a non-2xx status, too slow, too large, too many redirects, not text) is one
 * INVALID_INPUT or IO_ERROR line naming the URL and what to do.
 */
export interface DocumentFetcher {
  fetch(url: string, options?: FetchDocumentOptions): Promise<FetchedDocument>;
}

// ---------------------------------------------------------------- resource state

/**
 * The state of a project's resources (issue 26), kept apart from the project's definition
 * (`<data dir>/resources/<project id>/` here: a project folder may be in git, the state is not).
 * The serving process is the one writer of the state while it runs (write-behind, batched); what
 * other processes change (a reset, new data from the UI) they stage under the next revision and
 * then bump the definition's revision, which the server sees through the change feed and takes
 * (core/resources/state.ts `currentItems`). Nothing here is a secret; nothing throws for a state
 * that is missing (undefined), a broken file is CORRUPT_FILE naming it.
 */
export interface ResourceStateStore {
  /** The state the serving process last wrote; undefined when none was written. */
  read(projectId: string, resourceId: string): Promise<ResourceState | undefined>;
  /** Replaces the written state (atomic: a reader sees the old or the new state whole). */
  write(projectId: string, resourceId: string, state: ResourceState): Promise<void>;
  /** Stages items for a revision (a replacement of the data made while a server may run). */
  stage(projectId: string, resourceId: string, revision: number, items: ResourceItem[]): Promise<void>;
  /** The items staged for that revision; undefined when none were (a reset: the seed). */
  readStaged(projectId: string, resourceId: string, revision: number): Promise<ResourceItem[] | undefined>;
  /** Forgets one resource's state (written and staged). */
  remove(projectId: string, resourceId: string): Promise<void>;
  /** Forgets every resource state of a project. */
  removeProject(projectId: string): Promise<void>;
}
