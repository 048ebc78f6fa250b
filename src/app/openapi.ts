import { MockdevError, PLAIN_WORDING, type Wording } from '../core/errors.js';
import { endpointKey } from '../core/match/route-key.js';
import { EndpointInputSchema, type Endpoint } from '../core/model/endpoint.js';
import { NameSchema } from '../core/model/fields.js';
import { keepTextLiteral } from '../core/model/imported-text.js';
import type { ImportedChange, LiteralText, TemplatesTreatment } from '../core/model/imports.js';
import { ApiVersionSchema, type Project } from '../core/model/project.js';
import { uniqueName } from '../core/naming.js';
import { parseInput } from '../core/validate.js';
import { convertOpenApi, type ConvertedOperation } from '../formats/openapi/index.js';
import { cleanName } from '../formats/openapi/import.js';
import type { AppContext } from './context.js';
import { assertTemplates } from './endpoint-build.js';
import { EndpointList, type Placement, type RouteClash } from './endpoint-merge.js';
import { withEndpoints } from './endpoints.js';
import { loadDocument, problemError, readSource, type ImportWarning, type Problem } from './openapi-load.js';
import { createProject, resolveProject, toProject, type ResolveOptions } from './projects.js';

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
  const report = (
    project: Project,
    written: Pick<ImportReport, 'created' | 'updated' | 'replaced' | 'kept' | 'dropped'>,
    skippedHere = skipped,
    problemsHere = problems,
  ): ImportReport => ({
    project,
    ...written,
    skipped: skippedHere,
    templates,
    literal: literalOf([...written.created, ...written.updated, ...written.replaced]),
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
        return report(summary, { created: endpoints, updated: [], replaced: [], kept: [], dropped: [] });
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
  const onClash: RouteClash = input.replace ? 'replace' : input.overwrite ? 'update' : 'skip';
  return ctx.projects.update(target.key, (stored) => {
    const written = {
      created: [] as Endpoint[],
      updated: [] as Endpoint[],
      replaced: [] as Endpoint[],
      kept: [] as ImportedChange[],
      dropped: [] as ImportedChange[],
    };
    const localSkipped = [...skipped];
    const localProblems = [...problems];
    const list = new EndpointList(stored.endpoints);
    for (const op of candidates) {
      let placed: Placement;
      try {
        placed = list.place(op.input, onClash);
      } catch (e) {
        if (!(e instanceof MockdevError)) throw e;
        const left = leaveOut(op, e.message);
        localSkipped.push(left.skipped);
        localProblems.push(left.problem);
        continue;
      }
      const e = placed.endpoint;
      const change = (items: string[]) => ({ endpointId: e.id, method: e.method, path: e.path, items });
      if (placed.outcome === 'skipped') {
        const { existing } = placed;
        localSkipped.push({
          method: e.method,
          path: e.path,
          reason: `already exists as "${existing.name}" (id ${existing.id}); ${say.turnOn('overwrite')} to update it from the document (or ${say.option('replace')} to replace it whole)`,
          existingId: existing.id,
        });
      } else if (placed.outcome === 'created') written.created.push(e);
      else if (placed.outcome === 'updated') {
        written.updated.push(e);
        if (placed.kept.length) written.kept.push(change(placed.kept));
      } else {
        written.replaced.push(e);
        if (placed.dropped.length) written.dropped.push(change(placed.dropped));
      }
    }
    const touched = written.created.length + written.updated.length + written.replaced.length;
    if (touched === 0) {
      return { result: report(toProject(stored), written, localSkipped, localProblems) };
    }
    const change = withEndpoints(stored, list.endpoints, undefined);
    const project = toProject({ ...stored, ...change });
    return { ...change, result: report(project, written, localSkipped, localProblems) };
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

export {
  exportOpenApi,
  parseExportFormat,
  parseOpenApiVersion,
  type ExportFormat,
  type ExportResult,
} from './openapi-export.js';
