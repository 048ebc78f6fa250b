import { MockdevError } from '../errors.js';
import { routeKey } from '../match/route-key.js';
import { parseSegment, splitPath } from '../match/router.js';
import type { Resource, ResourceItem } from '../model/resource.js';

/**
 * The rules of a resource's definition (docs/resources.md "The model"): its collection path ends
 * in a literal segment, which names it by default; two resources never answer the same path;
 * every item of its seed or of data given whole has an id (a string or a number) in the id
 * field, unique among the items of the same parent (the values of the path's parameters, when
 * the item has them).
 */

/** The segments of a path, each as literal text or null for one holding a parameter. */
function segments(path: string): (string | null)[] {
  return splitPath(path).map((s) => {
    const pieces = parseSegment(s);
    return pieces.every((p) => !('param' in p)) ? s : null;
  });
}

/** The names of the parameters of a path, in order. */
export function pathParams(path: string): string[] {
  const names: string[] = [];
  for (const s of splitPath(path))
    for (const piece of parseSegment(s)) if ('param' in piece) names.push(piece.param);
  return names;
}

/**
 * The collection's name from its path: the last segment, which must be literal
 * (`/api/orgs/{org}/users` → users). INVALID_ARGUMENT naming the path otherwise.
 */
export function collectionName(path: string): string {
  const all = segments(path);
  const last = all[all.length - 1];
  if (last === undefined || last === null || last === '*' || last === '')
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid path "${path}": a resource's path must end in a literal segment (the collection, e.g. /api/users); its items are at PATH/{id}`,
      { hint: 'Give the collection path, e.g. /api/orgs/{org}/users', details: { field: 'path' } },
    );
  return decodeSegment(last);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The resource among `others` answering the same route as `path`, if any. */
export const samePath = (others: Resource[], path: string): Resource | undefined => {
  const key = routeKey(path);
  return others.find((r) => routeKey(r.path) === key);
};

const isId = (v: unknown): v is string | number =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v));

/**
 * Checks items given whole (a seed, or data replacing the current items): each has an id in
 * `idField`, a non-empty string or a number, unique (as text) among the items with the same
 * values of the path's parameters. `what` names the items in the message (`--seed`, `items`).
 */
export function checkItems(items: ResourceItem[], idField: string, path: string, what: string): void {
  const params = pathParams(path);
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const id = item[idField];
    if (!isId(id))
      throw new MockdevError(
        'INVALID_ARGUMENT',
        id === undefined
          ? `Invalid ${what}: item ${i} has no "${idField}" field (every item needs its id)`
          : `Invalid ${what}: item ${i} has "${idField}" ${JSON.stringify(id) ?? String(id)}: an id is a non-empty string or a number`,
        {
          hint: `Give each item a "${idField}", or name the field the ids are in with the id field`,
          details: { field: `${what}.${i}.${idField}` },
        },
      );
    const key = JSON.stringify([...params.map((p) => item[p] ?? null), String(id)]);
    const first = seen.get(key);
    if (first !== undefined)
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Invalid ${what}: items ${first} and ${i} have the same "${idField}" ${JSON.stringify(String(id))}`,
        { hint: 'Give each item its own id', details: { field: `${what}.${i}.${idField}` } },
      );
    seen.set(key, i);
  });
}
