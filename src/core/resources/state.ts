import type { Resource, ResourceItem, ResourceState } from '../model/resource.js';

/**
 * The items a resource holds now, from its definition, the state the serving process last wrote
 * and what was staged for the definition's revision (ports-serving.ts ResourceStateStore): the
 * written state when it belongs to this revision, else the staged items, else the seed (a new
 * resource, or a reset). Every reader (the server at load and on a revision change, `resource
 * data`, the admin API) decides the same way.
 */
export function currentItems(
  resource: Pick<Resource, 'revision' | 'seed'>,
  state: ResourceState | undefined,
  staged: ResourceItem[] | undefined,
): ResourceItem[] {
  if (state !== undefined && state.revision === resource.revision) return state.items;
  return staged ?? resource.seed;
}
