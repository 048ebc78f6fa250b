import { MockdevError, type Wording } from '../core/errors.js';
import { EndpointInputSchema, type Endpoint, type EndpointInput } from '../core/model/endpoint.js';
import type { ImportedChange } from '../core/model/imports.js';
import type { Project } from '../core/model/project.js';
import { uniqueName } from '../core/naming.js';
import type { StoredProject } from '../core/ports.js';
import { parseInput } from '../core/validate.js';
import type { AppContext } from './context.js';
import { assertTemplates, buildEndpoints } from './endpoint-build.js';
import { EndpointList, type Placement, type RouteClash } from './endpoint-merge.js';
import { withEndpoints } from './endpoints.js';
import { createProject, nextFreeProjectPort, toProject } from './projects.js';

/**
 * The write half every import shares (OpenAPI, HAR, Postman, Mockoon, WireMock): the endpoints
 * an import made go into a new project (named uniquely) or into an existing one (placed by
 * EndpointList: skipped, updated or replaced when the route exists). An endpoint the endpoint
 * rules refuse is left out, not the import; with `dryRun` the same report, nothing written.
 */

/** One endpoint an import would write, with where it came from (the caller's own fields). */
export interface ImportItem {
  method: string;
  path: string;
  input: EndpointInput;
}

/** An item not written: why, and the endpoint that has its route, or the item the rules refused. */
export interface WriteSkip<T> {
  method: string;
  path: string;
  reason: string;
  existingId?: string;
  /** Set when the endpoint rules (or the project's routes) refused the item. */
  item?: T;
}

export interface WriteRequest<T extends ImportItem> {
  /** The project to import into; absent: a new one. */
  target?: StoredProject;
  /** What a new project gets (the name is made unique among the managed projects). */
  project: { name: string; description: string; version?: string; port?: number };
  items: T[];
  onClash: RouteClash;
  say: Wording;
  dryRun?: boolean;
  /** Called for each item refused before it is left out: a strict import throws here. */
  refuse?: (item: T, reason: string) => void;
  /** The error when every item is refused (nothing is written). */
  noneLeft: (refused: [T, string][]) => MockdevError;
}

export interface WriteOutcome<T> {
  project: Project;
  created: Endpoint[];
  updated: Endpoint[];
  replaced: Endpoint[];
  kept: ImportedChange[];
  dropped: ImportedChange[];
  /** In the order met. */
  skipped: WriteSkip<T>[];
}

/** The id a dry run's would-be project shows (nothing is created). */
export const DRY_RUN_ID = 'dry-run';

export async function writeImport<T extends ImportItem>(
  ctx: AppContext,
  request: WriteRequest<T>,
): Promise<WriteOutcome<T>> {
  return request.target ? writeInto(ctx, request.target, request) : writeNew(ctx, request);
}

async function writeNew<T extends ImportItem>(
  ctx: AppContext,
  request: WriteRequest<T>,
): Promise<WriteOutcome<T>> {
  const skipped: WriteSkip<T>[] = [];
  let items = request.items;
  for (let attempt = 0; ; attempt++) {
    // Another process may take the name meanwhile: then the next free one is tried.
    const name = uniqueName(
      request.project.name,
      (await ctx.projects.summaries({ managedOnly: true })).map((p) => p.name),
    );
    try {
      const inputs = items.map((item) => item.input);
      if (request.dryRun)
        return { ...nothingWritten(skipped), ...(await wouldCreate(ctx, request, name, inputs)) };
      const made = await createProject(
        ctx,
        { name, description: request.project.description.slice(0, 2000), port: request.project.port },
        inputs,
        { version: request.project.version },
      );
      const { endpoints, ...project } = made;
      return { ...nothingWritten(skipped), project, created: endpoints };
    } catch (e) {
      if (e instanceof MockdevError && e.code === 'NAME_TAKEN' && attempt < 3) continue;
      // An item the endpoint rules refuse is left out, not the import: each is checked only
      // when the whole did not pass (a valid import is checked once).
      const refused = e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' ? refusedItems(items) : [];
      if (refused.length === 0) throw withCreateContext(e);
      for (const [item, reason] of refused) {
        request.refuse?.(item, reason);
        skipped.push({ method: item.method, path: item.path, reason, item });
      }
      items = items.filter((item) => !refused.some(([bad]) => bad === item));
      if (items.length === 0) throw request.noneLeft(refused);
    }
  }
}

/** What a new project would be: its endpoints built and checked as createProject does. */
async function wouldCreate<T extends ImportItem>(
  ctx: AppContext,
  request: WriteRequest<T>,
  name: string,
  inputs: EndpointInput[],
): Promise<{ project: Project; created: Endpoint[] }> {
  const created = buildEndpoints(inputs);
  const now = new Date().toISOString();
  const project: Project = {
    id: DRY_RUN_ID,
    name,
    description: request.project.description.slice(0, 2000),
    ...(request.project.version !== undefined ? { apiVersion: request.project.version } : {}),
    port: request.project.port ?? (await nextFreeProjectPort(ctx)),
    createdAt: now,
    updatedAt: now,
    endpointCount: created.length,
  };
  return { project, created };
}

const nothingWritten = <T>(skipped: WriteSkip<T>[]): Omit<WriteOutcome<T>, 'project'> => ({
  created: [],
  updated: [],
  replaced: [],
  kept: [],
  dropped: [],
  skipped,
});

function writeInto<T extends ImportItem>(
  ctx: AppContext,
  target: StoredProject,
  request: WriteRequest<T>,
): Promise<WriteOutcome<T>> {
  const { say, onClash } = request;
  return ctx.projects.update(target.key, (stored) => {
    const out = nothingWritten<T>([]);
    const list = new EndpointList(stored.endpoints);
    for (const item of request.items) {
      let placed: Placement;
      try {
        placed = list.place(item.input, onClash);
      } catch (e) {
        if (!(e instanceof MockdevError)) throw e;
        request.refuse?.(item, e.message);
        out.skipped.push({ method: item.method, path: item.path, reason: e.message, item });
        continue;
      }
      const e = placed.endpoint;
      const change = (items: string[]) => ({ endpointId: e.id, method: e.method, path: e.path, items });
      if (placed.outcome === 'skipped') {
        const { existing } = placed;
        out.skipped.push({
          method: e.method,
          path: e.path,
          reason: `already exists as "${existing.name}" (id ${existing.id}); ${say.turnOn('overwrite')} to update it from the document (or ${say.option('replace')} to replace it whole)`,
          existingId: existing.id,
        });
      } else if (placed.outcome === 'created') out.created.push(e);
      else if (placed.outcome === 'updated') {
        out.updated.push(e);
        if (placed.kept.length) out.kept.push(change(placed.kept));
      } else {
        out.replaced.push(e);
        if (placed.dropped.length) out.dropped.push(change(placed.dropped));
      }
    }
    const touched = out.created.length + out.updated.length + out.replaced.length;
    if (touched === 0 || request.dryRun) {
      const project = toProject(stored);
      const count = list.endpoints.length;
      return { result: { ...out, project: request.dryRun ? { ...project, endpointCount: count } : project } };
    }
    const change = withEndpoints(stored, list.endpoints, undefined);
    return { ...change, result: { ...out, project: toProject({ ...stored, ...change }) } };
  });
}

/** The items whose endpoints the endpoint rules refuse, and why. */
function refusedItems<T extends ImportItem>(items: T[]): [T, string][] {
  const refused: [T, string][] = [];
  for (const item of items) {
    try {
      assertTemplates(parseInput(EndpointInputSchema, item.input, 'endpoint'));
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
      refused.push([item, e.message]);
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
