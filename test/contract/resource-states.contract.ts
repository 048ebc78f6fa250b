import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Resource } from '../../src/core/model/resource.js';
import type { Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

const USERS: Resource = {
  id: 'r1',
  name: 'users',
  path: '/api/users',
  idField: 'id',
  seed: [{ id: 1, name: 'Ada' }],
  revision: 0,
};

/**
 * The ResourceStateStore contract (issue 26): the state a serving process writes behind and the
 * items staged for a revision, per project and resource, seen by another opening of the same
 * data; and a project's resource definitions kept by the project store.
 */
export function resourceStatesContract(impl: StoreImplementation): void {
  describe(`ResourceStateStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('has no state and nothing staged for a resource it never saw', async () => {
      assert.equal(await stores.resourceStates.read('p1', 'r1'), undefined);
      assert.equal(await stores.resourceStates.readStaged('p1', 'r1', 1), undefined);
    });

    it('replaces the written state whole, seen by another opening, each resource and project apart', async () => {
      await stores.resourceStates.write('p1', 'r1', { revision: 0, items: [{ id: 1 }] });
      await stores.resourceStates.write('p1', 'r1', { revision: 2, items: [{ id: 2 }, { id: 3 }] });
      await stores.resourceStates.write('p1', 'r2', { revision: 0, items: [] });
      await stores.resourceStates.write('p2', 'r1', { revision: 5, items: [{ id: 'x' }] });
      const other = again().resourceStates;
      assert.deepEqual(await other.read('p1', 'r1'), { revision: 2, items: [{ id: 2 }, { id: 3 }] });
      assert.deepEqual(await other.read('p1', 'r2'), { revision: 0, items: [] });
      assert.deepEqual(await other.read('p2', 'r1'), { revision: 5, items: [{ id: 'x' }] });
    });

    it('keeps staged items per revision, apart from the written state', async () => {
      await stores.resourceStates.write('p1', 'r1', { revision: 0, items: [{ id: 1 }] });
      await stores.resourceStates.stage('p1', 'r1', 1, [{ id: 7 }]);
      await stores.resourceStates.stage('p1', 'r1', 2, [{ id: 8 }]);
      const other = again().resourceStates;
      assert.deepEqual(await other.readStaged('p1', 'r1', 1), [{ id: 7 }]);
      assert.deepEqual(await other.readStaged('p1', 'r1', 2), [{ id: 8 }]);
      assert.equal(await other.readStaged('p1', 'r1', 3), undefined);
      assert.deepEqual(await other.read('p1', 'r1'), { revision: 0, items: [{ id: 1 }] });
    });

    it('remove forgets one resource (written and staged), removeProject every one of a project', async () => {
      for (const r of ['r1', 'r2']) {
        await stores.resourceStates.write('p1', r, { revision: 1, items: [{ id: 1 }] });
        await stores.resourceStates.stage('p1', r, 1, [{ id: 2 }]);
      }
      await stores.resourceStates.write('p2', 'r1', { revision: 0, items: [] });
      await stores.resourceStates.remove('p1', 'r1');
      assert.equal(await stores.resourceStates.read('p1', 'r1'), undefined);
      assert.equal(await stores.resourceStates.readStaged('p1', 'r1', 1), undefined);
      assert.deepEqual(await stores.resourceStates.readStaged('p1', 'r2', 1), [{ id: 2 }]);
      await stores.resourceStates.removeProject('p1');
      assert.equal(await again().resourceStates.read('p1', 'r2'), undefined);
      assert.equal(await again().resourceStates.readStaged('p1', 'r2', 1), undefined);
      assert.deepEqual(await again().resourceStates.read('p2', 'r1'), { revision: 0, items: [] });
      // Removing what is not there is no error.
      await stores.resourceStates.remove('p3', 'r9');
      await stores.resourceStates.removeProject('p3');
    });

    it('refuses ids that could name another file', async () => {
      await assert.rejects(
        () => stores.resourceStates.write('../x', 'r1', { revision: 0, items: [] }),
        /not a project id/,
      );
      await assert.rejects(() => stores.resourceStates.read('p1', '../../settings'), /not a resource id/);
    });

    it('the project store keeps resource definitions, and a project without any has none', async () => {
      const p = await stores.projects.create(
        {
          schemaVersion: 1,
          id: 'p1',
          name: 'shop',
          description: '',
          port: 4000,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        },
        [],
      );
      assert.deepEqual(p.resources, []);
      await stores.projects.update(p.key, () => ({ resources: [USERS], result: undefined }));
      const [read] = await again().projects.find('shop');
      assert.deepEqual(read!.resources, [USERS]);
      await stores.projects.update(p.key, () => ({ resources: [], result: undefined }));
      assert.deepEqual((await again().projects.find('p1'))[0]!.resources, []);
    });
  });
}
