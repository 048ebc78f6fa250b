import type * as z from 'zod';
import type { AppContext, ProjectReach } from '../app/context.js';
import type { TunnelProviderName } from '../core/model/tunnel.js';
import type { Wording } from '../core/errors.js';
import type { ApiAuth } from './auth.js';

/**
 * One route of the admin API (docs/admin-api.md): what it accepts and answers, described with
 * the same zod schemas the core validates with (the OpenAPI document is generated from them),
 * and a handler that calls the app use cases and only translates.
 */

/**
 * What the admin API's callers reach (DECISIONS "Trust and data"): projects by id or name only,
 * never by a filesystem path, so no request tells whether a file exists or registers a folder.
 */
export const API_REACH: ProjectReach = { lookup: 'idOrName' };

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How PUT …/server starts a server: its port and address, HTTPS, a tunnel with it. */
export interface ServerStartOptions {
  port?: number;
  host?: string;
  /** Serve HTTPS with the generated leaf (serverCredentials). */
  tls?: boolean;
  /** Start a tunnel of this provider with the server (Pro), stopped with it. */
  tunnel?: TunnelProviderName;
}

/** Mock servers this API process runs (PUT …/server), all stopped when it stops. */
export interface ServerHost {
  /** Starts the project's mock server here; PORT_IN_USE / CONFLICT when it cannot. */
  start(projectRef: string, options: ServerStartOptions): Promise<unknown>;
  /** Stops the project's server (one this process runs, or another process's); NOT_FOUND when none runs. */
  stop(projectRef: string): Promise<unknown>;
  /** Stops every server this process runs. */
  stopAll(): Promise<void>;
}

/** One live event (GET /api/v1/events): `id` grows by one per event. */
export interface ApiEvent {
  id: number;
  type: string;
  data: unknown;
}

/** The live events: published by the API process's watchers, replayed from the last 1,000. */
export interface EventHub {
  publish(type: string, data: unknown): void;
  /** Calls `send` with every event after `lastEventId` still kept, then with each new one; returns the unsubscribe. */
  subscribe(send: (event: ApiEvent) => void, lastEventId?: number): () => void;
  close(): Promise<void>;
}

/** The admin API's own state, beside the app context. */
export interface ApiServices {
  servers?: ServerHost;
  events?: EventHub;
}

export interface RouteInput<B = unknown, Q = Record<string, string | undefined>> {
  ctx: AppContext;
  services: ApiServices;
  /** Path parameters, decoded: `{project}` -> params.project. */
  params: Record<string, string>;
  /** The query, validated by the route's `query` schema when it has one. */
  query: Q;
  /** The JSON (or YAML, when the route accepts it) body, validated by the route's `body` schema. */
  body: B;
  /** The body as received (an OpenAPI document is imported from its text). */
  rawBody: string;
  /** The body's media type without parameters (`application/json`), or '' without a body. */
  contentType: string;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string | undefined>;
  /** The token check and the browser sessions (auth.ts). */
  auth: ApiAuth;
  /** The words the request asks hints in (the web UI's, or the API's): handler.ts wordingOf. */
  say: Wording;
  /** Aborted when the client went away before its answer (over a socket; absent in process). */
  signal?: AbortSignal;
}

/** What a handler returns: a JSON value answered 200 (or the route's status), or a full reply. */
export interface ApiReply {
  status: number;
  /** JSON-encoded unless `text` is given. Omitted: no body (204). */
  json?: unknown;
  /** A text body sent as is, with `contentType`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A streamed answer (Server-Sent Events): the adapter hands it the raw response. */
export interface ApiStream {
  stream: (res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void;
}

export interface RouteDefinition<B = unknown, Q = Record<string, string | undefined>> {
  method: ApiMethod;
  /** Under /api/v1, parameters as `{name}`: `/projects/{project}/endpoints`. */
  path: string;
  /** OpenAPI tag: the resource group (Projects, Endpoints, …). */
  tag: string;
  summary: string;
  description?: string;
  /** Path parameter descriptions (every `{name}` of the path needs one). */
  params?: Record<string, string>;
  /** The query's fields (strings as sent; coerce inside the schema). */
  query?: z.ZodObject;
  /** The request body's schema. Media types: `bodyTypes` (default application/json). */
  body?: z.ZodType;
  bodyTypes?: readonly string[];
  /**
   * The largest body taken, in bytes (http/body.ts): default 1 MiB; routes carrying an endpoint's
   * contents or a document to import take more. A larger one is 413 before it is read.
   */
  maxBodyBytes?: number;
  /** The success answer: status (default 200), its schema (omitted: no body), a description. */
  response: { status?: number; schema?: z.ZodType; description: string; contentType?: string };
  handle(input: RouteInput<B, Q>): Promise<unknown> | unknown;
}

export type Route = RouteDefinition<unknown, Record<string, string | undefined>>;

/** Ties a handler's input types to the route's schemas. */
export function defineRoute<B = unknown, Q = Record<string, string | undefined>>(
  route: RouteDefinition<B, Q>,
): Route {
  return route as unknown as Route;
}

/** Marks a handler result as a full reply (status, headers, text). */
export const reply = (r: ApiReply): { reply: ApiReply } => ({ reply: r });

export const isReply = (v: unknown): v is { reply: ApiReply } =>
  typeof v === 'object' && v !== null && 'reply' in v && Object.keys(v).length === 1;

export const isStream = (v: unknown): v is ApiStream =>
  typeof v === 'object' && v !== null && typeof (v as ApiStream).stream === 'function';
