import { MockdevError, PLAIN_WORDING, type Wording } from '../core/errors.js';
import { endpointKey } from '../core/match/route-key.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { NameSchema } from '../core/model/fields.js';
import { keepTextLiteral } from '../core/model/imported-text.js';
import type { ImportedChange, LiteralText, TemplatesTreatment } from '../core/model/imports.js';
import { ApiVersionSchema, type Project } from '../core/model/project.js';
import type { ImportFormat, ImportNote } from '../formats/converted.js';
import { convertOpenApi, type ConvertedOperation } from '../formats/openapi/index.js';
import { cleanName } from '../formats/openapi/import.js';
import type { AppContext } from './context.js';
import { writeImport } from './import-write.js';
import { loadDocument, problemError, readSource, type ImportWarning, type Problem } from './openapi-load.js';
import { resolveProject, type ResolveOptions } from './projects.js';

export type { ImportWarning } from './openapi-load.js';

/** How many warnings a report lists (warningCount counts them all). */
export const MAX_LISTED_WARNINGS = 50;

export interface ImportReport {
  project: Project;
  created: Endpoint[];
  /** Existing endpoints updated from the document, keeping what only mockdev had (overwrite). */
  updated: Endpoint[];
  /** Existing endpoints replaced whole by the document's (replace). */
  replaced: Endpoint[];
  /** Per updated endpoint, what only mockdev had and was kept (hand-made variations, delay, …). */
  kept: ImportedChange[];
  /** Per replaced endpoint, what it had that the document does not describe and is gone. */
  dropped: ImportedChange[];
  /** Whether the document's text was imported as data (`literal`) or as templates, and why. */
  templates: TemplatesTreatment;
  /** The endpoints whose text holds `{{` and is sent as written (templating off), and where. */
  literal: LiteralText[];
  /** Operations not imported, and why; `existingId` when an endpoint already has the route. */
  skipped: { method: string; path: string; reason: string; existingId?: string; name?: string }[];
  /**
   * What in the document breaks the OpenAPI specification, could not be resolved, or was left
   * out, with where it is: the first MAX_LISTED_WARNINGS.
   */
  warnings: ImportWarning[];
  /** How many warnings there are in all (listed or not). */
  warningCount: number;
  /** The fields of an import of any format (app/imports.ts; absent from importOpenApi's own report). */
  format?: ImportFormat;
  dryRun?: boolean;
  approximate?: ImportNote[];
  resources?: { id?: string; name: string; path: string; itemCount: number }[];
  variables?: { name: string; value: string; secret: boolean }[];
  environment?: { id?: string; name: string; variableCount: number };
}

export interface ImportInput {
  /** The document itself (JSON or YAML). */
  text?: string;
  /** A file to read the document from (relative to the working folder). */
  file?: string;
  /** Import into this project instead of creating a new one. */
  projectRef?: string;
  /**
   * Update endpoints whose method + path already exist from the document, keeping what only
   * mockdev has (their id, name, hand-made variations and headers, delay, mode, proxy, …).
   */
  overwrite?: boolean;
  /** Replace endpoints whose method + path already exist whole (keeping their id and name). */
  replace?: boolean;
  /**
   * Keep the document's `{{…}}` as templates (a document one trusts). Default: text from the
   * document is data, sent as written, unless the document is mockdev's own export.
   */
  templates?: boolean;
  /** The same report, nothing written. */
  dryRun?: boolean;
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
  /**
   * Run the import in a worker thread (openapi-worker.ts), for adapters that serve others while
   * it runs (the admin API, MCP): a large document takes seconds to read. Only for a context of
   * local stores (createContext); any other imports here.
   */
  offThread?: boolean;
};

const describeEndpoint = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

export function projectNameFrom(title: string, label: string): string {
  const cleaned = cleanName(title);
  if (cleaned && NameSchema.safeParse(cleaned).success) return cleaned;
  const fromFile = cleanName(
    label.replace(/^.*[/\\]/, '').replace(/\.(ya?ml|json|har|postman_collection)$/i, ''),
  );
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
  if (options.offThread && ctx.local) {
    const { importInWorker } = await import('./openapi-worker.js');
    return importInWorker(ctx, input, options);
  }
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
  // Text from the document is data unless the caller trusts it or it is mockdev's own export,
  // whose templates are kept but for those that can read the environment (imported-text.ts).
  const templates: TemplatesTreatment = input.templates
    ? 'option'
    : converted.ownExport
      ? 'own-export'
      : 'literal';
  const literalParts = new Map<string, string[]>();
  if (templates !== 'option') {
    const rule = templates === 'own-export' ? 'readsEnvironment' : 'all';
    for (const op of candidates) {
      const { input: literalInput, literal } = keepTextLiteral(op.input, rule);
      if (literal.length === 0) continue;
      op.input = literalInput;
      literalParts.set(endpointKey(op.method, op.path), literal);
    }
  }
  /** The literal parts of the endpoints written, by their ids. */
  const literalOf = (endpoints: Endpoint[]): LiteralText[] =>
    endpoints.flatMap((e) => {
      const parts = literalParts.get(endpointKey(e.method, e.path));
      return parts ? [{ endpointId: e.id, method: e.method, path: e.path, parts }] : [];
    });
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
  const written = await writeImport(ctx, {
    target,
    project: {
      name: projectNameFrom(converted.title, loaded.label),
      description: converted.description,
      version:
        converted.version !== undefined && ApiVersionSchema.safeParse(converted.version).success
          ? converted.version
          : undefined,
    },
    items: candidates,
    onClash: input.replace ? 'replace' : input.overwrite ? 'update' : 'skip',
    say: options.say ?? PLAIN_WORDING,
    dryRun: input.dryRun,
    // strict: the first operation left out refuses the document (nothing is written).
    refuse: (op, reason) => void leaveOut(op, reason),
    noneLeft: (refused) =>
      new MockdevError(
        'INVALID_INPUT',
        `${loaded.label}: none of its operations can be imported (${refused.length === 1 ? '' : `${refused.length} refused; the first: `}${describeEndpoint(refused[0]![0])}: ${refused[0]![1]})`,
        { hint: 'Fix the operations in the document; nothing was imported' },
      ),
  });
  const problemsHere = [...problems];
  const skippedHere = [...skipped];
  for (const s of written.skipped) {
    if (s.item) {
      const left = leaveOut(s.item, s.reason);
      skippedHere.push(left.skipped);
      problemsHere.push(left.problem);
    } else skippedHere.push({ method: s.method, path: s.path, reason: s.reason, existingId: s.existingId });
  }
  return {
    project: written.project,
    created: written.created,
    updated: written.updated,
    replaced: written.replaced,
    kept: written.kept,
    dropped: written.dropped,
    skipped: skippedHere,
    templates,
    literal: literalOf([...written.created, ...written.updated, ...written.replaced]),
    warnings: loaded.locate(problemsHere.slice(0, MAX_LISTED_WARNINGS)),
    warningCount: problemsHere.length,
  };
}

export {
  exportOpenApi,
  parseExportFormat,
  parseOpenApiVersion,
  type ExportFormat,
  type ExportResult,
} from './openapi-export.js';
