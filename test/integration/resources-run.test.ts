import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { startServer } from '../../src/app/server.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { tempContext } from '../helpers/context.js';
import { call, setResources } from '../helpers/resources.js';
import { waitUntil } from '../helpers/wait.js';

const USERS = {
  id: 'res_users',
  name: 'users',
  path: '/api/users',
  seed: [
    { id: 1, name: 'Ada', role: 'admin' },
    { id: 2, name: 'Grace', role: 'user' },
    { id: 3, name: 'Linus', role: 'admin' },
  ],
};

/** A served project "Shop" with the users resource. */
async function served(t: AfterHook, resources: Parameters<typeof setResources>[2] = () => [USERS]) {
  const ctx = tempContext(t, 'mockdev-resources-');
  const project = await createProject(ctx, { name: 'Shop' });
  await setResources(ctx, 'Shop', resources);
  const server = await startServer(ctx, { project: 'Shop', port: 0 });
  t.after(() => server.stop());
  return { ctx, project, server, url: server.url };
}

const problem = (a: { status: number; headers: Record<string, unknown>; json: unknown }) => ({
  status: a.status,
  type: String(a.headers['content-type']),
  detail: (a.json as { detail?: string }).detail ?? '',
});

describe('resources at run time (over HTTP)', () => {
  it('every CRUD operation, with its errors, and every request logged under the resource', async (t: AfterHook) => {
    const { ctx, project, url } = await served(t);
    const list = await call(url, 'GET', '/api/users');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json, USERS.seed);
    assert.equal(list.headers['x-total-count'], '3');
    assert.deepEqual((await call(url, 'GET', '/api/users/2')).json, USERS.seed[1]);
    assert.equal((await call(url, 'GET', '/api/users/9')).status, 404);

    const head = await call(url, 'HEAD', '/api/users');
    assert.deepEqual([head.status, head.body, head.headers['x-total-count']], [200, '', '3']);
    const created = await call(url, 'POST', '/api/users', { name: 'Barbara' });
    assert.deepEqual([created.status, created.json], [201, { id: 4, name: 'Barbara' }]);
    assert.equal(created.headers.location, '/api/users/4');
    const given = await call(url, 'POST', '/api/users', { id: 40, name: 'Edsger' });
    assert.deepEqual([given.status, given.json], [201, { id: 40, name: 'Edsger' }]);
    const taken = await call(url, 'POST', '/api/users', { id: 40, name: 'again' });
    assert.equal(taken.status, 409);
    assert.equal(taken.headers['content-type'], 'application/problem+json');
    for (const bad of ['[1,2]', 'not json', '"text"', 'null']) {
      const p = problem(await call(url, 'POST', '/api/users', bad));
      assert.deepEqual([p.status, p.type], [400, 'application/problem+json'], bad);
      assert.match(p.detail, /must be a JSON object/, bad);
    }
    assert.equal(problem(await call(url, 'POST', '/api/users')).status, 400);

    const put = await call(url, 'PUT', '/api/users/2', { id: 77, name: 'Grace Hopper' });
    assert.deepEqual([put.status, put.json], [200, { id: 2, name: 'Grace Hopper' }]);
    assert.equal((await call(url, 'PUT', '/api/users/99', { name: 'x' })).status, 404);
    assert.equal(problem(await call(url, 'PUT', '/api/users/2', '[]')).status, 400);

    const patched = await call(url, 'PATCH', '/api/users/1', { role: null, team: { lead: true } });
    assert.deepEqual([patched.status, patched.json], [200, { id: 1, name: 'Ada', team: { lead: true } }]);
    assert.equal((await call(url, 'PATCH', '/api/users/99', {})).status, 404);
    assert.equal(problem(await call(url, 'PATCH', '/api/users/1', '5')).status, 400);

    const deleted = await call(url, 'DELETE', '/api/users/3');
    assert.deepEqual([deleted.status, deleted.body], [204, '']);
    assert.equal((await call(url, 'DELETE', '/api/users/3')).status, 404);
    assert.equal((await call(url, 'GET', '/api/users/3')).status, 404);
    assert.deepEqual(
      ((await call(url, 'GET', '/api/users')).json as { id: number }[]).map((u) => u.id),
      [1, 2, 4, 40],
    );

    const records = await waitUntil(async () => {
      const r = await ctx.requests.list(project.id, parseRequestFilters({ limit: 100 }));
      return r.length >= 22 && r;
    }, 'the requests to be logged');
    assert.equal(records.length, 22);
    assert.ok(records.every((r) => r.endpointId === USERS.id));
    assert.ok(records.some((r) => r.method === 'DELETE' && r.status === 404));
  });

  it('filters by top-level fields, pages with limit and offset, refuses bad paging with a 400', async (t: AfterHook) => {
    const { url } = await served(t);
    const admins = await call(url, 'GET', '/api/users?role=admin');
    assert.deepEqual(
      (admins.json as { name: string }[]).map((u) => u.name),
      ['Ada', 'Linus'],
    );
    assert.equal(admins.headers['x-total-count'], '2');
    assert.deepEqual((await call(url, 'GET', '/api/users?id=2')).json, [USERS.seed[1]]);
    const page = await call(url, 'GET', '/api/users?limit=1&offset=1');
    assert.deepEqual([page.json, page.headers['x-total-count']], [[USERS.seed[1]], '3']);
    assert.deepEqual((await call(url, 'GET', '/api/users?role=nobody')).json, []);
    const bad = problem(await call(url, 'GET', '/api/users?limit=-2'));
    assert.equal(bad.status, 400);
    assert.match(bad.detail, /limit=.*not a whole number/);
    assert.equal((await call(url, 'GET', '/api/users?offset=x')).status, 400);
  });

  it('ids that are not numeric: a new item gets a UUID', async (t: AfterHook) => {
    const { url } = await served(t, () => [
      { id: 'res_tags', name: 'tags', path: '/tags', idField: 'slug', seed: [{ slug: 'red' }] },
    ]);
    const created = await call(url, 'POST', '/tags', { label: 'x' });
    assert.equal(created.status, 201);
    const slug = (created.json as { slug: string }).slug;
    assert.match(slug, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(created.headers.location, `/tags/${slug}`);
    assert.deepEqual((await call(url, 'GET', '/tags/red')).json, { slug: 'red' });
  });

  it('parameters before the collection are part of the key: items of one org are not seen under another', async (t: AfterHook) => {
    const { url } = await served(t, () => [
      { id: 'res_members', name: 'members', path: '/orgs/{org}/members' },
    ]);
    const a = await call(url, 'POST', '/orgs/acme/members', { name: 'Ada', org: 'other' });
    assert.deepEqual([a.status, a.json], [201, { id: 1, name: 'Ada', org: 'acme' }]);
    assert.equal(a.headers.location, '/orgs/acme/members/1');
    assert.deepEqual((await call(url, 'POST', '/orgs/globex/members', { id: 1, name: 'Bob' })).status, 201);
    assert.deepEqual((await call(url, 'GET', '/orgs/acme/members')).json, [
      { id: 1, name: 'Ada', org: 'acme' },
    ]);
    assert.deepEqual((await call(url, 'GET', '/orgs/globex/members/1')).json, {
      id: 1,
      name: 'Bob',
      org: 'globex',
    });
    assert.equal((await call(url, 'GET', '/orgs/initech/members/1')).status, 404);
    assert.equal((await call(url, 'DELETE', '/orgs/initech/members/1')).status, 404);
    assert.equal((await call(url, 'DELETE', '/orgs/acme/members/1')).status, 204);
    assert.equal((await call(url, 'GET', '/orgs/globex/members/1')).status, 200);
  });

  it('an endpoint with the same method and path beats the resource operation; the others stay', async (t: AfterHook) => {
    const { ctx, url } = await served(t);
    await addEndpoint(ctx, 'Shop', { method: 'GET', path: '/api/users/{userId}', body: '{"hand":"made"}' });
    assert.deepEqual((await call(url, 'GET', '/api/users/1')).json, { hand: 'made' });
    assert.equal((await call(url, 'GET', '/api/users')).status, 200);
    assert.equal((await call(url, 'DELETE', '/api/users/1')).status, 204);
    assert.equal((await call(url, 'GET', '/api/users')).headers['x-total-count'], '2');
  });

  it('templates read resources: resource, resourceItem, data, dataRaw; setData changes one', async (t: AfterHook) => {
    const { ctx, url } = await served(t);
    await addEndpoint(ctx, 'Shop', {
      method: 'GET',
      path: '/people/{id}',
      body: `{"one":{{resourceItem 'users' params.id}},"name":"{{data 'users' '0.name'}}","all":{{resource 'users'}},"names":"{{#each (resource 'Users')}}{{name}};{{/each}}","second":{{dataRaw 'users' '1'}}}`,
    });
    await addEndpoint(ctx, 'Shop', {
      method: 'GET',
      path: '/missing/{id}',
      body: `{{json (resourceItem 'users' params.id)}}`,
    });
    await addEndpoint(ctx, 'Shop', {
      method: 'POST',
      path: '/signup',
      status: 201,
      body: `{{setData 'push' 'users' '' body}}{"count":"{{len (resource 'users')}}"}`,
    });
    const one = await call(url, 'GET', '/people/3');
    assert.equal(one.status, 200, one.body);
    assert.deepEqual(one.json, {
      one: USERS.seed[2],
      name: 'Ada',
      all: USERS.seed,
      names: 'Ada;Grace;Linus;',
      second: USERS.seed[1],
    });
    assert.equal((await call(url, 'GET', '/missing/42')).body, 'null');
    await addEndpoint(ctx, 'Shop', { method: 'GET', path: '/context', body: '[{{resources}}]' });
    assert.equal(
      (await call(url, 'GET', '/context')).body,
      '[]',
      'the resources are no field of the context',
    );
    const signup = await call(url, 'POST', '/signup', { name: 'Margaret' });
    assert.equal(signup.status, 201, signup.body);
    assert.deepEqual((await call(url, 'GET', '/api/users/4')).json, { name: 'Margaret', id: 4 });
  });

  it("Mockoon's global variables: one request sets, later ones read, until the server stops", async (t: AfterHook) => {
    const { ctx, url } = await served(t, () => []);
    await addEndpoint(ctx, 'Shop', {
      method: 'POST',
      path: '/login',
      body: `{{setGlobalVar 'user' body}}{{#if (getGlobalVar 'logins')}}{{setGlobalVar 'logins' (add (getGlobalVar 'logins') 1)}}{{else}}{{setGlobalVar 'logins' 1}}{{/if}}{"ok":true}`,
    });
    await addEndpoint(ctx, 'Shop', {
      method: 'GET',
      path: '/me',
      body: `{"name":"{{getGlobalVar 'user' 'name'}}","logins":{{getGlobalVar 'logins'}}}`,
    });
    assert.equal((await call(url, 'POST', '/login', { name: 'Ada' })).status, 200);
    assert.equal((await call(url, 'POST', '/login', { name: 'Grace' })).status, 200);
    const me = await call(url, 'GET', '/me');
    assert.equal(me.status, 200, me.body);
    assert.deepEqual(me.json, { name: 'Grace', logins: 2 }, me.body);
  });

  it('the state is written behind and survives a restart; a revision bump resets it, a staged one replaces it', async (t: AfterHook) => {
    const { ctx, project, server, url } = await served(t);
    assert.equal((await call(url, 'POST', '/api/users', { name: 'Kept' })).status, 201);
    // Written behind without a stop: the data directory has it soon.
    await waitUntil(
      async () => (await ctx.resourceStates.read(project.id, USERS.id))?.items.length === 4,
      'the state to be written behind',
    );
    assert.equal((await call(url, 'DELETE', '/api/users/1')).status, 204);
    await server.stop();
    const again = await startServer(ctx, { project: 'Shop', port: 0 });
    t.after(() => again.stop());
    const names = async () =>
      ((await call(again.url, 'GET', '/api/users')).json as { name: string }[]).map((u) => u.name);
    assert.deepEqual(await names(), ['Grace', 'Linus', 'Kept']);

    // A reset: the definition's revision bumped, nothing staged -> the seed, without a restart.
    await setResources(ctx, 'Shop', (rs) => rs.map((r) => ({ ...r, revision: r.revision + 1 })));
    assert.deepEqual(await names(), ['Ada', 'Grace', 'Linus']);
    // A replacement: items staged for the next revision, then the bump.
    await ctx.resourceStates.stage(project.id, USERS.id, 2, [{ id: 'x', name: 'Staged' }]);
    await setResources(ctx, 'Shop', (rs) => rs.map((r) => ({ ...r, revision: 2 })));
    assert.deepEqual(await names(), ['Staged']);
    await again.stop();
    assert.deepEqual(await ctx.resourceStates.read(project.id, USERS.id), {
      revision: 2,
      items: [{ id: 'x', name: 'Staged' }],
    });
  });

  it('a resource added while the server runs is served; 50 concurrent POSTs are all kept', async (t: AfterHook) => {
    const { ctx, project, server, url } = await served(t, () => []);
    assert.equal((await call(url, 'GET', '/api/users')).status, 404);
    await setResources(ctx, 'Shop', () => [{ ...USERS, seed: [] }]);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(url, 'POST', '/api/users', { name: `u${i}` })),
    );
    assert.ok(answers.every((a) => a.status === 201));
    const ids = answers.map((a) => (a.json as { id: number }).id).sort((x, y) => x - y);
    assert.deepEqual(
      ids,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.equal((await call(url, 'GET', '/api/users')).headers['x-total-count'], '50');
    await server.stop();
    assert.equal((await ctx.resourceStates.read(project.id, USERS.id))?.items.length, 50);
  });
});
