import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, Resource } from '../types';
import {
  buildTree,
  compactFolders,
  endpointLabel,
  folderIds,
  matchesSearch,
  relativeLabel,
  relativePath,
  segmentSlot,
  selectedEndpoints,
  type FolderNode,
  type TreeNode,
} from './build-tree';

let n = 0;
const ep = (method: string, path: string, name?: string, extra: Partial<Endpoint> = {}): Endpoint =>
  ({
    id: `e${++n}`,
    name: name ?? `${method.toLowerCase()}-${n}`,
    method,
    path,
    status: 200,
    headers: {},
    body: '',
    contentType: 'application/json',
    delay: 0,
    enabled: true,
    kind: 'mock',
    variations: [],
    ...extra,
  }) as Endpoint;

/** The tree as lines: folders as their names, endpoints as METHOD path, indented by depth. */
function outline(nodes: TreeNode[], depth = 0): string[] {
  return nodes.flatMap((node) =>
    node.kind === 'folder'
      ? [`${'  '.repeat(depth)}${node.name} (${node.id})`, ...outline(node.children, depth + 1)]
      : node.kind === 'resource'
        ? [`${'  '.repeat(depth)}${node.name}`]
        : [`${'  '.repeat(depth)}${node.endpoint.method} ${node.endpoint.path}`],
  );
}

describe('buildTree', () => {
  it('puts a collection and its {id} in the same folder, and deeper paths in folders of their own', () => {
    const tree = buildTree([
      ep('GET', '/api/users/{id}/orders'),
      ep('GET', '/api/users/{id}'),
      ep('GET', '/api/users'),
      ep('GET', '/health'),
      ep('GET', '/'),
    ]);
    assert.deepEqual(outline(tree), [
      'api/ (/api)',
      '  users/ (/api/users)',
      '    {id}/ (/api/users/{id})',
      '      orders/ (/api/users/{id}/orders)',
      '        GET /api/users/{id}/orders',
      '    GET /api/users',
      '    GET /api/users/{id}',
      'health/ (/health)',
      '  GET /health',
      'GET /',
    ]);
  });

  it('treats :id and {id} as the same segment, keeping the spelling seen first for the label', () => {
    const tree = buildTree([
      ep('GET', '/users/:id/posts'),
      ep('PUT', '/users/{id}/posts'),
      ep('GET', '/users/:id'),
    ]);
    assert.deepEqual(outline(tree), [
      'users/ (/users)',
      '  :id/ (/users/{id})',
      '    posts/ (/users/{id}/posts)',
      '      GET /users/:id/posts',
      '      PUT /users/{id}/posts',
      '  GET /users/:id',
    ]);
  });

  it('puts parameters of other names in one place in one folder, named after the first in tree order', () => {
    const tree = buildTree([
      ep('GET', '/users/{userId}/posts'),
      ep('GET', '/users/{id}/orders'),
      ep('DELETE', '/users/:uid/orders'),
      ep('GET', '/files/{name}.json/meta'),
      ep('GET', '/files/{file}.json/size'),
    ]);
    assert.deepEqual(outline(tree), [
      'files/ (/files)',
      '  {file}.json/ (/files/{file}.json)',
      '    meta/ (/files/{file}.json/meta)',
      '      GET /files/{name}.json/meta',
      '    size/ (/files/{file}.json/size)',
      '      GET /files/{file}.json/size',
      'users/ (/users)',
      '  :uid/ (/users/{uid})',
      '    orders/ (/users/{uid}/orders)',
      '      DELETE /users/:uid/orders',
      '      GET /users/{id}/orders',
      '    posts/ (/users/{uid}/posts)',
      '      GET /users/{userId}/posts',
    ]);
    assert.equal(segmentSlot('{userId}'), '{}');
    assert.equal(segmentSlot(':id'), '{}');
    assert.equal(segmentSlot('{name}.json'), '{}.json');
    assert.equal(segmentSlot('users'), 'users');
  });

  it('drops every trailing parameter and a final wildcard, and ignores extra slashes', () => {
    const folderOf = (path: string) => {
      const tree = buildTree([ep('GET', path)]);
      const ids = [...folderIds(tree)].sort((a, b) => b.length - a.length);
      return ids[0] ?? null;
    };
    assert.equal(folderOf('/a/{x}/{y}'), '/a');
    assert.equal(folderOf('/a/:x/:y'), '/a');
    assert.equal(folderOf('/stripe/*'), '/stripe');
    assert.equal(folderOf('/{id}'), null);
    assert.equal(folderOf('/'), null);
    assert.equal(folderOf('/api/users/'), '/api/users');
    assert.equal(folderOf('//api//users'), '/api/users');
    assert.equal(folderOf('/files/{name}.json'), '/files/{name}.json');
  });

  it('sorts folders first, then endpoints by path, then by method GET POST PUT PATCH DELETE HEAD OPTIONS', () => {
    const tree = buildTree([
      ep('OPTIONS', '/b'),
      ep('HEAD', '/b'),
      ep('DELETE', '/b'),
      ep('PATCH', '/b'),
      ep('PUT', '/b'),
      ep('POST', '/b'),
      ep('GET', '/b'),
      ep('GET', '/b/z/x'),
      ep('GET', '/b/a/x'),
      ep('GET', '/b/{id}'),
      ep('GET', '/a'),
    ]);
    assert.deepEqual(outline(tree), [
      'a/ (/a)',
      '  GET /a',
      'b/ (/b)',
      '  a/ (/b/a)',
      '    x/ (/b/a/x)',
      '      GET /b/a/x',
      '  z/ (/b/z)',
      '    x/ (/b/z/x)',
      '      GET /b/z/x',
      '  GET /b',
      '  POST /b',
      '  PUT /b',
      '  PATCH /b',
      '  DELETE /b',
      '  HEAD /b',
      '  OPTIONS /b',
      '  GET /b/{id}',
    ]);
  });

  it('labels endpoints METHOD /path as stored, then the name; lists every folder id', () => {
    const e = ep('GET', '/api/users/{id}', 'Get user');
    assert.equal(endpointLabel(e), 'GET /api/users/{id} Get user');
    const tree = buildTree([e, ep('POST', '/api/orders')]);
    assert.deepEqual([...folderIds(tree)].sort(), ['/api', '/api/orders', '/api/users']);
    assert.deepEqual(buildTree([]), []);
  });
});

describe('rows relative to their folder, and compacted folder chains', () => {
  /** The tree as its rows say it: folders by name, endpoints by their relative label. */
  const rows = (nodes: TreeNode[], depth = 0): string[] =>
    nodes.flatMap((node) =>
      node.kind === 'folder'
        ? [`${'  '.repeat(depth)}${node.name} (${node.id})`, ...rows(node.children, depth + 1)]
        : [`${'  '.repeat(depth)}${node.name}`],
    );

  it('shows the part of the path below the folder: / for the folder itself, /{id} for a parameter', () => {
    assert.equal(relativePath('/api/users'), '/');
    assert.equal(relativePath('/api/users/{id}'), '/{id}');
    assert.equal(relativePath('/api/users/:id/:sub'), '/:id/:sub');
    assert.equal(relativePath('/stripe/*'), '/*');
    assert.equal(relativePath('/'), '/');
    assert.equal(relativePath('/{id}'), '/{id}');
    const e = ep('GET', '/api/users/{id}', 'Get user');
    assert.equal(relativeLabel(e), 'GET /{id} Get user');
    const [api] = buildTree([e]);
    const node = api?.kind === 'folder' ? api.children[0] : undefined;
    const leaf = node?.kind === 'folder' ? node.children[0] : undefined;
    assert.equal(leaf?.kind, 'endpoint');
    if (leaf?.kind === 'endpoint') {
      assert.equal(leaf.name, 'GET /{id} Get user');
      assert.equal(leaf.full, 'GET /api/users/{id} Get user');
      assert.equal(leaf.relativePath, '/{id}');
    }
  });

  it('joins folders holding one folder and nothing else into one row named by the chain, identified as its last folder', () => {
    const tree = compactFolders(
      buildTree([
        ep('GET', '/admin/settings/theme', 'Theme'),
        ep('PUT', '/admin/settings/theme/{id}', 'Set theme'),
        ep('GET', '/api/users', 'Users'),
        ep('GET', '/api/users/{id}/orders', 'Orders'),
        ep('GET', '/api/v1/a/b', 'Deep'),
        ep('GET', '/', 'Root'),
      ]),
    );
    assert.deepEqual(rows(tree), [
      'admin/settings/theme/ (/admin/settings/theme)',
      '  GET / Theme',
      '  PUT /{id} Set theme',
      'api/ (/api)',
      '  users/ (/api/users)',
      '    {id}/orders/ (/api/users/{id}/orders)',
      '      GET / Orders',
      '    GET / Users',
      '  v1/a/b/ (/api/v1/a/b)',
      '    GET / Deep',
      'GET / Root',
    ]);
    // A chain's folders are kept with it (its expanded state covers them).
    const admin = tree[0];
    assert.deepEqual(admin?.kind === 'folder' ? admin.chain : undefined, ['/admin', '/admin/settings']);
    assert.ok(folderIds(tree).has('/admin/settings') && folderIds(tree).has('/api/users/{id}'));
    // A folder with one endpoint stays a folder row; the endpoint selection rules see the same endpoints.
    assert.deepEqual(rows(compactFolders(buildTree([ep('GET', '/health', 'Health')]))), [
      'health/ (/health)',
      '  GET / Health',
    ]);
    assert.deepEqual(
      selectedEndpoints(tree, ['/admin/settings/theme']).map((e) => e.name),
      ['Theme', 'Set theme'],
    );
  });
});

describe('search and selection', () => {
  it('matches path, method or name, case-insensitively', () => {
    const e = ep('PATCH', '/api/Orders/{id}', 'Amend order');
    assert.ok(matchesSearch(e, 'orders'));
    assert.ok(matchesSearch(e, 'patch'));
    assert.ok(matchesSearch(e, 'AMEND'));
    assert.ok(matchesSearch(e, '  '));
    assert.ok(!matchesSearch(e, 'users'));
  });

  it('turns selected ids into endpoints: folders mean their endpoints (matching the search), each once, unknown ids ignored', () => {
    const list = ep('GET', '/api/users', 'List users');
    const one = ep('GET', '/api/users/{id}', 'Get user');
    const orders = ep('GET', '/api/orders', 'List orders');
    const health = ep('GET', '/health');
    const tree = buildTree([list, one, orders, health]);
    const ids = (es: Endpoint[]) => es.map((e) => e.id);
    assert.deepEqual(ids(selectedEndpoints(tree, ['/api/users', one.id, 'gone'])), [list.id, one.id]);
    assert.deepEqual(ids(selectedEndpoints(tree, ['/api', health.id])), [
      orders.id,
      list.id,
      one.id,
      health.id,
    ]);
    assert.deepEqual(ids(selectedEndpoints(tree, ['/api'], 'get user')), [one.id]);
    assert.deepEqual(ids(selectedEndpoints(tree, ['/api', orders.id], 'get user')), [orders.id, one.id]);
    assert.deepEqual(selectedEndpoints(tree, []), []);
  });
});

describe('resources in the tree', () => {
  const resource = (id: string, name: string, path: string) =>
    ({ id, name, path, idField: 'id', seed: [], revision: 0 }) as Resource;

  it('puts each resource as one row in the folder of its collection path, before the endpoints', () => {
    const one = ep('GET', '/api/users/{id}', '');
    const tree = buildTree(
      [one],
      [resource('r1', 'users', '/api/users'), resource('r2', 'members', '/api/orgs/{org}/members')],
    );
    const api = tree[0] as FolderNode;
    assert.equal(api.name, 'api/');
    const [orgs, users] = api.children as FolderNode[];
    assert.equal(users!.name, 'users/');
    assert.deepEqual(
      users!.children.map((n) => [n.kind, n.id, n.name]),
      [
        ['resource', 'resource:r1', 'RES users'],
        ['endpoint', one.id, 'GET /{id}'],
      ],
    );
    const members = ((orgs!.children[0] as FolderNode).children[0] as FolderNode).children[0]!;
    assert.equal(members.kind, 'resource');
    assert.equal(members.kind === 'resource' && members.full, 'Resource members at /api/orgs/{org}/members');
  });

  it('a resource holds no endpoints: deleting its folder deletes only the endpoints', () => {
    const list = ep('GET', '/api/users');
    const tree = buildTree([list], [resource('r1', 'users', '/api/users')]);
    assert.deepEqual(
      selectedEndpoints(tree, ['/api/users', 'resource:r1']).map((e) => e.id),
      [list.id],
    );
    assert.deepEqual(selectedEndpoints(tree, ['resource:r1']), []);
  });
});
