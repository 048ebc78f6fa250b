import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempContext } from '../../test/helpers/context.js';
import { failure } from '../../test/helpers/failure.js';
import { createProject, deleteProject } from './projects.js';
import {
  addResource,
  getResource,
  listResources,
  removeResource,
  replaceResourceData,
  resetResource,
  resourceData,
  updateResource,
} from './resources.js';

async function shop(t: { after(fn: () => void): void }) {
  const ctx = tempContext(t, 'mockdev-app-resources-');
  const project = await createProject(ctx, { name: 'shop' });
  return { ctx, project };
}

describe('resource use cases', () => {
  it('adds a resource named from its path, lists it with its item count, finds it by name or id', async (t) => {
    const { ctx } = await shop(t);
    const added = await addResource(ctx, 'shop', {
      path: '/api/orgs/{org}/users',
      seed: [
        { id: 1, org: 'a' },
        { id: 1, org: 'b' },
      ],
    });
    assert.equal(added.name, 'users');
    assert.equal(added.idField, 'id');
    assert.equal(added.itemCount, 2);
    const { resources } = await listResources(ctx, 'shop');
    assert.deepEqual(
      resources.map((r) => [r.name, r.itemCount]),
      [['users', 2]],
    );
    assert.equal((await getResource(ctx, 'shop', 'USERS')).id, added.id);
    assert.equal((await getResource(ctx, 'shop', added.id)).name, 'users');
    assert.equal((await failure(getResource(ctx, 'shop', 'nope'))).code, 'NOT_FOUND');
  });

  it('refuses a path ending in a parameter, a taken path or name, and seeds without ids', async (t) => {
    const { ctx } = await shop(t);
    await addResource(ctx, 'shop', { path: '/api/users' });
    const last = await failure(addResource(ctx, 'shop', { path: '/api/users/{id}' }));
    assert.equal(last.code, 'INVALID_ARGUMENT');
    assert.match(last.message, /must end in a literal segment/);
    assert.equal((await failure(addResource(ctx, 'shop', { path: '/api/users/' }))).code, 'CONFLICT');
    assert.equal((await failure(addResource(ctx, 'shop', { path: '/v2/users' }))).code, 'NAME_TAKEN');
    const noId = await failure(addResource(ctx, 'shop', { path: '/a', seed: [{ id: 1 }, { name: 'x' }] }));
    assert.match(noId.message, /item 1 has no "id" field/);
    const dup = await failure(addResource(ctx, 'shop', { path: '/a', seed: [{ id: 1 }, { id: '1' }] }));
    assert.match(dup.message, /items 0 and 1 have the same "id"/);
  });

  it('replaces the data and resets it by staging under the next revision', async (t) => {
    const { ctx, project } = await shop(t);
    const r = await addResource(ctx, 'shop', { path: '/users', seed: [{ id: 1 }] });
    const replaced = await replaceResourceData(ctx, 'shop', 'users', [{ id: 7 }, { id: 8 }]);
    assert.equal(replaced.resource.revision, 1);
    assert.deepEqual((await resourceData(ctx, 'shop', 'users')).items, [{ id: 7 }, { id: 8 }]);
    // The server writes its state under revision 1; a reset goes back to the seed.
    await ctx.resourceStates.write(project.id, r.id, { revision: 1, items: [{ id: 9 }] });
    assert.deepEqual((await resourceData(ctx, 'shop', 'users')).items, [{ id: 9 }]);
    const reset = await resetResource(ctx, 'shop', 'users');
    assert.equal(reset.resource.revision, 2);
    assert.deepEqual((await resourceData(ctx, 'shop', 'users')).items, [{ id: 1 }]);
    const bad = await failure(replaceResourceData(ctx, 'shop', 'users', { id: 1 }));
    assert.equal(bad.code, 'INVALID_ARGUMENT');
  });

  it('updates: a new seed resets the data, a new name keeps it; remove forgets the state', async (t) => {
    const { ctx, project } = await shop(t);
    const r = await addResource(ctx, 'shop', { path: '/users', seed: [{ id: 1 }] });
    await replaceResourceData(ctx, 'shop', 'users', [{ id: 2 }, { id: 3 }]);
    const renamed = await updateResource(ctx, 'shop', 'users', { name: 'people' });
    assert.equal(renamed.itemCount, 2);
    const reseeded = await updateResource(ctx, 'shop', 'people', { seed: [{ key: 'a' }], idField: 'key' });
    assert.equal(reseeded.itemCount, 1);
    assert.equal(reseeded.revision, 2);
    assert.equal((await failure(updateResource(ctx, 'shop', 'people', {}))).code, 'INVALID_ARGUMENT');
    await removeResource(ctx, 'shop', 'people');
    assert.equal(await ctx.resourceStates.readStaged(project.id, r.id, 2), undefined);
    assert.deepEqual((await listResources(ctx, 'shop')).resources, []);
  });

  it('deleting the project deletes its resource state', async (t) => {
    const { ctx, project } = await shop(t);
    const r = await addResource(ctx, 'shop', { path: '/users' });
    await ctx.resourceStates.write(project.id, r.id, { revision: 0, items: [{ id: 1 }] });
    await deleteProject(ctx, 'shop');
    assert.equal(await ctx.resourceStates.read(project.id, r.id), undefined);
  });
});
