import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../../app/context.js';
import { exportOpenApi, importOpenApi } from '../../app/openapi.js';
import { MockdevError } from '../../core/errors.js';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { ProjectSchema } from '../../core/model/project.js';
import { PROJECT_ALIASES, READ_ONLY, defineTool, projectIdField } from './define.js';

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * A `file` argument names a file in the data directory (relative paths are relative to it).
 * The app use case enforces the same root; here symlinks are resolved too, so a link inside
 * the data directory cannot lead outside it.
 */
async function fileInDataDir(ctx: AppContext, file: string): Promise<string> {
  const path = resolve(ctx.dataDir, file);
  const outside = () =>
    new MockdevError(
      'INVALID_ARGUMENT',
      `The file ${file} is outside the mockdev data directory (${ctx.dataDir})`,
      {
        hint: 'Pass the document inline as text instead, or put the file inside the data directory',
      },
    );
  if (!isInside(resolve(ctx.dataDir), path)) throw outside();
  try {
    const [real, root] = await Promise.all([realpath(path), realpath(ctx.dataDir)]);
    if (!isInside(root, real)) throw outside();
  } catch (e) {
    if (e instanceof MockdevError) throw e;
    // a missing file is reported by the import itself
  }
  return path;
}

export const importOpenApiTool = defineTool({
  name: 'import_openapi',
  title: 'Import OpenAPI',
  category: 'openapi',
  description:
    'Import an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) as mock endpoints, with example responses generated from the schemas. ' +
    'Give the document inline as text (preferred), or the path of a file inside the mockdev data directory. ' +
    'Without projectId a new project named after info.title is created; with projectId the endpoints are added to that project, ' +
    'skipping routes that already exist unless overwrite is true. All or nothing: an invalid document imports nothing.',
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
        'Replace existing endpoints with the same method and path (keeping their id and name). Default false: skip them.',
      ),
  }),
  output: z.object({
    project: ProjectSchema.describe('The project imported into.'),
    created: z.array(EndpointSchema).describe('Endpoints added.'),
    replaced: z.array(EndpointSchema).describe('Existing endpoints replaced (overwrite: true).'),
    skipped: z
      .array(z.object({ method: z.string(), path: z.string(), reason: z.string() }))
      .describe('Operations not imported, with the reason.'),
  }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  aliases: { ...PROJECT_ALIASES, spec: 'text', document: 'text', content: 'text', path: 'file' },
  async run(ctx, args) {
    if (args.text === undefined && args.file === undefined) {
      throw new MockdevError('INVALID_ARGUMENT', 'No OpenAPI document given', {
        hint: 'Give the document as text (JSON or YAML), or file: a path inside the mockdev data directory',
      });
    }
    const file = args.file === undefined ? undefined : await fileInDataDir(ctx, args.file);
    const report = await importOpenApi(
      ctx,
      { text: args.text, file, projectRef: args.projectId, overwrite: args.overwrite },
      { dataDirOnly: true, allowedRoot: ctx.dataDir },
    );
    const skipped = report.skipped.map((s) => ({
      ...s,
      reason: s.reason.replace('use --overwrite', 'set overwrite: true'),
    }));
    const lines = [
      `Imported into project ${report.project.name} (id ${report.project.id}): ${report.created.length} created, ${report.replaced.length} replaced, ${skipped.length} skipped.`,
      ...report.created.map((e) => `+ ${e.method} ${e.path} -> ${e.status} (id ${e.id})`),
      ...report.replaced.map((e) => `~ ${e.method} ${e.path} -> ${e.status} (id ${e.id})`),
      ...skipped.map((s) => `- ${s.method} ${s.path}: ${s.reason}`),
    ];
    return { summary: lines.join('\n'), data: { ...report, skipped } };
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
