import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

/** The LicenseStore contract. */
export function licenseStoreContract(impl: StoreImplementation): void {
  describe(`LicenseStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('holds no license until one is written, then the last one written, seen by other handles', async () => {
      assert.equal(await stores.license.read(), undefined);
      const first = { key: 'aaa.bbb', activation: 'key' as const, activatedAt: '2026-01-01T00:00:00.000Z' };
      await stores.license.write(first);
      assert.deepEqual(await again().license.read(), first);
      const second = {
        key: 'ccc.ddd',
        activation: 'email' as const,
        activatedAt: '2026-02-01T00:00:00.000Z',
      };
      await stores.license.write(second);
      assert.deepEqual(await stores.license.read(), second);
    });
  });
}
