/**
 * The error catalogue: every failure mockdev reports has a code here, with the CLI exit code
 * (SPEC part 7) and the HTTP status the admin API, the mock server and MCP use for it.
 * Adapters never invent their own mapping: they read it from here.
 */
import { describeDiskError, describeIoFailure, type IoFailure } from './io-errors.js';

export const ERROR_CATALOGUE = {
  /** A value given by the user is malformed: a bad port, method, status, name, option. */
  INVALID_ARGUMENT: { exitCode: 2, httpStatus: 400, title: 'Invalid argument' },
  /** A destructive command ran without a TTY and without --force. */
  CONFIRMATION_REQUIRED: { exitCode: 2, httpStatus: 400, title: 'Confirmation required' },
  /** No project matches the id, name or folder given. */
  PROJECT_NOT_FOUND: { exitCode: 3, httpStatus: 404, title: 'Project not found' },
  /** A resource inside a found project (endpoint, request, recording, variation) is missing. */
  NOT_FOUND: { exitCode: 1, httpStatus: 404, title: 'Not found' },
  /** The change would clash with something that exists: a duplicate method + path, a folder that holds a project. */
  CONFLICT: { exitCode: 1, httpStatus: 409, title: 'Conflict' },
  /** Another project or endpoint already has that name (names are unique, case-insensitively). */
  NAME_TAKEN: { exitCode: 1, httpStatus: 409, title: 'Name already taken' },
  /** The port asked for is taken by another process. */
  PORT_IN_USE: { exitCode: 4, httpStatus: 409, title: 'Port already in use' },
  /** A JSON file on disk is broken or has a shape mockdev cannot read. */
  CORRUPT_FILE: { exitCode: 1, httpStatus: 500, title: 'Unreadable file' },
  /** A file was written by a newer mockdev. */
  UNSUPPORTED_VERSION: { exitCode: 1, httpStatus: 500, title: 'Unsupported file version' },
  /** Another process holds the project lock for too long. */
  LOCKED: { exitCode: 1, httpStatus: 423, title: 'Project is locked' },
  /** A document to import (OpenAPI, cURL) cannot be parsed or is invalid. */
  INVALID_INPUT: { exitCode: 1, httpStatus: 422, title: 'Invalid input' },
  /** A Pro feature was used without an active license. */
  LICENSE_REQUIRED: { exitCode: 1, httpStatus: 403, title: 'Pro license required' },
  /** A license key whose signature does not match, or that expired. */
  LICENSE_INVALID: { exitCode: 1, httpStatus: 403, title: 'License key refused' },
  /** An I/O failure outside mockdev's control (disk full, permission denied, network). */
  IO_ERROR: { exitCode: 1, httpStatus: 500, title: 'I/O error' },
  /** A bug: anything not anticipated. */
  INTERNAL: { exitCode: 1, httpStatus: 500, title: 'Internal error' },

  // Refusals and failures of the HTTP surfaces (the mock server, the admin API, MCP over HTTP):
  // no command exits with them; a surface answers them as application/problem+json.

  /** The Host header names another machine on a loopback-bound server (DNS rebinding). */
  FORBIDDEN_HOST: { exitCode: 1, httpStatus: 403, title: 'Forbidden host' },
  /** A browser request from an origin that is not the server's own. */
  FORBIDDEN_ORIGIN: { exitCode: 1, httpStatus: 403, title: 'Forbidden origin' },
  /** The server needs a token and the request has none, or another one. */
  UNAUTHORIZED: { exitCode: 1, httpStatus: 401, title: 'Unauthorized' },
  /** The path exists with other methods (the Allow header lists them). */
  METHOD_NOT_ALLOWED: { exitCode: 1, httpStatus: 405, title: 'Method not allowed' },
  /** A request body over the surface's limit (the detail names it). */
  PAYLOAD_TOO_LARGE: { exitCode: 1, httpStatus: 413, title: 'Payload too large' },
  /** A body of a media type the route does not take (the CSRF guard of the admin API). */
  UNSUPPORTED_MEDIA_TYPE: { exitCode: 1, httpStatus: 415, title: 'Unsupported media type' },
  /** A request that is not well-formed HTTP. */
  MALFORMED_REQUEST: { exitCode: 1, httpStatus: 400, title: 'Bad request' },
  /** Request headers larger than the server reads. */
  HEADERS_TOO_LARGE: { exitCode: 1, httpStatus: 431, title: 'Request header fields too large' },
  /** The mock server: no enabled endpoint has the request's method and path. */
  NO_MATCHING_ENDPOINT: { exitCode: 1, httpStatus: 404, title: 'No matching endpoint' },
  /** The mock server: an endpoint's template failed while answering. */
  TEMPLATE_FAILED: { exitCode: 1, httpStatus: 500, title: 'Template error' },
  /** The mock server: an endpoint's response could not be produced or sent. */
  RESPONSE_FAILED: { exitCode: 1, httpStatus: 500, title: 'Response failed' },
  /** The mock server: a proxy endpoint without a target. */
  PROXY_NOT_CONFIGURED: { exitCode: 1, httpStatus: 500, title: 'Proxy endpoint without a target' },
  /** The mock server: a proxy target that could not be reached or answered what cannot be sent on. */
  PROXY_FAILED: { exitCode: 1, httpStatus: 502, title: 'Bad gateway' },
  /** The mock server: a proxy target that did not answer in time. */
  PROXY_TIMEOUT: { exitCode: 1, httpStatus: 504, title: 'Gateway timeout' },
  /**
   * The mock server: a request reached a proxy endpoint having passed MAX_PROXY_HOPS mockdev
   * proxies (its Via header): the target leads back to a mockdev proxy.
   */
  PROXY_LOOP: { exitCode: 1, httpStatus: 508, title: 'Loop detected' },
  /**
   * The mock server: a proxy target it cannot forward to (not http: or https:; stored by a hand
   * edit, or rendered by a template): nothing is sent.
   */
  PROXY_BAD_TARGET: { exitCode: 1, httpStatus: 500, title: 'Proxy target not supported' },
} as const satisfies Record<string, { exitCode: number; httpStatus: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Inputs a hint may point at; each adapter names them its own way (a CLI flag, an MCP argument). */
export type OptionName =
  | 'force'
  | 'overwrite'
  | 'port'
  | 'host'
  | 'project'
  | 'path'
  | 'file'
  | 'text'
  | 'body'
  | 'format'
  | 'openapiVersion'
  | 'strict'
  | 'asVariation'
  | 'name'
  | 'variables'
  | 'secrets'
  | 'unset'
  | 'token'
  | 'replace'
  | 'templates'
  | 'spec'
  | 'url'
  | 'document'
  | 'includeHost'
  | 'all'
  | 'env';

/** Next steps a hint may suggest; each adapter says how (a CLI command, an MCP tool). */
export type ActionName =
  | 'listProjects'
  | 'listEndpoints'
  | 'listRequests'
  | 'initProject'
  | 'listServers'
  | 'activateLicense'
  | 'listEnvironments'
  | 'listRecordings'
  | 'importContract';

/**
 * How an adapter words what core hints point at. Each returns a phrase in lower case that a
 * hint puts into its sentence (the first letter of a hint is capitalised when it is shown).
 */
export interface Wording {
  /** Names an input: "--port", "the port argument". */
  option(name: OptionName): string;
  /** Says how to turn a yes/no input on: "pass --force", "set force: true". */
  turnOn(name: OptionName): string;
  /** A next step: "run \"mockdev project list\"", "call list_projects"; `subject` is the project it is about. */
  action(name: ActionName, subject?: string): string;
}

/** The wording of no adapter in particular: for logs, and for callers without their own. */
export const PLAIN_WORDING: Wording = {
  option: (name) => `the ${name} option`,
  turnOn: (name) => `turn on the ${name} option`,
  action: (name, subject) =>
    ({
      listProjects: 'list the projects',
      listEndpoints: `list the endpoints${subject ? ` of "${subject}"` : ''}`,
      listRequests: `list the logged requests${subject ? ` of "${subject}"` : ''}`,
      initProject: 'create a project there',
      listServers: 'list the running servers',
      activateLicense:
        'activate a license with "mockdev license activate <KEY>" or "mockdev license activate-email <EMAIL>"',
      listEnvironments: `list the environments${subject ? ` of "${subject}"` : ''}`,
      listRecordings: 'list the recordings of the endpoint',
      importContract: `import the project's contract${subject ? ` of "${subject}"` : ''}`,
    })[name],
};

/** A hint's text, or a function that words it for an adapter. */
export type Hint = string | ((say: Wording) => string);

export interface ErrorOptions {
  /** How to fix it, appended to the message as its second sentence. */
  hint?: Hint;
  /** Structured data for JSON consumers (the MCP server, the admin API). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class MockdevError extends Error {
  readonly code: ErrorCode;
  readonly hint: Hint | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MockdevError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }

  get exitCode(): number {
    return ERROR_CATALOGUE[this.code].exitCode;
  }

  get httpStatus(): number {
    return ERROR_CATALOGUE[this.code].httpStatus;
  }

  /** The hint in an adapter's words (plain words when none is given). */
  hintText(say: Wording = PLAIN_WORDING): string | undefined {
    if (this.hint === undefined) return undefined;
    const text = typeof this.hint === 'string' ? this.hint : this.hint(say);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /** One line: what was wrong, then how to fix it, in an adapter's words. */
  describe(say: Wording = PLAIN_WORDING): string {
    const hint = this.hintText(say);
    return hint ? `${this.message}. ${hint}` : this.message;
  }

  /** One line in plain words (see describe() for an adapter's). */
  get fullMessage(): string {
    return this.describe();
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.fullMessage, ...(this.details ? { details: this.details } : {}) };
  }
}

/**
 * Wraps anything thrown into a MockdevError: a failure of the disk nobody wrapped becomes
 * IO_ERROR naming its file and cause (io-errors.ts); other unknown errors become INTERNAL.
 */
export function toMockdevError(e: unknown): MockdevError {
  if (e instanceof MockdevError) return e;
  const disk = describeDiskError(e);
  if (disk) return fromIoFailure(disk, e);
  const message = e instanceof Error ? e.message : String(e);
  return new MockdevError('INTERNAL', `Unexpected error: ${message}`, {
    hint: 'This is a bug in mockdev; run again with MOCKDEV_LOG_LEVEL=debug for details',
    cause: e,
  });
}

const fromIoFailure = (f: IoFailure, cause: unknown): MockdevError =>
  new MockdevError('IO_ERROR', f.message, { hint: f.hint, details: f.details, cause });

/**
 * IO_ERROR for a failed read or write of a file: `<message>: <the cause in words>` ("Could not
 * write /data/requests.db: the disk is full"), with a hint and `details: { file, cause }`.
 */
export const ioFailure = (message: string, e: unknown, file?: string): MockdevError =>
  fromIoFailure(describeIoFailure(message, e, file), e);
