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
 *
 * A row says only what its folder does not: an endpoint shows the part of its path below its
 * folder (`/` for `/api/users` in `users/`, `/{id}` for `/api/users/{id}`), as a router mounted
 * at the folder's prefix would write it; its full path is in `full`. `compactFolders` then joins
 * chains of folders that hold one folder and nothing else into one row (`admin/settings/theme/`),
 * as code editors do.
 */
import { HTTP_METHODS } from '../../../src/core/model/limits';
import type { Endpoint, Resource } from '../types';

export interface FolderNode {
  kind: 'folder';
  /** The folder's path prefix: `/api/users` (a compacted chain's: its last folder's). */
  id: string;
  /** What the row shows and its accessible name: the segment with a slash, `users/` (a compacted chain: `admin/settings/theme/`). */
  name: string;
  children: TreeNode[];
  /** A compacted chain's other folders, outermost first (`/admin`, `/admin/settings`): open when it is. */
  chain?: string[];
}

export interface EndpointNode {
  kind: 'endpoint';
  /** The endpoint's id. */
  id: string;
  /** What the row says and its accessible name: `GET /{id} Get user` (the path below its folder). */
  name: string;
  /** The path below its folder: `/{id}`, `/` for the folder's own path. */
  relativePath: string;
  /** The whole of it: `GET /api/users/{id} Get user`. */
  full: string;
  endpoint: Endpoint;
}

/** A resource (docs/resources.md): one row in the folder of its collection path. */
export interface ResourceNode {
  kind: 'resource';
  /** `resource:<resource id>` (never an endpoint's id). */
  id: string;
  /** What the row says and its accessible name: `RES users` (its tooltip says the rest). */
  name: string;
  /** The whole of it: `Resource users at /api/users`. */
  full: string;
  resource: Resource;
}

export type TreeNode = FolderNode | EndpointNode | ResourceNode;

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

/** The part of a path below its folder (its trailing parameters), with a leading slash: `/{id}`, `/`. */
export function relativePath(path: string): string {
  const segments = pathSegments(path);
  return `/${segments.slice(folderSegments(path).length).join('/')}`;
}

/** What a row says for an endpoint: `METHOD /path-below-its-folder`, then its name. */
export function relativeLabel(e: Endpoint): string {
  const rel = relativePath(e.path);
  return e.name ? `${e.method} ${rel} ${e.name}` : `${e.method} ${rel}`;
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

/** Whether a resource matches a search (its name or path; case-insensitive). An empty one matches all. */
export function resourceMatchesSearch(r: Resource, term: string): boolean {
  const t = term.trim().toLowerCase();
  return !t || r.path.toLowerCase().includes(t) || r.name.toLowerCase().includes(t);
}

/** A resource's row id in the tree. */
export const resourceNodeId = (resourceId: string): string => `resource:${resourceId}`;

interface Draft {
  folder: FolderNode;
  folders: Map<string, Draft>;
  endpoints: EndpointNode[];
  resources: ResourceNode[];
}

const draft = (id: string, name: string): Draft => ({
  folder: { kind: 'folder', id, name, children: [] },
  folders: new Map(),
  endpoints: [],
  resources: [],
});

function finish(d: Draft): TreeNode[] {
  const folders = [...d.folders.values()].sort((a, b) => compare(a.folder.id, b.folder.id));
  return [
    ...folders.map((f) => {
      f.folder.children = finish(f);
      return f.folder;
    }),
    ...d.resources,
    ...d.endpoints,
  ];
}

/** The folder a path sits in, made with the folders above it when missing. */
function folderOf(root: Draft, path: string): Draft {
  let at = root;
  for (const segment of folderSegments(path)) {
    const slot = segmentSlot(segment);
    let next = at.folders.get(slot);
    if (!next) {
      const id = `${at === root ? '' : at.folder.id}/${normalizeSegment(segment)}`;
      at.folders.set(slot, (next = draft(id, `${segment}/`)));
    }
    at = next;
  }
  return at;
}

/**
 * The tree of an endpoint list (see the top of this file), and of the project's resources: each
 * one row in the folder of its collection path (`/api/users` in `api/` → `users/`, beside the
 * endpoints there), before the endpoints, by name.
 */
export function buildTree(endpoints: readonly Endpoint[], resources: readonly Resource[] = []): TreeNode[] {
  const root = draft('/', '/');
  for (const r of [...resources].sort((a, b) => compare(a.name, b.name)))
    folderOf(root, r.path).resources.push({
      kind: 'resource',
      id: resourceNodeId(r.id),
      name: `RES ${r.name}`,
      full: `Resource ${r.name} at ${r.path}`,
      resource: r,
    });
  for (const e of [...endpoints].sort(compareEndpoints)) {
    const at = folderOf(root, e.path);
    at.endpoints.push({
      kind: 'endpoint',
      id: e.id,
      name: relativeLabel(e),
      relativePath: relativePath(e.path),
      full: endpointLabel(e),
      endpoint: e,
    });
  }
  return finish(root);
}

/**
 * The tree with each chain of folders holding one folder and nothing else joined into one row:
 * `admin/` → `settings/` → `theme/` becomes `admin/settings/theme/`, identified as its last
 * folder (`/admin/settings/theme`), the one whose endpoints it shows.
 */
export function compactFolders(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.map((n) => {
    if (n.kind !== 'folder') return n;
    let folder = n;
    let name = n.name;
    const chain: string[] = [];
    let only = folder.children[0];
    while (folder.children.length === 1 && only?.kind === 'folder') {
      chain.push(folder.id);
      folder = only;
      name += folder.name;
      only = folder.children[0];
    }
    const children = compactFolders(folder.children);
    return chain.length
      ? { kind: 'folder', id: folder.id, name, children, chain }
      : { kind: 'folder', id: folder.id, name, children };
  });
}

/** Every folder id of a tree (a compacted chain's too). */
export function folderIds(nodes: readonly TreeNode[], into: Set<string> = new Set()): Set<string> {
  for (const n of nodes)
    if (n.kind === 'folder') {
      for (const id of n.chain ?? []) into.add(id);
      into.add(n.id);
      folderIds(n.children, into);
    }
  return into;
}

/** Every endpoint inside a node (itself for an endpoint; none for a resource), in tree order. */
export function endpointsIn(node: TreeNode): Endpoint[] {
  if (node.kind === 'resource') return [];
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
