import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify as toYaml } from 'yaml';
import { MockdevError } from '../core/errors.js';
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
import { createProjectWithEndpoints, resolveProject, toProject, type ResolveOptions } from './projects.js';

export interface ImportReport {
  project: Project;
  created: Endpoint[];
  replaced: Endpoint[];
  skipped: { method: string; path: string; reason: string }[];
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
  /** A `file` (and any file a `$ref` points to) must be inside this folder. */
  allowedRoot?: string;
  onProgress?: (progress: ImportProgress) => void;
};

const inside = (root: string, path: string): boolean => {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

async function readSource(
  ctx: AppContext,
  input: ImportInput,
  allowedRoot?: string,
): Promise<{ text: string; label: string; base: string }> {
  if (input.text !== undefined && input.file !== undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Give either the document text or a file, not both');
  }
  if (input.text !== undefined) {
    return {
      text: input.text,
      label: 'The OpenAPI document',
      base: join(allowedRoot ?? ctx.cwd, 'openapi-document'),
    };
  }
  if (input.file === undefined || input.file.trim() === '') {
    throw new MockdevError('INVALID_ARGUMENT', 'No OpenAPI document given', {
      hint: 'Give a file path, e.g. mockdev import openapi.yaml',
    });
  }
  const path = resolve(ctx.cwd, input.file);
  if (allowedRoot !== undefined && !inside(allowedRoot, path)) {
    throw new MockdevError('INVALID_ARGUMENT', `The file ${input.file} is outside ${allowedRoot}`, {
      hint: `Put the document inside ${allowedRoot}, or pass its text instead`,
    });
  }
  try {
    return { text: await readFile(path, 'utf8'), label: input.file, base: path };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new MockdevError('INVALID_ARGUMENT', `Cannot read ${input.file}: ${why}`, {
      hint: 'Check the path to the OpenAPI document',
    });
  }
}

/** File $refs resolve relative to the document; URLs are refused (no network); allowedRoot is enforced. */
function fileResolver(allowedRoot: string | undefined) {
  return {
    order: 1,
    canRead: (file: { url: string }) => !/^https?:/i.test(file.url),
    read: async (file: { url: string }) => {
      const path = file.url.startsWith('file:') ? fileURLToPath(file.url) : decodeURI(file.url);
      if (allowedRoot !== undefined && !inside(allowedRoot, path)) {
        throw new MockdevError('INVALID_INPUT', `A $ref points to ${path}, outside ${allowedRoot}`, {
          hint: 'Keep referenced files next to the document',
        });
      }
      return readFile(path);
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
  text: string,
  label: string,
  base: string,
  allowedRoot?: string,
): Promise<Record<string, unknown>> {
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
        resolve: { http: false, file: fileResolver(allowedRoot) as never, external: true },
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
  const { text, label, base } = await readSource(ctx, input, options.allowedRoot);
  progress({ phase: 'validate' });
  const doc = await loadDocument(text, label, base, options.allowedRoot);
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
      const { states } = await ctx.projects.list();
      const unique = uniqueName(
        name,
        states.map((s) => s.project.name),
      );
      try {
        const project = await createProjectWithEndpoints(
          ctx,
          { name: unique, description: converted.description.slice(0, 2000) },
          inputs,
        );
        const { endpoints, ...summary } = project;
        return { project: summary, created: endpoints, replaced: [], skipped };
      } catch (e) {
        if (!(
          e instanceof MockdevError &&
          e.code === 'CONFLICT' &&
          attempt < 3 &&
          /project named/.test(e.message)
        ))
          throw withCreateContext(e);
      }
    }
  }

  return ctx.projects.update(target.dir, (state) => {
    const created: Endpoint[] = [];
    const replaced: Endpoint[] = [];
    const localSkipped = [...skipped];
    let endpoints = [...state.endpoints];
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
          reason: `already exists as "${existing.name}" (id ${existing.id}); use --overwrite to replace it`,
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
    const changed = created.length + replaced.length > 0;
    const next = changed
      ? { ...state, endpoints, project: { ...state.project, updatedAt: new Date().toISOString() } }
      : state;
    return { state: next, result: { project: toProject(next), created, replaced, skipped: localSkipped } };
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

/** Exports a project as an OpenAPI 3.0.3 (default) or 3.1.0 document, as YAML (default) or JSON text. */
export async function exportOpenApi(
  ctx: AppContext,
  projectRef: string,
  opts: { format?: 'json' | 'yaml'; openapiVersion?: '3.0' | '3.1' } = {},
  options?: ResolveOptions,
): Promise<{ text: string; document: object }> {
  const format = opts.format ?? 'yaml';
  if (format !== 'json' && format !== 'yaml') {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid format "${String(format)}": must be json or yaml`);
  }
  const version: OpenApiVersion = opts.openapiVersion ?? '3.0';
  if (version !== '3.0' && version !== '3.1') {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid OpenAPI version "${String(version)}": must be 3.0 or 3.1`,
    );
  }
  const state = await resolveProject(ctx, projectRef, options);
  const document = exportOpenApiDocument(state.project, state.endpoints, version);
  const text =
    format === 'json'
      ? `${JSON.stringify(document, null, 2)}\n`
      : toYaml(document, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' });
  return { text, document };
}
