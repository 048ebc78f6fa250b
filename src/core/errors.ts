/**
 * The error catalogue: every failure mockdev reports has a code here, with the CLI exit code
 * (SPEC part 7) and the HTTP status the admin API, the mock server and MCP use for it.
 * Adapters never invent their own mapping: they read it from here.
 */

export const ERROR_CATALOGUE = {
  /** A value given by the user is malformed: a bad port, method, status, name, option. */
  INVALID_ARGUMENT: { exitCode: 2, httpStatus: 400, title: 'Invalid argument' },
  /** A destructive command ran without a TTY and without --force. */
  CONFIRMATION_REQUIRED: { exitCode: 2, httpStatus: 400, title: 'Confirmation required' },
  /** No project matches the id, name or folder given. */
  PROJECT_NOT_FOUND: { exitCode: 3, httpStatus: 404, title: 'Project not found' },
  /** A resource inside a found project (endpoint, request, recording, variation) is missing. */
  NOT_FOUND: { exitCode: 1, httpStatus: 404, title: 'Not found' },
  /** The change would clash with something that exists: a duplicate name or method + path. */
  CONFLICT: { exitCode: 1, httpStatus: 409, title: 'Conflict' },
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
  LICENSE_REQUIRED: { exitCode: 1, httpStatus: 402, title: 'Pro license required' },
  /** An I/O failure outside mockdev's control (disk full, permission denied, network). */
  IO_ERROR: { exitCode: 1, httpStatus: 500, title: 'I/O error' },
  /** A bug: anything not anticipated. */
  INTERNAL: { exitCode: 1, httpStatus: 500, title: 'Internal error' },
} as const satisfies Record<string, { exitCode: number; httpStatus: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorOptions {
  /** How to fix it, appended to the message as its second sentence. */
  hint?: string;
  /** Structured data for JSON consumers (the MCP server, the admin API). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class MockdevError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
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

  /** One line: what was wrong, then how to fix it. */
  get fullMessage(): string {
    return this.hint ? `${this.message}. ${this.hint}` : this.message;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.fullMessage, ...(this.details ? { details: this.details } : {}) };
  }
}

export const isMockdevError = (e: unknown): e is MockdevError => e instanceof MockdevError;

/** Wraps anything thrown into a MockdevError; unknown errors become INTERNAL. */
export function toMockdevError(e: unknown): MockdevError {
  if (e instanceof MockdevError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new MockdevError('INTERNAL', `Unexpected error: ${message}`, {
    hint: 'This is a bug in mockdev; run again with MOCKDEV_LOG_LEVEL=debug for details',
    cause: e,
  });
}
