import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

/** The UiStateStore contract: the endpoint tree's expanded folders, per project. */
export function uiStateStoreContract(impl: StoreImplementation): void {
  describe(`UiStateStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('has no state for a project it never saw, and an empty one once an empty one is saved', async () => {
      assert.equal(await stores.uiState.readTree('p1'), undefined);
      await stores.uiState.writeTree('p1', { expanded: [] });
      assert.deepEqual(await again().uiState.readTree('p1'), { expanded: [] });
    });

    it('keeps each project apart, seen by another opening of the same data, duplicates dropped', async () => {
      await stores.uiState.writeTree('p1', { expanded: ['/api', '/api/users', '/api'] });
      await stores.uiState.writeTree('p2', { expanded: ['/v2'] });
      assert.deepEqual(await again().uiState.readTree('p1'), { expanded: ['/api', '/api/users'] });
      assert.deepEqual(await again().uiState.readTree('p2'), { expanded: ['/v2'] });
    });

    it('replaces the state on each write, and forgets a removed project', async () => {
      await stores.uiState.writeTree('p1', { expanded: ['/api', '/api/users'] });
      await stores.uiState.writeTree('p1', { expanded: ['/api'] });
      assert.deepEqual(await stores.uiState.readTree('p1'), { expanded: ['/api'] });
      await stores.uiState.removeProject('p1');
      assert.equal(await again().uiState.readTree('p1'), undefined);
    });

    it('refuses a project id that could name another file', async () => {
      await assert.rejects(
        () => stores.uiState.writeTree('../settings', { expanded: ['/a'] }),
        /not a project id/,
      );
    });
  });
}
