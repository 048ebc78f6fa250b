import * as z from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

/**
 * The error body of every HTTP surface (the mock server, the admin API, MCP's side paths and
 * refusals): `application/problem+json` (RFC 9457) with the error catalogue's code. Surfaces
 * may add members of their own (the mock server's 404 names the closest endpoints); clients
 * read `code` to tell errors apart and `detail` to show them.
 */

const CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemSchema = z
  .looseObject({
    type: z.string().describe('"about:blank": the status and the code say what happened'),
    title: z.string().describe("The code's title in the error catalogue (docs/errors.md)"),
    status: z.number().int().describe('The HTTP status, as in the status line'),
    detail: z.string().describe('What was wrong and how to fix it, in one line'),
    code: z.enum(CODES).describe('The error code of the catalogue (docs/errors.md)'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Structured data about the error (the field, the limit, …)'),
  })
  .describe('An error (RFC 9457): `code` and `status` come from mockdev’s error catalogue (docs/errors.md)');
export type Problem = z.infer<typeof ProblemSchema>;
