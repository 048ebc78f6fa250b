import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify as toYaml } from 'yaml';
import { MockdevError, PLAIN_WORDING, type Wording } from '../core/errors.js';
import { endpointKey } from '../core/match/route-key.js';
import { EndpointInputSchema, type Endpoint, type EndpointInput } from '../core/model/endpoint.js';
import { NameSchema } from '../core/model/fields.js';
import type { Project } from '../core/model/project.js';
import { suggestEndpointName, uniqueName } from '../core/naming.js';
import { parseInput } from '../core/validate.js';
import {
  convertOpenApi,
  exportOpenApiDocument,
  locatePointer,
  parseDocumentText,
  type OpenApiVersion,
} from '../formats/openapi/index.js';
import { cleanName } from '../formats/openapi/import.js';
import type { AppContext } from './context.js';
import { buildEndpoint } from './endpoints.js';
import { withEndpoints } from './endpoints.js';
import { createProject, resolveProject, toProject, type ResolveOptions } from './projects.js';

export interface ImportReport {
  project: Project;
  created: Endpoint[];
  replaced: Endpoint[];
  /** Operations not imported, and why; `existingId` when an endpoint already has the route. */
  skipped: { method: string; path: string; reason: string; existingId?: string }[];
}

export interface ImportInput {
  /** The document itself (JSON or YAML). */
  text?: string;
  /** A file to read the document from (relative to the working folder). */
  file?: string;
  /** Import into this project instead of creating a new one. */
  projectRef?: string;
  /** Replace endpoints whose method + path already exist (keeping their id and name). */
  overwrite?: boolean;
}

export interface ImportProgress {
  phase: 'read' | 'validate' | 'convert' | 'write';
  done?: number;
  total?: number;
}

export type ImportOptions = ResolveOptions & {
  /**
   * A `file`, and every file a `$ref` points to, must be inside this folder (symlinks followed);
   * a relative `file` is relative to it. `name` says what the folder is, for messages.
   */
  within?: { root: string; name: string };
  /** How the report words its advice (the adapter's words). */
  say?: Wording;
  onProgress?: (progress: ImportProgress) => void;
};

async function readSource(
  ctx: AppContext,
  input: ImportInput,
  within: ImportOptions['within'],
): Promise<{ text: string; label: string; base: string }> {
  if (input.text !== undefined && input.file !== undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Give either the document text or a file, not both');
  }
  if (input.text !== undefined) {
    return {
      text: input.text,
      label: 'The OpenAPI document',
      base: join(within?.root ?? ctx.cwd, 'openapi-document'),
    };
  }
  if (input.file === undefined || input.file.trim() === '') {
    throw new MockdevError('INVALID_ARGUMENT', 'No OpenAPI document given', {
      hint: (say) => `give the document as ${say.option('file')} or ${say.option('text')}`,
    });
  }
  const base = isAbsolute(input.file) ? input.file : join(within?.root ?? ctx.cwd, input.file);
  const text = (await ctx.files.read(input.file, { within })).toString('utf8');
  return { text, label: input.file, base };
}

/** File $refs resolve relative to the document; URLs are refused (no network); `within` holds. */
function fileResolver(ctx: AppContext, within: ImportOptions['within'], label: string) {
  return {
    order: 1,
    canRead: (file: { url: string }) => !/^https?:/i.test(file.url),
    read: async (file: { url: string }) => {
      const path = file.url.startsWith('file:') ? fileURLToPath(file.url) : decodeURI(file.url);
      try {
        return await ctx.files.read(path, { within });
      } catch (e) {
        if (!(e instanceof MockdevError)) throw e;
        throw new MockdevError('INVALID_INPUT', `${label} has a $ref that cannot be resolved: ${e.message}`, {
          hint: 'Keep referenced files next to the document, and check that the referenced file exists',
        });
      }
    },
  };
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function validationError(e: unknown, text: string, label: string): MockdevError {
  if (e instanceof MockdevError) return e;
  const err = e as Error & { details?: AjvLikeError[]; code?: string; source?: string; path?: string };
  const details = Array.isArray(err.details) ? err.details : undefined;
  if (details && details.length) {
    // The deepest error is the most specific one; oneOf/anyOf summaries say little.
    const ranked = [...details].sort(
      (a, b) =>
        (b.instancePath?.length ?? 0) - (a.instancePath?.length ?? 0) ||
        Number(/must match/.test(a.message ?? '')) - Number(/must match/.test(b.message ?? '')),
    );
    const best =
      ranked.find((d) => !/must match (exactly one|a schema in anyOf)/.test(d.message ?? '')) ?? ranked[0]!;
    const pointer = best.instancePath || '';
    const at = locatePointer(text, pointer);
    const where = `${pointer ? `#${pointer}` : 'the top level'}${at ? ` (line ${at.line}, column ${at.col})` : ''}`;
    const extra =
      best.params && 'additionalProperty' in best.params
        ? ` "${String(best.params.additionalProperty)}"`
        : best.params && 'allowedValues' in best.params
          ? ` (${(best.params.allowedValues as unknown[]).join(', ')})`
          : '';
    const more =
      details.length > 1
        ? ` (${details.length - 1} more validation error${details.length > 2 ? 's' : ''})`
        : '';
    return new MockdevError(
      'INVALID_INPUT',
      `${label} is not a valid OpenAPI document: at ${where}: ${best.message ?? 'invalid'}${extra}${more}`,
      {
        hint: 'Fix the document there and import it again',
        details: { errors: details.slice(0, 20).map((d) => ({ path: d.instancePath, message: d.message })) },
      },
    );
  }
  const message = (err.message ?? String(e)).split('\n')[0]!.trim();
  if (
    /Error (resolving|opening|reading)|Unable to resolve|ENOENT|Missing \$ref pointer|Invalid \$ref pointer|Resolver/i.test(
      message,
    ) ||
    err.name === 'ResolverError' ||
    err.name === 'MissingPointerError'
  ) {
    return new MockdevError('INVALID_INPUT', `${label} has a $ref that cannot be resolved: ${message}`, {
      hint: /https?:/.test(message)
        ? 'Only local files and #/ pointers are resolved (no network); save the referenced document next to this one'
        : 'Check that the referenced file exists relative to the document and the pointer after # names an existing part',
    });
  }
  return new MockdevError('INVALID_INPUT', `${label} is not a valid OpenAPI document: ${message}`, {
    hint: 'Fix the document and import it again (supported: Swagger 2.0, OpenAPI 3.0 and 3.1)',
  });
}

/** Parses, resolves `$ref`s, validates and dereferences a document. */
async function loadDocument(
  ctx: AppContext,
  source: { text: string; label: string; base: string },
  within: ImportOptions['within'],
): Promise<Record<string, unknown>> {
  const { text, label, base } = source;
  const raw = parseDocumentText(text, label);
  if (typeof raw.openapi === 'string' && !/^3\.[01]\.\d+$/.test(raw.openapi)) {
    throw new MockdevError(
      'INVALID_INPUT',
      `${label} declares openapi ${raw.openapi}, which mockdev does not read`,
      {
        hint: 'Supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x',
      },
    );
  }
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    const api = await SwaggerParser.validate(
      base,
      raw as never,
      {
        resolve: { http: false, file: fileResolver(ctx, within, label) as never, external: true },
        dereference: { circular: true },
      } as never,
    );
    return api as unknown as Record<string, unknown>;
  } catch (e) {
    throw validationError(e, text, label);
  }
}

const describeEndpoint = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

function projectNameFrom(title: string, label: string): string {
  const cleaned = cleanName(title);
  if (cleaned && NameSchema.safeParse(cleaned).success) return cleaned;
  const fromFile = cleanName(label.replace(/^.*[/\\]/, '').replace(/\.(ya?ml|json)$/i, ''));
  return fromFile && NameSchema.safeParse(fromFile).success ? fromFile : 'Imported API';
}

/**
 * Imports an OpenAPI (3.0/3.1) or Swagger 2.0 document: into a new project named after
 * `info.title`, or into an existing one. All or nothing: nothing is written unless every
 * operation converts into a valid endpoint.
 */
export async function importOpenApi(
  ctx: AppContext,
  input: ImportInput,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const progress = options.onProgress ?? (() => undefined);
  progress({ phase: 'read' });
  const target =
    input.projectRef !== undefined ? await resolveProject(ctx, input.projectRef, options) : undefined;
  const source = await readSource(ctx, input, options.within);
  const { label } = source;
  progress({ phase: 'validate' });
  const doc = await loadDocument(ctx, source, options.within);
  const converted = convertOpenApi(doc, {
    onProgress: (done, total) => progress({ phase: 'convert', done, total }),
  });
  progress({ phase: 'write' });

  const skipped: ImportReport['skipped'] = [];
  const inputs: EndpointInput[] = [];
  const seen = new Map<string, string>();
  for (const op of converted.operations) {
    const key = endpointKey(op.method, op.path);
    const first = seen.get(key);
    if (first !== undefined) {
      skipped.push({
        method: op.method,
        path: op.path,
        reason: `same route as ${first} earlier in the document`,
      });
      continue;
    }
    seen.set(key, `${op.method} ${op.path}`);
    inputs.push(op.input);
  }

  if (!target) {
    for (const i of inputs) {
      try {
        parseInput(EndpointInputSchema, i, 'endpoint');
      } catch (e) {
        throw withOperation(e, i);
      }
    }
    const name = projectNameFrom(converted.title, label);
    for (let attempt = 0; ; attempt++) {
      // Another process may take the name meanwhile: then the next free one is tried.
      const unique = uniqueName(
        name,
        (await ctx.projects.summaries({ managedOnly: true })).map((p) => p.name),
      );
      try {
        const project = await createProject(
          ctx,
          { name: unique, description: converted.description.slice(0, 2000) },
          inputs,
        );
        const { endpoints, ...summary } = project;
        return { project: summary, created: endpoints, replaced: [], skipped };
      } catch (e) {
        if (!(e instanceof MockdevError && e.code === 'NAME_TAKEN' && attempt < 3))
          throw withCreateContext(e);
      }
    }
  }

  const say = options.say ?? PLAIN_WORDING;
  return ctx.projects.update(target.key, (stored) => {
    const created: Endpoint[] = [];
    const replaced: Endpoint[] = [];
    const localSkipped = [...skipped];
    let endpoints = [...stored.endpoints];
    const byKey = new Map(endpoints.map((e) => [endpointKey(e.method, e.path), e]));
    const names = new Set(endpoints.map((e) => e.name.toLowerCase()));
    for (const i of inputs) {
      let candidate: Endpoint;
      try {
        const parsed = parseInput(EndpointInputSchema, i, 'endpoint');
        const wanted = parsed.name ?? suggestEndpointName(parsed.method, parsed.path);
        candidate = buildEndpoint(
          { ...i, name: names.has(wanted.toLowerCase()) ? uniqueName(wanted, names) : wanted },
          [],
        );
      } catch (e) {
        throw withOperation(e, i);
      }
      const key = endpointKey(candidate.method, candidate.path);
      const existing = byKey.get(key);
      if (existing && !input.overwrite) {
        localSkipped.push({
          method: candidate.method,
          path: candidate.path,
          reason: `already exists as "${existing.name}" (id ${existing.id}); ${say.turnOn('overwrite')} to replace it`,
          existingId: existing.id,
        });
        continue;
      }
      if (existing) {
        const next: Endpoint = { ...candidate, id: existing.id, name: existing.name };
        endpoints = endpoints.map((e) => (e.id === existing.id ? next : e));
        replaced.push(next);
        continue;
      }
      byKey.set(key, candidate);
      names.add(candidate.name.toLowerCase());
      endpoints.push(candidate);
      created.push(candidate);
    }
    if (created.length + replaced.length === 0) {
      return { result: { project: toProject(stored), created, replaced, skipped: localSkipped } };
    }
    const change = withEndpoints(stored, endpoints, undefined);
    const project = toProject({ ...stored, ...change });
    return { ...change, result: { project, created, replaced, skipped: localSkipped } };
  });
}

function withOperation(e: unknown, input: EndpointInput): unknown {
  if (!(e instanceof MockdevError)) return e;
  return new MockdevError(
    'INVALID_INPUT',
    `Operation ${describeEndpoint({ method: String(input.method ?? 'GET'), path: input.path })} cannot be imported: ${e.message}`,
    {
      hint: 'Fix that operation in the document; nothing was imported',
      details: e.details,
    },
  );
}

function withCreateContext(e: unknown): unknown {
  if (e instanceof MockdevError && e.code === 'INVALID_ARGUMENT') {
    return new MockdevError('INVALID_INPUT', `The document cannot be imported: ${e.message}`, {
      hint: 'Fix the document; nothing was imported',
      details: e.details,
    });
  }
  return e;
}

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
 * Exports a project as an OpenAPI 3.0.3 (default) or 3.1.0 document, as YAML (default) or JSON
 * text; with `output`, writes it to that file atomically.
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
