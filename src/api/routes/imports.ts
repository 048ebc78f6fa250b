import * as z from 'zod';
import { importCurl, previewCurl } from '../../app/curl.js';
import { importFile } from '../../app/imports.js';
import { exportOpenApi, importOpenApi } from '../../app/openapi.js';
import { MockdevError, type Wording } from '../../core/errors.js';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { CurlPreviewSchema, IMPORT_FORMATS, ImportReportSchema } from '../../core/model/imports.js';
import { CONTENT_BODY_LIMIT_BYTES, DOCUMENT_BODY_LIMIT_BYTES } from '../../http/body.js';
import { defineRoute, reply, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { queryFlag } from './query-fields.js';

/** The media types an OpenAPI document may come as. */
const DOCUMENT_TYPES = ['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml'] as const;

const ImportQuerySchema = z.object({
  project: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .optional()
    .describe('Import into this project (id or name); left out: a new project named after info.title'),
  overwrite: queryFlag(
    'Update endpoints whose method and path already exist from the document, keeping what only mockdev has (hand-made variations and headers, delay, mode, proxy settings, …; listed in kept)',
  ),
  replace: queryFlag(
    'Replace endpoints whose method and path already exist whole, keeping their id and name (what is lost is listed in dropped)',
  ),
  templates: queryFlag(
    'Keep {{…}} in the document as templates (a document you trust); by default imported text is sent as written',
  ),
  strict: queryFlag('Refuse the document at its first problem instead of importing what can be read'),
  dryRun: queryFlag('Answer the report and write nothing (a preview)'),
});

const FileImportQuerySchema = ImportQuerySchema.extend({
  project: ImportQuerySchema.shape.project.describe(
    'Import into this project (id or name); left out: a new project named after the document (its title, or "Imported API")',
  ),
  format: z
    .enum(IMPORT_FORMATS)
    .optional()
    .describe('openapi, har, postman, mockoon or wiremock; left out: detected from the content'),
  includeHost: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .optional()
    .describe('HAR: only the entries of this host (default: the host with most entries)'),
  all: queryFlag('HAR: static assets (images, scripts, styles, fonts) too'),
  env: queryFlag('Postman: the collection variables as an environment of the project (Pro)'),
});

const CurlCommandSchema = z.object({
  command: z.string().describe('The cURL command, as copied (bash or cmd quoting, line continuations)'),
});

const CurlNameSchema = CurlCommandSchema.extend({
  name: z.string().optional().describe('The endpoint’s name; left out: made from the path'),
});

const CurlImportSchema = CurlNameSchema.extend({
  templates: z
    .boolean()
    .optional()
    .describe('Keep {{…}} in the request body as templates (a command you trust); default: sent as written'),
});

const CurlPreviewInputSchema = CurlNameSchema.extend({
  project: z
    .string()
    .optional()
    .describe('The project an import would go to (id or name): the name is made unique in it'),
});

const ExportQuerySchema = z.object({
  format: z.enum(['yaml', 'json']).optional().describe('yaml (default) or json'),
  version: z.enum(['3.0', '3.1']).optional().describe('OpenAPI 3.0 (3.0.3, default) or 3.1 (3.1.0)'),
});

/**
 * A cURL command the parser refuses is a bad request field here (400), not a bad document:
 * the same error, its place (line, column) and the fix kept in `details`.
 */
async function asArgument<T>(say: Wording, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    // The parser's refusals: a bad command, or an incomplete one (cut inside a quote or after a
    // line continuation), which is INVALID_ARGUMENT already and carries its place.
    const fromParser =
      e instanceof MockdevError &&
      (e.code === 'INVALID_INPUT' ||
        (e.code === 'INVALID_ARGUMENT' && typeof e.details?.offset === 'number'));
    if (!fromParser) throw e;
    const fix = e.hintText(say);
    throw new MockdevError('INVALID_ARGUMENT', e.message, {
      hint: e.hint,
      details: { field: 'command', ...e.details, ...(fix ? { fix } : {}) },
      cause: e,
    });
  }
}

export const importRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof ImportQuerySchema>>({
    method: 'POST',
    maxBodyBytes: DOCUMENT_BODY_LIMIT_BYTES,
    path: '/import/openapi',
    tag: 'Imports and exports',
    summary: 'Import an OpenAPI 3.0/3.1 or Swagger 2.0 document (as `mockdev import --json`)',
    description:
      'The document is the request body, JSON or YAML. `$ref`s to other files resolve only inside the mockdev data directory.',
    query: ImportQuerySchema,
    bodyTypes: DOCUMENT_TYPES,
    response: { schema: ImportReportSchema, description: 'The import report' },
    handle: ({ ctx, query, rawBody, say }) => {
      if (rawBody.trim() === '')
        throw new MockdevError('INVALID_ARGUMENT', 'The request body is empty: send the OpenAPI document', {
          details: { field: 'body' },
        });
      return importOpenApi(
        ctx,
        {
          text: rawBody,
          projectRef: query.project,
          overwrite: query.overwrite,
          replace: query.replace,
          templates: query.templates,
          strict: query.strict,
          dryRun: query.dryRun,
        },
        {
          within: { root: ctx.dataDir, name: 'the mockdev data directory' },
          say,
          // A large document takes seconds: the servers of this process answer meanwhile.
          offThread: true,
        },
      );
    },
  }),
  defineRoute<unknown, z.output<typeof FileImportQuerySchema>>({
    method: 'POST',
    maxBodyBytes: DOCUMENT_BODY_LIMIT_BYTES,
    path: '/import',
    tag: 'Imports and exports',
    summary:
      'Import a HAR file, a Postman collection, a Mockoon environment, WireMock mappings or an OpenAPI document (as `mockdev import --json`)',
    description:
      'The file is the request body (JSON; YAML for OpenAPI). The format is detected from the content unless `format` is given; a file that is none of them is a 400 saying which format it looked like and why it was refused. WireMock: one mapping or `{ "mappings": [...] }` (a `bodyFileName` cannot be read here: reported skipped). `dryRun=true` answers the same report and writes nothing.',
    query: FileImportQuerySchema,
    bodyTypes: DOCUMENT_TYPES,
    response: { schema: ImportReportSchema, description: 'The import report' },
    handle: ({ ctx, query, rawBody, say }) => {
      if (rawBody.trim() === '')
        throw new MockdevError('INVALID_ARGUMENT', 'The request body is empty: send the file to import', {
          details: { field: 'body' },
        });
      return importFile(
        ctx,
        {
          text: rawBody,
          projectRef: query.project,
          overwrite: query.overwrite,
          replace: query.replace,
          templates: query.templates,
          strict: query.strict,
          dryRun: query.dryRun,
          format: query.format,
          includeHost: query.includeHost,
          all: query.all,
          env: query.env,
        },
        {
          within: { root: ctx.dataDir, name: 'the mockdev data directory' },
          say,
          // A large OpenAPI document takes seconds: the servers of this process answer meanwhile.
          offThread: true,
        },
      );
    },
  }),
  defineRoute<z.output<typeof CurlPreviewInputSchema>>({
    method: 'POST',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: '/curl/preview',
    tag: 'Imports and exports',
    summary: 'What a cURL command would become; creates nothing (as `mockdev curl --preview --json`)',
    body: CurlPreviewInputSchema,
    response: {
      schema: CurlPreviewSchema,
      description:
        'The parsed command (a command that cannot be parsed: 400 with details.line and details.column)',
    },
    handle: ({ ctx, body, say }) =>
      asArgument(say, () => previewCurl(ctx, body.command, { projectRef: body.project, name: body.name })),
  }),
  defineRoute<z.output<typeof CurlImportSchema>>({
    method: 'POST',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: '/projects/{project}/curl',
    tag: 'Imports and exports',
    summary: 'Add an endpoint from a cURL command (as `mockdev curl … -p PROJECT --json`)',
    params: PROJECT_PARAM,
    body: CurlImportSchema,
    response: { status: 201, schema: EndpointSchema, description: 'The endpoint created' },
    handle: async ({ ctx, params, body, say }) =>
      (
        await asArgument(say, () =>
          importCurl(ctx, params.project!, body.command, { name: body.name, templates: body.templates }),
        )
      ).endpoint,
  }),
  defineRoute<unknown, z.output<typeof ExportQuerySchema>>({
    method: 'GET',
    path: '/projects/{project}/openapi',
    tag: 'Imports and exports',
    summary: 'The project as an OpenAPI document (as `mockdev export`)',
    params: PROJECT_PARAM,
    query: ExportQuerySchema,
    response: {
      schema: z.string(),
      contentType: 'application/yaml',
      description: 'The document as text: application/yaml, or application/json with format=json',
    },
    handle: async ({ ctx, params, query }) => {
      const result = await exportOpenApi(ctx, params.project!, {
        format: query.format,
        openapiVersion: query.version,
      });
      return reply({
        status: 200,
        text: result.text,
        contentType: `${result.format === 'json' ? 'application/json' : 'application/yaml'}; charset=utf-8`,
      });
    },
  }),
];
