import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MockdevError } from '../core/errors.js';
import { createContext, type AppContext } from './context.js';
import {
  addEndpoint,
  findEndpointByRef,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  setEndpointEnabled,
  updateEndpoint,
} from './endpoints.js';
import {
  createProject,
  deleteProject,
  getProject,
  initProject,
  listProjects,
  resolveProject,
  resolveProjectOrCwd,
  updateProject,
} from './projects.js';

let root: string;
let ctx: AppContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockdev-app-'));
  ctx = createContext({ dataDir: join(root, 'data'), cwd: root });
});
afterEach(() => {
  ctx.close();
  rmSync(root, { recursive: true, force: true });
});

const fails = async (p: Promise<unknown>, code: string, re: RegExp) =>
  assert.rejects(p, (e: unknown) => e instanceof MockdevError && e.code === code && re.test(e.fullMessage));

describe('projects', () => {
  it('creates with defaults, lists, shows by id or name (case-insensitive), updates and deletes', async () => {
    const created = await createProject(ctx, { name: 'Payments', description: 'cards' });
    assert.equal(created.port, 3001);
    assert.match(created.id, /^[A-Za-z0-9][A-Za-z0-9_-]*$/);
    assert.deepEqual(Object.keys(created), [
      'id',
      'name',
      'description',
      'port',
      'createdAt',
      'updatedAt',
      'endpointCount',
      'endpoints',
    ]);
    assert.equal((await getProject(ctx, created.id)).name, 'Payments');
    assert.equal((await getProject(ctx, 'payments')).id, created.id);
    const updated = await updateProject(ctx, 'Payments', { name: 'Billing', port: 4100, description: 'x' });
    assert.deepEqual([updated.name, updated.port, updated.description], ['Billing', 4100, 'x']);
    assert.deepEqual(
      (await listProjects(ctx)).map((p) => p.name),
      ['Billing'],
    );
    await deleteProject(ctx, 'Billing');
    assert.deepEqual(await listProjects(ctx), []);
    await fails(getProject(ctx, 'Billing'), 'PROJECT_NOT_FOUND', /Project "Billing" not found/);
  });

  it('an update that changes nothing is refused, naming the fields', async () => {
    await createProject(ctx, { name: 'p' });
    await fails(
      updateProject(ctx, 'p', {}),
      'INVALID_ARGUMENT',
      /Nothing to update\. Give at least one of name, description, port or tls/,
    );
    await addEndpoint(ctx, 'p', { path: '/a' });
    await fails(
      updateEndpoint(ctx, 'p', 'GET /a', { status: undefined }),
      'INVALID_ARGUMENT',
      /Nothing to update\. Give at least one of name, method, path/,
    );
  });

  it('takes the default port from settings', async () => {
    await ctx.settings.update({ defaultPort: 5050 });
    assert.equal((await createProject(ctx, { name: 'p' })).port, 5050);
  });

  it('gives each new project the next port no project uses, from the default up', async () => {
    const ports = async (...names: string[]) => {
      const out: number[] = [];
      for (const name of names) out.push((await createProject(ctx, { name })).port);
      return out;
    };
    assert.deepEqual(await ports('a', 'b'), [3001, 3002]);
    await createProject(ctx, { name: 'fixed', port: 3003 });
    await updateProject(ctx, 'a', { port: 3099 }); // frees 3001
    assert.deepEqual(await ports('c', 'd'), [3001, 3004]);
    await deleteProject(ctx, 'd');
    assert.deepEqual(await ports('e'), [3004], 'a deleted project frees its port');
    await initProject(ctx, { path: 'folder', port: 3005 });
    assert.deepEqual(await ports('h'), [3006], 'a folder project holds its port too');
    await ctx.settings.update({ defaultPort: 3098 });
    assert.deepEqual(await ports('f', 'g'), [3098, 3101], '3099 is taken and 3100 is the MCP default');
  });

  it('refuses duplicate names, naming the existing project', async () => {
    const a = await createProject(ctx, { name: 'Alpha' });
    await fails(
      createProject(ctx, { name: 'alpha' }),
      'NAME_TAKEN',
      new RegExp(`"Alpha" already exists \\(id ${a.id}\\)`),
    );
    await createProject(ctx, { name: 'Beta' });
    await fails(updateProject(ctx, 'Beta', { name: 'ALPHA' }), 'NAME_TAKEN', /already exists/);
  });

  it('two concurrent creates of one name leave exactly one project', async () => {
    const results = await Promise.allSettled([
      createProject(ctx, { name: 'Same' }),
      createProject(ctx, { name: 'Same' }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    assert.equal((await listProjects(ctx)).length, 1);
  });

  for (const [name, re] of [
    ['../x', /must not contain "\/"/],
    ['a/b', /must not contain "\/"/],
    ['a\\b', /must not contain/],
    ['nul\u0000', /control characters/],
    ['', /must not be empty/],
    ['..', /must not contain|must not be/],
  ] as const) {
    it(`rejects the project name ${JSON.stringify(name)}`, async () => {
      await fails(createProject(ctx, { name }), 'INVALID_ARGUMENT', re);
    });
  }

  for (const port of [80, 1023, 65536, 3001.5, Number.NaN]) {
    it(`rejects port ${port}`, async () => {
      await fails(createProject(ctx, { name: 'p', port }), 'INVALID_ARGUMENT', /port/);
    });
  }

  it('init writes a project folder that resolves by path, with the four example endpoints', async () => {
    const made = await initProject(ctx, { path: 'demo', withExamples: true });
    assert.equal(made.name, 'demo');
    assert.deepEqual(
      made.endpoints.map((e) => `${e.method} ${e.path}`),
      ['GET /api/users', 'GET /api/users/:id', 'POST /api/users', 'GET /health'],
    );
    for (const e of made.endpoints) assert.doesNotThrow(() => JSON.parse(e.body));
    assert.equal((await resolveProject(ctx, './demo')).project.id, made.id);
    assert.equal((await resolveProject(ctx, join(root, 'demo'))).project.id, made.id);
    await fails(initProject(ctx, { path: 'demo' }), 'CONFLICT', /already exists.*force/);
    const again = await initProject(ctx, { path: 'demo', force: true, name: 'Demo 2', port: 4000 });
    assert.deepEqual([again.name, again.port, again.endpointCount], ['Demo 2', 4000, 0]);
  });

  it('the data-dir-only rule hides project folders elsewhere', async () => {
    await initProject(ctx, { path: 'outside' });
    await fails(
      resolveProject(ctx, './outside', { dataDirOnly: true }),
      'PROJECT_NOT_FOUND',
      /List the projects to see the project ids and names/,
    );
  });

  it('a project folder made by init is reached by its id and name too, and listed with its folder', async () => {
    const made = await initProject(ctx, { path: 'reachable', name: 'Reachable' });
    for (const ref of [made.id, 'Reachable', 'reachable'])
      assert.equal((await resolveProject(ctx, ref)).location, join(root, 'reachable'), ref);
    const managed = await createProject(ctx, { name: 'Managed' });
    assert.deepEqual(
      (await listProjects(ctx)).map((p) => [p.name, p.dir]),
      [
        ['Reachable', join(root, 'reachable')],
        ['Managed', undefined],
      ],
    );
    assert.deepEqual(
      (await listProjects(ctx, { dataDirOnly: true })).map((p) => p.id),
      [managed.id],
    );
  });

  it('a name a managed project and a project folder share is ambiguous: the error names both and says what to give', async () => {
    const managed = await createProject(ctx, { name: 'Twin' });
    const folder = await initProject(ctx, { path: 'twin', name: 'Twin' });
    await fails(
      resolveProject(ctx, 'twin'),
      'INVALID_ARGUMENT',
      new RegExp(
        `^Project name "twin" is ambiguous: 2 projects have it \\(${managed.id} in the data directory, ${folder.id} in ${join(root, 'twin')}\\)\\. Give the id of the one you mean instead, or its folder$`,
      ),
    );
    assert.equal((await resolveProject(ctx, managed.id)).managed, true);
    assert.equal((await resolveProject(ctx, folder.id)).managed, false);
    assert.equal((await resolveProject(ctx, './twin')).project.id, folder.id);
    // The MCP server sees only the data directory's: no ambiguity there.
    assert.equal((await resolveProject(ctx, 'Twin', { dataDirOnly: true })).project.id, managed.id);
  });

  it('a copied project folder has the same id: the error says to give the folder', async () => {
    const original = await initProject(ctx, { path: 'original' });
    cpSync(join(root, 'original'), join(root, 'copy'), { recursive: true });
    await resolveProject(ctx, './copy');
    await fails(
      resolveProject(ctx, original.id),
      'INVALID_ARGUMENT',
      /^Project id "[\w-]+" is ambiguous: 2 projects have it \(in .*(original|copy), in .*(original|copy); a copied project folder keeps its id\)\. Give the folder of the one you mean instead$/,
    );
  });

  it('with no project given, the project of the working folder; none there is an invalid argument saying what to give', async () => {
    const here = await initProject(ctx, { path: '.', name: 'Here' });
    assert.equal((await resolveProjectOrCwd(ctx, undefined)).project.id, here.id);
    assert.equal((await listEndpoints(ctx, undefined)).length, 0);
    const elsewhere = { ...ctx, cwd: join(root, 'data') };
    await fails(
      resolveProjectOrCwd(elsewhere, undefined, { command: 'list endpoints' }),
      'INVALID_ARGUMENT',
      /^"list endpoints" needs a project: none was given, and .*data holds no project\.json\. Give a project id, name or folder, or run it in a folder that holds project\.json$/,
    );
  });

  it('a corrupt project in the data dir is reported (exit 1, naming the file) whether asked for by id, name or folder', async () => {
    const p = await createProject(ctx, { name: 'Fragile' });
    const folder = join(ctx.dataDir, 'projects', p.id);
    writeFileSync(join(folder, 'endpoints.json'), 'not json');
    for (const ref of [p.id, 'Fragile', 'fragile', folder])
      await fails(getProject(ctx, ref), 'CORRUPT_FILE', /endpoints\.json is not valid JSON/);
    await fails(listEndpoints(ctx, 'Fragile'), 'CORRUPT_FILE', /endpoints\.json/);
  });
});

describe('endpoints', () => {
  it('adds with the documented defaults and a generated name', async () => {
    await createProject(ctx, { name: 'p' });
    const e = await addEndpoint(ctx, 'p', { path: 'api/v1/users/:id' });
    assert.deepEqual(
      {
        method: e.method,
        path: e.path,
        status: e.status,
        delay: e.delay,
        enabled: e.enabled,
        kind: e.kind,
        contentType: e.contentType,
        name: e.name,
      },
      {
        method: 'GET',
        path: '/api/v1/users/:id',
        status: 200,
        delay: 0,
        enabled: true,
        kind: 'mock',
        contentType: 'application/json',
        name: 'get-users-by-id',
      },
    );
    const second = await addEndpoint(ctx, 'p', { path: '/api/v1/users/{id}', method: 'put' });
    assert.equal(second.method, 'PUT');
  });

  it('refuses a duplicate method + path, whatever the parameter style, naming the existing one', async () => {
    await createProject(ctx, { name: 'p' });
    const first = await addEndpoint(ctx, 'p', { path: '/users/:id', name: 'Get user' });
    await fails(
      addEndpoint(ctx, 'p', { path: '/users/{userId}/' }),
      'CONFLICT',
      new RegExp(`"Get user".*id ${first.id}`),
    );
  });

  for (const [input, re] of [
    [{ path: '/x', method: 'FETCH' }, /Invalid method "FETCH"/],
    [{ path: '/x', status: 99 }, /Invalid status 99/],
    [{ path: '/x', status: 600 }, /Invalid status 600/],
    [{ path: '/x', delay: -1 }, /Invalid delay -1/],
    [{ path: '/a b' }, /Invalid path/],
    [{ path: '/x?y=1' }, /query string/],
    [{ path: '/x', name: 'a/b' }, /Invalid name/],
  ] as const) {
    it(`rejects ${JSON.stringify(input)}`, async () => {
      await createProject(ctx, { name: 'p' });
      await fails(addEndpoint(ctx, 'p', input as never), 'INVALID_ARGUMENT', re);
    });
  }

  it('finds by id, name, and "METHOD /path"; updates, toggles and removes', async () => {
    await createProject(ctx, { name: 'p' });
    const e = await addEndpoint(ctx, 'p', { path: '/users/:id', name: 'Get user', body: '{}' });
    assert.equal((await getEndpoint(ctx, 'p', e.id)).id, e.id);
    assert.equal((await getEndpoint(ctx, 'p', 'get user')).id, e.id);
    assert.equal((await getEndpoint(ctx, 'p', 'GET /users/{id}')).id, e.id);
    const changed = await updateEndpoint(ctx, 'p', 'Get user', { status: 404, headers: { 'X-A': '1' } });
    assert.deepEqual(
      [changed.id, changed.status, changed.headers, changed.body],
      [e.id, 404, { 'X-A': '1' }, '{}'],
    );
    assert.equal((await setEndpointEnabled(ctx, 'p', e.id, false)).enabled, false);
    assert.deepEqual(await listEndpoints(ctx, 'p', { enabledOnly: true }), []);
    assert.equal((await listEndpoints(ctx, 'p')).length, 1);
    await removeEndpoint(ctx, 'p', e.id);
    await fails(getEndpoint(ctx, 'p', e.id), 'NOT_FOUND', /not found in project "p"/);
  });

  it('update refuses to move onto a taken route or name, and leaves the file as it was', async () => {
    await createProject(ctx, { name: 'p' });
    await addEndpoint(ctx, 'p', { path: '/a', name: 'A' });
    await addEndpoint(ctx, 'p', { path: '/b', name: 'B' });
    await fails(updateEndpoint(ctx, 'p', 'B', { path: '/a' }), 'CONFLICT', /clashes with endpoint "A"/);
    await fails(updateEndpoint(ctx, 'p', 'B', { name: 'a' }), 'NAME_TAKEN', /named "a" already exists/);
    assert.deepEqual(
      (await listEndpoints(ctx, 'p')).map((e) => `${e.name} ${e.path}`),
      ['A /a', 'B /b'],
    );
  });

  it('refuses an active variation that does not exist, and a proxy without a target', async () => {
    await createProject(ctx, { name: 'p' });
    await addEndpoint(ctx, 'p', { path: '/a', name: 'A' });
    await fails(
      updateEndpoint(ctx, 'p', 'A', { activeVariationId: 'nope' }),
      'INVALID_ARGUMENT',
      /Variation "nope" does not exist/,
    );
    await fails(updateEndpoint(ctx, 'p', 'A', { kind: 'proxy' }), 'INVALID_ARGUMENT', /proxy target/);
    const v = await updateEndpoint(ctx, 'p', 'A', {
      variations: [{ id: 'v1', name: 'Not found', status: 404 }],
      activeVariationId: 'v1',
    });
    assert.equal(v.variations[0]!.body, undefined, "no body given: the endpoint's");
    assert.equal(
      (await updateEndpoint(ctx, 'p', 'A', { activeVariationId: null })).activeVariationId,
      undefined,
    );
  });

  it('twenty concurrent adds to one project all land', async () => {
    await createProject(ctx, { name: 'p' });
    await Promise.all(Array.from({ length: 20 }, (_, i) => addEndpoint(ctx, 'p', { path: `/r${i}` })));
    const state = await resolveProject(ctx, 'p');
    assert.equal(state.endpoints.length, 20);
    assert.equal(findEndpointByRef(state, 'GET /r7').path, '/r7');
  });
});
