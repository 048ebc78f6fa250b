import type { ServerResponse } from 'node:http';
import { MockdevError } from '../core/errors.js';
import { PROBLEM_CONTENT_TYPE } from '../core/model/problem.js';
import { toProblem, type ProblemOptions } from '../core/problem.js';
import { closeAfterAnswer } from './body.js';

/**
 * The problem writer of mockdev's HTTP surfaces: an error as `application/problem+json`
 * (core/problem.ts), with the headers its code calls for: `WWW-Authenticate: Bearer` on a 401,
 * `Allow` on a 405 (from the error's details.allow); a reply given before the request body was
 * read (a refusal) closes its connection.
 */

/** A reply ready to write: status, headers, body text. */
export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The problem reply of an error (anything not a MockdevError is an INTERNAL 500). */
export function problemReply(error: unknown, options: ProblemOptions = {}): HttpReply {
  const problem = toProblem(error, options);
  // JSON is UTF-8 by definition (RFC 8259): its media types take no charset parameter.
  const headers: Record<string, string> = { 'Content-Type': PROBLEM_CONTENT_TYPE };
  if (problem.code === 'UNAUTHORIZED') headers['WWW-Authenticate'] = 'Bearer';
  const allow = problem.details?.allow;
  if (problem.code === 'METHOD_NOT_ALLOWED' && Array.isArray(allow)) headers.Allow = allow.join(', ');
  return { status: problem.status, headers, body: JSON.stringify(problem) };
}

/** The refusal of a known path asked with another method: the reply's Allow header lists `allow`. */
export const methodNotAllowed = (method: string, path: string, allow: string[]): MockdevError =>
  new MockdevError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allow.join(', ')}`, {
    details: { allow },
  });

/** Writes a reply, uncached; once headers are out, it only ends the response. */
export function writeReply(res: ServerResponse, reply: HttpReply): void {
  if (res.headersSent) return void res.end();
  closeAfterAnswer(res); // a reply before the body was read (a refusal): its connection closes
  res.writeHead(reply.status, { 'Cache-Control': 'no-store', ...reply.headers });
  res.end(reply.body);
}

/** Writes an error as a problem. */
export function sendProblem(res: ServerResponse, error: unknown, options: ProblemOptions = {}): void {
  writeReply(res, problemReply(error, options));
}
