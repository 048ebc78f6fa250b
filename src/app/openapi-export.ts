import { stringify as toYaml } from 'yaml';
import { MockdevError } from '../core/errors.js';
import {
  addResourceOperations,
  exportOpenApiDocument,
  type OpenApiVersion,
} from '../formats/openapi/index.js';
import type { AppContext } from './context.js';
import { resolveProject, type ResolveOptions } from './projects.js';

export type ExportFormat = 'json' | 'yaml';

/** A format as people write it: json, yaml or yml, any case. */
export function parseExportFormat(value: string | undefined): ExportFormat {
  const format = (value ?? 'yaml').trim().toLowerCase();
  if (format === 'json') return 'json';
  if (format === 'yaml' || format === 'yml') return 'yaml';
  throw new MockdevError('INVALID_ARGUMENT', `Invalid format "${value}": must be json or yaml`, {
    hint: (say) => `give ${say.option('format')} json or yaml`,
    details: { field: 'format', value },
  });
}

/** An OpenAPI version as people write it: 3.0 or 3.1, or a full 3.0.x / 3.1.x. */
export function parseOpenApiVersion(value: string | undefined): OpenApiVersion {
  const version = (value ?? '3.0').trim().replace(/^(3\.[01])\.\d+$/, '$1');
  if (version === '3.0' || version === '3.1') return version;
  throw new MockdevError('INVALID_ARGUMENT', `Invalid OpenAPI version "${value}": must be 3.0 or 3.1`, {
    hint: (say) => `give ${say.option('openapiVersion')} 3.0 or 3.1`,
    details: { field: 'openapiVersion', value },
  });
}

export interface ExportResult {
  text: string;
  document: object;
  format: ExportFormat;
  openapiVersion: OpenApiVersion;
  /** Set when the document was written to a file (atomically). */
  file?: string;
}

/**
 * Exports a project (its endpoints and its resources' operations) as an OpenAPI 3.0.3 (default)
 * or 3.1.0 document, as YAML (default) or JSON text; with `output`, writes it to that file
 * atomically.
 */
export async function exportOpenApi(
  ctx: AppContext,
  projectRef: string,
  opts: { format?: string; openapiVersion?: string; output?: string } = {},
  options?: ResolveOptions,
): Promise<ExportResult> {
  const format = parseExportFormat(opts.format);
  const openapiVersion = parseOpenApiVersion(opts.openapiVersion);
  const stored = await resolveProject(ctx, projectRef, options);
  const document = exportOpenApiDocument(stored.project, stored.endpoints, openapiVersion);
  // The resources' operations, after the endpoints' (an endpoint answering one replaces it).
  addResourceOperations(
    document.paths as Record<string, Record<string, unknown>>,
    stored.resources,
    stored.endpoints,
    openapiVersion,
  );
  const text =
    format === 'json'
      ? `${JSON.stringify(document, null, 2)}\n`
      : toYaml(document, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' });
  if (opts.output !== undefined) await ctx.files.writeAtomic(opts.output, text);
  return {
    text,
    document,
    format,
    openapiVersion,
    ...(opts.output !== undefined ? { file: opts.output } : {}),
  };
}
