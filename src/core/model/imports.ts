import * as z from 'zod';
import { AuthSchema, EndpointSchema } from './endpoint.js';
import { ProjectSchema } from './project.js';

/** The formats `import` reads (kept in step with formats/converted.ts IMPORT_FORMATS). */
export const IMPORT_FORMATS = ['openapi', 'har', 'postman', 'mockoon', 'wiremock'] as const;

export const ImportFormatSchema = z.enum(IMPORT_FORMATS);

/** One item of another tool's file said about in the report: where and what. */
export const ImportNoteSchema = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  name: z.string().optional().describe('The source’s own name for the item'),
  message: z.string().describe('What was lost (approximate) or why it was left out (skipped)'),
});

/** What an import changed of one existing endpoint: what it kept (overwrite) or dropped (replace). */
export const ImportedChangeSchema = z.object({
  endpointId: z.string(),
  method: z.string(),
  path: z.string(),
  items: z
    .array(z.string())
    .describe('e.g. variation "slow", header "X-Trace", delay 250 ms, mode sequential, proxy settings (…)'),
});
export type ImportedChange = z.infer<typeof ImportedChangeSchema>;

/**
 * How an import treated the `{{…}}` of the text it brought (DECISIONS "Trust and data"):
 * `literal` data, sent as written (the default); kept as templates because the caller said so
 * (`option`: --templates), because the document is mockdev's own export (`own-export`), or
 * because they are the source tool's templates (`source`: Mockoon, WireMock's response-template).
 */
export const TemplatesTreatmentSchema = z.enum(['literal', 'option', 'own-export', 'source']);
export type TemplatesTreatment = z.infer<typeof TemplatesTreatmentSchema>;

/** An imported endpoint whose text holds `{{` and is sent as written (templating off). */
export const LiteralTextSchema = z.object({
  endpointId: z.string(),
  method: z.string(),
  path: z.string(),
  parts: z.array(z.string()).describe('Where: body, header "X-Id", variation "404" body, …'),
});
export type LiteralText = z.infer<typeof LiteralTextSchema>;

/** What an OpenAPI import reports (`mockdev import --json`, the MCP tool, the admin API). */
export const ImportReportSchema = z.object({
  project: ProjectSchema.describe('The project imported into (created when none was named)'),
  created: z.array(EndpointSchema).describe('Endpoints added'),
  updated: z
    .array(EndpointSchema)
    .describe('Existing endpoints updated from the document, keeping what only mockdev had (overwrite)'),
  replaced: z.array(EndpointSchema).describe('Existing endpoints replaced whole (replace)'),
  kept: z
    .array(ImportedChangeSchema)
    .describe(
      'Per updated endpoint: what only mockdev had and was kept (hand-made variations, headers, delay, …)',
    ),
  dropped: z
    .array(ImportedChangeSchema)
    .describe('Per replaced endpoint: what it had that the document does not describe, now gone'),
  templates: TemplatesTreatmentSchema.describe(
    'literal: the document’s text is data, sent as written; option: kept as templates (templates asked); own-export: kept as templates (mockdev’s own export), but for those that can read the environment, sent as written and listed in literal',
  ),
  literal: z
    .array(LiteralTextSchema)
    .describe('Endpoints whose imported text holds {{ and is sent as written (templating off)'),
  skipped: z
    .array(
      z.object({
        method: z.string(),
        path: z.string(),
        reason: z.string(),
        existingId: z.string().optional().describe('The endpoint that already has this route'),
        name: z.string().optional().describe('The source’s own name for the item (another tool’s import)'),
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
  format: ImportFormatSchema.optional().describe(
    'The format imported (given or detected); absent from the OpenAPI-only route’s report',
  ),
  dryRun: z
    .boolean()
    .optional()
    .describe('true: a preview; nothing was written (the project’s id is "dry-run" when it would be new)'),
  approximate: z
    .array(ImportNoteSchema)
    .optional()
    .describe('Items translated only approximately, and what was lost (HAR, Postman, Mockoon, WireMock)'),
  resources: z
    .array(
      z.object({
        id: z.string().optional().describe('Absent in a dry run'),
        name: z.string(),
        path: z.string(),
        itemCount: z.number().int(),
      }),
    )
    .optional()
    .describe('Resources made (Mockoon data buckets and CRUD routes)'),
  variables: z
    .array(
      z.object({
        name: z.string(),
        value: z.string().describe('Masked (********) when the name says it is a secret'),
        secret: z.boolean(),
      }),
    )
    .optional()
    .describe('Variables the source defines (Postman collection variables)'),
  environment: z
    .object({ id: z.string().optional(), name: z.string(), variableCount: z.number().int() })
    .optional()
    .describe('The environment made from the variables (env asked; a Pro feature)'),
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
