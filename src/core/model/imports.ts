import * as z from 'zod';
import { AuthSchema, EndpointSchema } from './endpoint.js';
import { ProjectSchema } from './project.js';

/** What an OpenAPI import reports (`mockdev import --json`, the MCP tool, the admin API). */
export const ImportReportSchema = z.object({
  project: ProjectSchema.describe('The project imported into (created when none was named)'),
  created: z.array(EndpointSchema).describe('Endpoints added'),
  replaced: z.array(EndpointSchema).describe('Existing endpoints replaced (with overwrite)'),
  skipped: z
    .array(
      z.object({
        method: z.string(),
        path: z.string(),
        reason: z.string(),
        existingId: z.string().optional().describe('The endpoint that already has this route'),
      }),
    )
    .describe('Operations not imported, and why'),
  warnings: z
    .array(
      z.object({
        message: z.string().describe('Where (JSON pointer, line, column) and what'),
        pointer: z.string().optional(),
        file: z.string().optional().describe('A referenced file, when the problem is there'),
        line: z.number().int().optional(),
        column: z.number().int().optional(),
      }),
    )
    .describe('What in the document breaks the OpenAPI specification or was left out (the first 50)'),
  warningCount: z.number().int().describe('How many warnings there are in all'),
});

/** The DECISIONS "cURL preview" shape: what a cURL command would become; nothing is created. */
export const CurlPreviewSchema = z.object({
  name: z.string().describe('The endpoint name an import would use'),
  method: z.string(),
  url: z.string(),
  path: z.string(),
  query: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .describe('Repeated keys give arrays'),
  headers: z.record(z.string(), z.string()).describe('Keyed by the header name as written'),
  body: z.string().nullable(),
  auth: AuthSchema.nullable(),
  warnings: z.array(z.string()).describe('One per unrecognised flag'),
});
