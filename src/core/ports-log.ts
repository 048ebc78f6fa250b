/**
 * The store interfaces of what servers record as they answer: the request log and the proxy
 * recordings. Part of core/ports.ts (which re-exports them); a file of their own only to keep each
 * file short. Types only.
 */
import type { ContractVerdict } from './model/contract.js';
import type { Recording } from './model/recording.js';
import type { ParsedRequestFilters, RequestRecord, RequestSummary } from './model/request.js';
import type { RequestStats, RequestStatsFilters, StatsWindow } from './model/request-stats.js';
import type { Subscription } from './ports.js';

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
