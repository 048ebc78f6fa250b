/**
 * Resources' use cases (docs/resources.md): what the CLI, the admin API and the UI call. The
 * definitions live in the project (ctx.projects, `resources.json`); the current items are the
 * serving process's state (ctx.resourceStates), read as core/resources/state.ts says. A change
 * of the data from here (a reset, a replacement, a new seed or id field) stages the items under
 * the next revision and bumps the definition's revision in one read-modify-write of the project:
 * a running server sees the change and takes them, and a later start does the same.
 */
import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Project } from '../core/model/project.js';
import {
  ResourceInputSchema,
  ResourcePatchSchema,
  ResourceSeedSchema,
  type Resource,
  type ResourceInput,
  type ResourceItem,
  type ResourcePatch,
} from '../core/model/resource.js';
import type { StoredProject } from '../core/ports.js';
import { checkItems, collectionName, samePath } from '../core/resources/definition.js';
import { currentItems } from '../core/resources/state.js';
import { parseInput } from '../core/validate.js';
import type { AppContext } from './context.js';
import { assertNameFree, findNamed } from './named-refs.js';
import { assertSomethingToChange, resolveProject, toProject, type ResolveOptions } from './projects.js';

/** A resource's definition and how many items it holds now. */
export type ResourceView = Resource & { itemCount: number };

/** A resource and the items it holds now. */
export interface ResourceData {
  resource: Resource;
  items: ResourceItem[];
}

/** A resource by id, exact name or name in any case; NOT_FOUND naming the project's resources otherwise. */
export const findResourceByRef = (state: StoredProject, ref: string): Resource =>
  findNamed(state, state.resources, ref, 'resource');

/** The items a resource holds now (what the server last wrote, what was staged, or the seed). */
async function itemsOf(ctx: AppContext, projectId: string, resource: Resource): Promise<ResourceItem[]> {
  const [state, staged] = await Promise.all([
    ctx.resourceStates.read(projectId, resource.id),
    ctx.resourceStates.readStaged(projectId, resource.id, resource.revision),
  ]);
  return currentItems(resource, state, staged);
}

const viewOf = async (ctx: AppContext, projectId: string, r: Resource): Promise<ResourceView> => ({
  ...r,
  itemCount: (await itemsOf(ctx, projectId, r)).length,
});

/** Refuses a definition whose path (first: it names it too) or name another resource of the project has. */
function checkUnique(state: StoredProject, next: Resource): void {
  const others = state.resources.filter((r) => r.id !== next.id);
  const at = samePath(others, next.path);
  if (at)
    throw new MockdevError(
      'CONFLICT',
      `Resource "${at.name}" of project "${state.project.name}" is already at ${at.path}`,
      { hint: 'Give another path, or change that resource', details: { field: 'path', resourceId: at.id } },
    );
  assertNameFree(state, others, next, 'resource');
}

/** What a change of the resources writes: the resources, and the project's updatedAt. */
const withResources = <T>(current: StoredProject, resources: Resource[], result: T) => ({
  resources,
  project: { ...current.project, updatedAt: new Date().toISOString() },
  result,
});

/** A project's resources, in order, each with its item count. */
export async function listResources(
  ctx: AppContext,
  project: string,
  options?: ResolveOptions,
): Promise<{ project: Project; resources: ResourceView[] }> {
  const stored = await resolveProject(ctx, project, options);
  const resources = await Promise.all(stored.resources.map((r) => viewOf(ctx, stored.project.id, r)));
  return { project: toProject(stored), resources };
}

/** One resource by id or name, with its item count. */
export async function getResource(
  ctx: AppContext,
  project: string,
  resource: string,
  options?: ResolveOptions,
): Promise<ResourceView> {
  const stored = await resolveProject(ctx, project, options);
  return viewOf(ctx, stored.project.id, findResourceByRef(stored, resource));
}

/** Adds a resource; its name defaults from the path's last segment, which must be literal. */
export async function addResource(
  ctx: AppContext,
  project: string,
  input: ResourceInput,
  options?: ResolveOptions,
): Promise<ResourceView> {
  const parsed = parseInput(ResourceInputSchema, input, 'resource');
  const fromPath = collectionName(parsed.path);
  const name = parsed.name ?? parseInput(ResourceInputSchema.shape.name, fromPath, 'name');
  checkItems(parsed.seed, parsed.idField, parsed.path, 'seed');
  const target = await resolveProject(ctx, project, options);
  const added = await ctx.projects.update(target.key, (current) => {
    const resource: Resource = {
      id: newId(),
      name: name!,
      path: parsed.path,
      idField: parsed.idField,
      seed: parsed.seed,
      revision: 0,
    };
    checkUnique(current, resource);
    return withResources(current, [...current.resources, resource], resource);
  });
  // A state left under this id cannot exist (a new id); the seed is what it holds.
  return { ...added, itemCount: added.seed.length };
}

/**
 * Replaces one resource's definition in a read-modify-write of its project. When `items` says
 * so, the items are staged under the next revision first and the revision bumped (the lock of
 * the update keeps another writer out between the two).
 */
async function changeResource<T>(
  ctx: AppContext,
  target: StoredProject,
  ref: string,
  change: (resource: Resource, state: StoredProject) => { next: Resource | null; items?: ResourceItem[] },
  result: (next: Resource, items: ResourceItem[] | undefined) => T,
): Promise<T> {
  return ctx.projects.update(target.key, async (current) => {
    const before = findResourceByRef(current, ref);
    const { next, items } = change(before, current);
    if (next === null)
      return withResources(
        current,
        current.resources.filter((r) => r.id !== before.id),
        result(before, undefined),
      );
    let written = next;
    if (items !== undefined) {
      written = { ...next, revision: before.revision + 1 };
      await ctx.resourceStates.stage(current.project.id, before.id, written.revision, items);
    }
    const list = current.resources.map((r) => (r.id === before.id ? written : r));
    return withResources(current, list, result(written, items));
  });
}

/**
 * Changes the fields given. A new seed or id field also resets the data to the (new) seed: items
 * kept under another id field would have no id; a new name or path keeps the data.
 */
export async function updateResource(
  ctx: AppContext,
  project: string,
  resource: string,
  patch: ResourcePatch,
  options?: ResolveOptions,
): Promise<ResourceView> {
  const parsed = parseInput(ResourcePatchSchema, patch, 'resource');
  assertSomethingToChange(parsed, ['name', 'path', 'idField', 'seed']);
  const stored = await resolveProject(ctx, project, options);
  const view = await changeResource(
    ctx,
    stored,
    resource,
    (before, state) => {
      const next: Resource = { ...before, ...parsed };
      if (parsed.path !== undefined) collectionName(next.path);
      checkUnique(state, next);
      const reseed =
        parsed.seed !== undefined || (parsed.idField !== undefined && parsed.idField !== before.idField);
      if (reseed || parsed.path !== undefined) checkItems(next.seed, next.idField, next.path, 'seed');
      return { next, ...(reseed ? { items: next.seed } : {}) };
    },
    (next, items) => ({ next, items }),
  );
  return {
    ...view.next,
    itemCount: (view.items ?? (await itemsOf(ctx, stored.project.id, view.next))).length,
  };
}

/** Removes a resource's definition, then its state. */
export async function removeResource(
  ctx: AppContext,
  project: string,
  resource: string,
  options?: ResolveOptions,
): Promise<Resource> {
  const stored = await resolveProject(ctx, project, options);
  const removed = await changeResource(
    ctx,
    stored,
    resource,
    () => ({ next: null }),
    (r) => r,
  );
  await ctx.resourceStates.remove(stored.project.id, removed.id);
  return removed;
}

/** The items a resource holds now. */
export async function resourceData(
  ctx: AppContext,
  project: string,
  resource: string,
  options?: ResolveOptions,
): Promise<ResourceData> {
  const stored = await resolveProject(ctx, project, options);
  const found = findResourceByRef(stored, resource);
  return { resource: found, items: await itemsOf(ctx, stored.project.id, found) };
}

/** Takes a resource back to its seed (a running server too). */
export async function resetResource(
  ctx: AppContext,
  project: string,
  resource: string,
  options?: ResolveOptions,
): Promise<ResourceData> {
  return changeResource(
    ctx,
    await resolveProject(ctx, project, options),
    resource,
    (before) => ({ next: before, items: before.seed }),
    (next, items) => ({ resource: next, items: items! }),
  );
}

/** Replaces a resource's items (a running server's too): a JSON array of objects, each with its id. */
export async function replaceResourceData(
  ctx: AppContext,
  project: string,
  resource: string,
  items: unknown,
  options?: ResolveOptions,
): Promise<ResourceData> {
  const parsed = parseInput(ResourceSeedSchema, items, 'items');
  return changeResource(
    ctx,
    await resolveProject(ctx, project, options),
    resource,
    (before) => {
      checkItems(parsed, before.idField, before.path, 'items');
      return { next: before, items: parsed };
    },
    (next, staged) => ({ resource: next, items: staged! }),
  );
}
