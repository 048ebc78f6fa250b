import { stringify as toYaml } from 'yaml';
import { MockdevError, PLAIN_WORDING, type Wording } from '../core/errors.js';
import { endpointKey } from '../core/match/route-key.js';
import { EndpointInputSchema, type Endpoint } from '../core/model/endpoint.js';
import { NameSchema } from '../core/model/fields.js';
import { ApiVersionSchema, type Project } from '../core/model/project.js';
import { uniqueName } from '../core/naming.js';
import { parseInput } from '../core/validate.js';
import {
  convertOpenApi,
  exportOpenApiDocument,
  type ConvertedOperation,
  type OpenApiVersion,
} from '../formats/openapi/index.js';
import { cleanName } from '../formats/openapi/import.js';
import type { AppContext } from './context.js';
import { assertTemplates, buildNamedEndpoint, withEndpoints } from './endpoints.js';
import { loadDocument, problemError, readSource, type ImportWarning, type Problem } from './openapi-load.js';
import { createProject, resolveProject, toProject, type ResolveOptions } from './projects.js';

export type { ImportWarning } from './openapi-load.js';

/** How many warnings a report lists (warningCount counts them all). */
export const MAX_LISTED_WARNINGS = 50;

export interface ImportReport {
  project: Project;
  created: Endpoint[];
  replaced: Endpoint[];
  /** Operations not imported, and why; `existingId` when an endpoint already has the route. */
  skipped: { method: string; path: string; reason: string; existingId?: string }[];
  /**
   * What in the document breaks the OpenAPI specification, could not be resolved, or was left
   * out, with where it is: the first MAX_LISTED_WARNINGS.
   */
  warnings: ImportWarning[];
  /** How many warnings there are in all (listed or not). */
  warningCount: number;
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
  /**
   * Refuse the document at the first problem: a part that breaks the OpenAPI schema, a `$ref`
   * that cannot be resolved, an operation that cannot become an endpoint. Default: import what
   * can be read and report each problem as a warning.
   */
  strict?: boolean;
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

const describeEndpoint = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

function projectNameFrom(title: string, label: string): string {
  const cleaned = cleanName(title);
  if (cleaned && NameSchema.safeParse(cleaned).success) return cleaned;
  const fromFile = cleanName(label.replace(/^.*[/\\]/, '').replace(/\.(ya?ml|json)$/i, ''));
  return fromFile && NameSchema.safeParse(fromFile).success ? fromFile : 'Imported API';
}

/**
 * Imports an OpenAPI (3.0/3.1) or Swagger 2.0 document: into a new project named after
 * `info.title`, or into an existing one. What cannot be read is left out and reported (or, with
 * `strict`, refuses the whole document); nothing is written unless the rest is valid.
 */
export async function importOpenApi(
  ctx: AppContext,
  input: ImportInput,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const progress = options.onProgress ?? (() => undefined);
  const strict = input.strict === true;
  progress({ phase: 'read' });
  const target =
    input.projectRef !== undefined ? await resolveProject(ctx, input.projectRef, options) : undefined;
  const source = await readSource(ctx, input, options.within);
  progress({ phase: 'validate' });
  const loaded = await loadDocument(ctx, source, options.within, strict);
  const converted = convertOpenApi(loaded.document, {
    onProgress: (done, total) => progress({ phase: 'convert', done, total }),
  });
  progress({ phase: 'write' });

  const problems: Problem[] = [...loaded.problems];
  const skipped: ImportReport['skipped'] = [];
  /** An operation left out (strict: the reason the document is refused). */
  const leaveOut = (op: { method: string; path: string; pointer: string }, reason: string) => {
    if (strict) {
      throw new MockdevError(
        'INVALID_INPUT',
        `Operation ${describeEndpoint(op)} cannot be imported: ${reason}`,
        {
          hint: (say) =>
            `Fix that operation in the document (nothing was imported), or import without ${say.option('strict')} to leave it out`,
        },
      );
    }
    return {
      skipped: { method: op.method, path: op.path, reason },
      problem: {
        kind: 'skipped' as const,
        uri: loaded.rootUri,
        pointer: op.pointer,
        message: `operation ${describeEndpoint(op)} left out: ${reason}`,
      },
    };
  };
  const skip = (op: { method: string; path: string; pointer: string }, reason: string) => {
    const left = leaveOut(op, reason);
    skipped.push(left.skipped);
    problems.push(left.problem);
  };
  for (const p of converted.problems) {
    if (p.operation)
      skip({ ...p.operation, pointer: p.pointer }, p.message.replace(/^operation \S+ \S+ /, ''));
    else problems.push({ kind: 'ignored', uri: loaded.rootUri, pointer: p.pointer, message: p.message });
  }

  const candidates: ConvertedOperation[] = [];
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
    candidates.push(op);
  }
  if (
    converted.operations.length === 0 &&
    problems.some((p) => p.kind === 'invalid' || p.kind === 'unresolved')
  ) {
    // Nothing could be read: say why, as strict mode would.
    throw problemError(
      problems.filter((p) => p.kind === 'invalid' || p.kind === 'unresolved'),
      loaded.label,
      loaded.locate,
      false,
    );
  }
  const report = (
    project: Project,
    created: Endpoint[],
    replaced: Endpoint[],
    skippedHere = skipped,
    problemsHere = problems,
  ) => ({
    project,
    created,
    replaced,
    skipped: skippedHere,
    warnings: loaded.locate(problemsHere.slice(0, MAX_LISTED_WARNINGS)),
    warningCount: problemsHere.length,
  });

  if (!target) {
    const name = projectNameFrom(converted.title, loaded.label);
    const apiVersion =
      converted.version !== undefined && ApiVersionSchema.safeParse(converted.version).success
        ? converted.version
        : undefined;
    let operations = candidates;
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
          operations.map((op) => op.input),
          { version: apiVersion },
        );
        const { endpoints, ...summary } = project;
        return report(summary, endpoints, []);
      } catch (e) {
        if (e instanceof MockdevError && e.code === 'NAME_TAKEN' && attempt < 3) continue;
        // An operation the endpoint rules refuse is left out, not the document: each is
        // checked only when the whole did not pass (a valid document is checked once).
        const refused =
          e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' ? refusedOperations(operations) : [];
        if (refused.length === 0) throw withCreateContext(e);
        for (const [op, reason] of refused) skip(op, reason);
        operations = operations.filter((op) => !refused.some(([bad]) => bad === op));
        if (operations.length === 0) {
          throw new MockdevError(
            'INVALID_INPUT',
            `${loaded.label}: none of its operations can be imported (${refused.length === 1 ? '' : `${refused.length} refused; the first: `}${describeEndpoint(refused[0]![0])}: ${refused[0]![1]})`,
            { hint: 'Fix the operations in the document; nothing was imported' },
          );
        }
      }
    }
  }

  const say = options.say ?? PLAIN_WORDING;
  return ctx.projects.update(target.key, (stored) => {
    const created: Endpoint[] = [];
    const replaced: Endpoint[] = [];
    const localSkipped = [...skipped];
    const localProblems = [...problems];
    let endpoints = [...stored.endpoints];
    const byKey = new Map(endpoints.map((e) => [endpointKey(e.method, e.path), e]));
    const names = new Set(endpoints.map((e) => e.name.toLowerCase()));
    for (const op of candidates) {
      let candidate: Endpoint;
      try {
        candidate = buildNamedEndpoint(op.input, names);
      } catch (e) {
        if (!(e instanceof MockdevError)) throw e;
        const left = leaveOut(op, e.message);
        localSkipped.push(left.skipped);
        localProblems.push(left.problem);
        continue;
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
      return { result: report(toProject(stored), created, replaced, localSkipped, localProblems) };
    }
    const change = withEndpoints(stored, endpoints, undefined);
    const project = toProject({ ...stored, ...change });
    return { ...change, result: report(project, created, replaced, localSkipped, localProblems) };
  });
}

/** The operations whose endpoints the endpoint rules refuse, and why. */
function refusedOperations(operations: ConvertedOperation[]): [ConvertedOperation, string][] {
  const refused: [ConvertedOperation, string][] = [];
  for (const op of operations) {
    try {
      assertTemplates(parseInput(EndpointInputSchema, op.input, 'endpoint'));
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
      refused.push([op, e.message]);
    }
  }
  return refused;
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
