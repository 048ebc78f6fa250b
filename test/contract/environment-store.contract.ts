import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Environment } from '../../src/core/model/environment.js';
import type { Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

const env = (
  id: string,
  name: string,
  projectId: string | null,
  extra: Partial<Environment> = {},
): Environment => ({
  id,
  name,
  projectId,
  variables: {},
  secretKeys: [],
  createdAt: `2026-01-01T00:00:0${id.length % 10}.000Z`,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** The EnvironmentStore contract. */
export function environmentStoreContract(impl: StoreImplementation): void {
  describe(`EnvironmentStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('stores environments with their secrets, seen by other handles; unknown ids are undefined', async () => {
      assert.deepEqual(await stores.environments.list(), []);
      assert.equal(await stores.environments.get('nope'), undefined);
      const dev = env('e1', 'dev', 'p1', {
        variables: { HOST: 'a=b,c', TOKEN: 's3cret' },
        secretKeys: ['TOKEN'],
      });
      await stores.environments.create(dev);
      await stores.environments.create(env('e22', 'shared', null, { variables: { X: '1' } }));
      assert.deepEqual(await again().environments.get('e1'), dev);
      assert.deepEqual(
        (await stores.environments.list()).map((e) => e.id),
        ['e1', 'e22'],
      );
      assert.deepEqual(
        (await stores.environments.list({ projectIds: ['p2'] })).map((e) => e.id),
        ['e22'],
      );
    });

    it('keeps names unique per scope, case-insensitively', async () => {
      await stores.environments.create(env('e1', 'dev', 'p1'));
      await assert.rejects(stores.environments.create(env('e2', 'DEV', 'p1')), { code: 'NAME_TAKEN' });
      await stores.environments.create(env('e3', 'dev', 'p2'));
      await stores.environments.create(env('e4', 'dev', null));
      await assert.rejects(stores.environments.create(env('e5', 'Dev', null)), { code: 'NAME_TAKEN' });
      await stores.environments.create(env('e6', 'prod', 'p1'));
      await assert.rejects(
        stores.environments.update('e6', (c) => ({ ...c, name: 'dev' })),
        { code: 'NAME_TAKEN' },
      );
    });

    it('updates by read-modify-write (secrets may become plain and back), keeping id and scope', async () => {
      await stores.environments.create(env('e1', 'dev', 'p1', { variables: { A: '1' }, secretKeys: ['A'] }));
      const updated = await stores.environments.update('e1', (c) => ({
        ...c,
        id: 'other',
        projectId: null,
        name: 'dev2',
        variables: { ...c.variables, B: '2' },
        secretKeys: [],
      }));
      assert.equal(updated.id, 'e1');
      assert.equal(updated.projectId, 'p1');
      assert.deepEqual(await again().environments.get('e1'), updated);
      assert.deepEqual(updated.variables, { A: '1', B: '2' });
      await assert.rejects(
        stores.environments.update('gone', (c) => c),
        { code: 'NOT_FOUND' },
      );
    });

    it('records what is active per project; removing an environment or a project clears it', async () => {
      await stores.environments.create(env('e1', 'dev', 'p1'));
      await stores.environments.create(env('e2', 'shared', null));
      await stores.environments.create(env('e3', 'other', 'p2'));
      assert.deepEqual(await stores.environments.getActive('p1'), { project: null, global: null });
      await stores.environments.setActive('p1', { project: 'e1', global: 'e2' });
      await stores.environments.setActive('p2', { project: 'e3', global: 'e2' });
      assert.deepEqual(await again().environments.getActive('p1'), { project: 'e1', global: 'e2' });
      await assert.rejects(stores.environments.setActive('p1', { project: 'zz', global: null }), {
        code: 'NOT_FOUND',
      });
      assert.equal(await stores.environments.remove('e2'), true);
      assert.equal(await stores.environments.remove('e2'), false);
      assert.deepEqual(await stores.environments.getActive('p2'), { project: 'e3', global: null });
      assert.equal(await stores.environments.removeProject('p1'), 1);
      assert.deepEqual(await stores.environments.getActive('p1'), { project: null, global: null });
      assert.deepEqual(
        (await stores.environments.list()).map((e) => e.id),
        ['e3'],
      );
      await stores.environments.setActive('p2', { project: null, global: null });
      assert.deepEqual(await stores.environments.getActive('p2'), { project: null, global: null });
    });
  });
}
