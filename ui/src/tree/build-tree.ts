/**
 * The endpoint tree's shape, as a pure function of the endpoint list (no React, no DOM).
 *
 * Folders come from shared leading path segments. A path's trailing parameter segments (`{id}`,
 * `:id`, a final `*`) are dropped, every remaining segment is a folder, and the endpoint sits in
 * the innermost one: `/api/users` and `/api/users/{id}` both sit in `api/` → `users/` (a path
 * parameter sits with its collection), `/api/users/{id}/orders` in `api/` → `users/` → `{id}/` →
 * `orders/`, `/health` in `health/`, `/` at the top level. A folder's id is its path prefix
 * (`/api`, `/api/users`), with `:id` written `{id}`.
 *
 * Parameters in one place are one segment, whatever their names, as the mock server routes them
 * and the API's Delete Path takes them (the core's route key): `/users/{id}/orders` and
 * `/users/{userId}/posts` sit in one folder under `users/`, named and identified after the
 * first of them in tree order (`{id}/`, `/users/{id}`).
 *
 * Inside a folder: folders first (by segment), then endpoints by path, then by method in the
 * order GET POST PUT PATCH DELETE HEAD OPTIONS.
 */
import { HTTP_METHODS } from '../../../src/core/model/limits';
import type { Endpoint } from '../types';

export interface FolderNode {
  kind: 'folder';
  /** The folder's path prefix: `/api/users`. */
  id: string;
  /** What the row shows and its accessible name: the segment with a slash, `users/`. */
  name: string;
  children: TreeNode[];
}

export interface EndpointNode {
  kind: 'endpoint';
  /** The endpoint's id. */
  id: string;
  /** What the row says and its accessible name: `GET /api/users/{id} Get user`. */
  name: string;
  endpoint: Endpoint;
}

export type TreeNode = FolderNode | EndpointNode;

const methodRank = (method: string): number => {
  const i = (HTTP_METHODS as readonly string[]).indexOf(method.toUpperCase());
  return i === -1 ? HTTP_METHODS.length : i;
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Endpoints in tree order: by path, then by method (GET first). */
export function compareEndpoints(a: Endpoint, b: Endpoint): number {
  return compare(a.path, b.path) || methodRank(a.method) - methodRank(b.method) || compare(a.id, b.id);
}

/** A path's segments, without empty ones (leading, trailing or doubled slashes). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Whether a whole segment is a parameter: `{id}`, `:id`, or the final wildcard `*`. */
export function isParamSegment(segment: string): boolean {
  return /^\{[^{}]+\}$/.test(segment) || /^:[^:{}/]+$/.test(segment) || segment === '*';
}

/** `:id` written as `{id}`, so both spellings are one folder; other segments as they are. */
export function normalizeSegment(segment: string): string {
  return /^:[^:{}/]+$/.test(segment) ? `{${segment.slice(1)}}` : segment;
}

/** The folders an endpoint sits in, outermost first: the segments before its trailing parameters. */
export function folderSegments(path: string): string[] {
  const segments = pathSegments(path);
  while (segments.length > 0 && isParamSegment(segments[segments.length - 1]!)) segments.pop();
  return segments;
}

/**
 * A segment as a slot of the route: each parameter (`:id`, `{id}`, `{userId}`, the `{name}` in
 * `{name}.json`) written `{}`, as the core's route key has it; other text as it is.
 */
export function segmentSlot(segment: string): string {
  return /^:[^:{}/]+$/.test(segment) ? '{}' : segment.replace(/\{[^{}]*\}/g, '{}');
}

/** What a row says for an endpoint: `METHOD /path` as stored, then its name. */
export function endpointLabel(e: Endpoint): string {
  return e.name ? `${e.method} ${e.path} ${e.name}` : `${e.method} ${e.path}`;
}

/** Whether an endpoint matches a search (path, method or name; case-insensitive). An empty one matches all. */
export function matchesSearch(e: Endpoint, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (!t) return true;
  return (
    e.path.toLowerCase().includes(t) ||
    e.method.toLowerCase().includes(t) ||
    (e.name ?? '').toLowerCase().includes(t)
  );
}

interface Draft {
  folder: FolderNode;
  folders: Map<string, Draft>;
  endpoints: EndpointNode[];
}

const draft = (id: string, name: string): Draft => ({
  folder: { kind: 'folder', id, name, children: [] },
  folders: new Map(),
  endpoints: [],
});

function finish(d: Draft): TreeNode[] {
  const folders = [...d.folders.values()].sort((a, b) => compare(a.folder.id, b.folder.id));
  return [
    ...folders.map((f) => {
      f.folder.children = finish(f);
      return f.folder;
    }),
    ...d.endpoints,
  ];
}

/** The tree of an endpoint list (see the top of this file). */
export function buildTree(endpoints: readonly Endpoint[]): TreeNode[] {
  const root = draft('/', '/');
  for (const e of [...endpoints].sort(compareEndpoints)) {
    let at = root;
    for (const segment of folderSegments(e.path)) {
      const slot = segmentSlot(segment);
      let next = at.folders.get(slot);
      if (!next) {
        const id = `${at === root ? '' : at.folder.id}/${normalizeSegment(segment)}`;
        at.folders.set(slot, (next = draft(id, `${segment}/`)));
      }
      at = next;
    }
    at.endpoints.push({ kind: 'endpoint', id: e.id, name: endpointLabel(e), endpoint: e });
  }
  return finish(root);
}

/** Every folder id of a tree. */
export function folderIds(nodes: readonly TreeNode[], into: Set<string> = new Set()): Set<string> {
  for (const n of nodes)
    if (n.kind === 'folder') {
      into.add(n.id);
      folderIds(n.children, into);
    }
  return into;
}

/** Every endpoint inside a node (itself for an endpoint), in tree order. */
export function endpointsIn(node: TreeNode): Endpoint[] {
  return node.kind === 'endpoint' ? [node.endpoint] : node.children.flatMap(endpointsIn);
}

/** Every node of a tree by id. */
export function indexTree(nodes: readonly TreeNode[], into: Map<string, TreeNode> = new Map()) {
  for (const n of nodes) {
    into.set(n.id, n);
    if (n.kind === 'folder') indexTree(n.children, into);
  }
  return into;
}

/**
 * The endpoints a set of selected ids means, in tree order and each once: a selected endpoint,
 * and every endpoint inside a selected folder (only those matching `search` when one is given,
 * as the tree shows them while searching). Ids no longer in the tree are ignored.
 */
export function selectedEndpoints(
  nodes: readonly TreeNode[],
  ids: Iterable<string>,
  search = '',
): Endpoint[] {
  const index = indexTree(nodes);
  const chosen = new Set<string>();
  for (const id of ids) {
    const node = index.get(id);
    if (!node) continue;
    for (const e of endpointsIn(node))
      if (node.kind === 'endpoint' || matchesSearch(e, search)) chosen.add(e.id);
  }
  const order = nodes.flatMap(endpointsIn);
  return order.filter((e) => chosen.has(e.id));
}
