import * as z from 'zod';
import { ImportReportSchema } from '../../core/model/imports.js';
import { exportOpenApi, importOpenApi } from '../../app/openapi.js';
import { MCP_WORDING } from '../wording.js';
import { PROJECT_ALIASES, READ_ONLY, defineTool, projectIdField } from './define.js';

export const importOpenApiTool = defineTool({
  name: 'import_openapi',
  title: 'Import OpenAPI',
  category: 'openapi',
  description:
    'Import an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) as mock endpoints, with example responses generated from the schemas. ' +
    'Give the document inline as text (preferred), or the path of a file inside the mockdev data directory. ' +
    'Without projectId a new project named after info.title is created; with projectId the endpoints are added to that project, ' +
    'skipping routes that already exist unless overwrite is true (update them from the document, keeping what only mockdev has) or replace is true (replace them whole). ' +
    "Text from the document ({{…}} included) is sent as written unless templates is true or the document is mockdev's own export (whose templates that read the environment are still sent as written). " +
    'Parts of the document that break the OpenAPI specification or cannot be resolved are left out and listed in warnings (with their JSON pointer and line); ' +
    'with strict: true the document is refused at its first problem instead. Nothing is written when the import fails.',
  input: z.object({
    text: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .describe('The OpenAPI document itself, as JSON or YAML text.'),
    file: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .optional()
      .describe(
        'Path of a document inside the mockdev data directory (relative paths are relative to it). Give text or file, not both.',
      ),
    projectId: projectIdField
      .optional()
      .describe('Import into this existing project (id or name). Omit to create a new project.'),
    overwrite: z
      .boolean()
      .default(false)
      .describe(
        'Update existing endpoints with the same method and path from the document, keeping what only mockdev has (id, name, hand-made variations and headers, delay, mode, proxy settings, …; listed in kept). Default false: skip them.',
      ),
    replace: z
      .boolean()
      .default(false)
      .describe(
        'Replace existing endpoints with the same method and path whole, keeping only their id and name (what is lost is listed in dropped). Default false.',
      ),
    templates: z
      .boolean()
      .default(false)
      .describe(
        'Keep {{…}} in the document as templates (only for a document you trust). Default false: text from the document is sent as written (listed in literal), unless the document is mockdev’s own export.',
      ),
    strict: z
      .boolean()
      .default(false)
      .describe(
        'Refuse the whole document at its first problem (a part that breaks the OpenAPI schema, a $ref that cannot be resolved, an operation that cannot become an endpoint). Default false: import what can be read and report the problems as warnings.',
      ),
  }),
  output: ImportReportSchema,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  aliases: { ...PROJECT_ALIASES, spec: 'text', document: 'text', content: 'text', path: 'file' },
  async run(ctx, args) {
    // Files are read from the data directory only (SPEC 4.3), symlinks followed.
    const report = await importOpenApi(
      ctx,
      {
        text: args.text,
        file: args.file,
        projectRef: args.projectId,
        overwrite: args.overwrite,
        replace: args.replace,
        templates: args.templates,
        strict: args.strict,
      },
      {
        dataDirOnly: true,
        within: { root: ctx.dataDir, name: 'the mockdev data directory' },
        say: MCP_WORDING,
        // A large document takes seconds: the server answers its other clients meanwhile.
        offThread: true,
      },
    );
    const { skipped } = report;
    const lines = [
      `Imported into project ${report.project.name} (id ${report.project.id}): ${report.created.length} created, ${report.updated.length} updated, ${report.replaced.length} replaced, ${skipped.length} skipped.`,
      ...report.created.map((e) => `+ ${e.method} ${e.path} -> ${e.status} (id ${e.id})`),
      ...report.updated.map((e) => {
        const kept = report.kept.find((k) => k.endpointId === e.id)?.items;
        return `~ ${e.method} ${e.path} -> ${e.status} (id ${e.id}) updated${kept ? `; kept: ${kept.join(', ')}` : ''}`;
      }),
      ...report.replaced.map((e) => {
        const dropped = report.dropped.find((k) => k.endpointId === e.id)?.items;
        return `~ ${e.method} ${e.path} -> ${e.status} (id ${e.id}) replaced${dropped ? `; dropped: ${dropped.join(', ')}` : ''}`;
      }),
      ...report.literal.map(
        (l) =>
          `literal: ${l.method} ${l.path} ${l.parts.join(', ')} holds {{ and is sent as written (not a template)`,
      ),
      ...skipped.map((s) => `- ${s.method} ${s.path}: ${s.reason}`),
      ...report.warnings.map((w) => `warning: ${w.message}`),
      ...(report.warningCount > report.warnings.length
        ? [`warning: … and ${report.warningCount - report.warnings.length} more not listed`]
        : []),
    ];
    return { summary: lines.join('\n'), data: report };
  },
});

export const exportOpenApiTool = defineTool({
  name: 'export_openapi',
  title: 'Export OpenAPI',
  category: 'openapi',
  description:
    'Export a project as an OpenAPI document (3.0.3 by default, or 3.1.0), as YAML (default) or JSON text. ' +
    'The text is returned; nothing is written to disk.',
  input: z.object({
    projectId: projectIdField,
    format: z
      .enum(['json', 'yaml'])
      .default('yaml')
      .describe('Text format of the document: "yaml" (default) or "json".'),
    openapiVersion: z
      .enum(['3.0', '3.1'])
      .default('3.0')
      .describe('OpenAPI version to produce: "3.0" (3.0.3, default) or "3.1" (3.1.0).'),
  }),
  output: z.object({
    format: z.enum(['json', 'yaml']).describe('Format of text.'),
    openapiVersion: z.enum(['3.0', '3.1']).describe('OpenAPI version of the document.'),
    text: z.string().describe('The OpenAPI document.'),
  }),
  hints: READ_ONLY,
  aliases: { ...PROJECT_ALIASES, id: 'projectId', version: 'openapiVersion' },
  async run(ctx, args) {
    const { text } = await exportOpenApi(
      ctx,
      args.projectId,
      { format: args.format, openapiVersion: args.openapiVersion },
      { dataDirOnly: true },
    );
    return {
      summary: `OpenAPI ${args.openapiVersion} document (${args.format})`,
      data: { format: args.format, openapiVersion: args.openapiVersion, text },
      text,
    };
  },
});

export const OPENAPI_TOOLS = [importOpenApiTool, exportOpenApiTool];
