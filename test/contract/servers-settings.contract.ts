import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ServerRecord } from '../../src/core/model/server.js';
import type { Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

const serverRecord = (pid: number, extra: Partial<ServerRecord> = {}): ServerRecord => ({
  pid,
  projectId: 'p1',
  projectName: 'Project',
  projectDir: '/somewhere',
  host: '127.0.0.1',
  port: 4000,
  url: 'http://127.0.0.1:4000',
  startedAt: new Date().toISOString(),
  ...extra,
});

/** The ServerRegistry and SettingsStore contracts. */
export function serverRegistryContract(impl: StoreImplementation): void {
  describe(`ServerRegistry contract: ${impl.name}`, () => {
    let stores: Stores;
    let cleanup: () => Promise<void>;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => ({ stores, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('lists a registered running server until it is unregistered', async () => {
      const record = serverRecord(process.pid);
      await stores.servers.register(record);
      const [listed] = await stores.servers.list();
      assert.equal(listed?.pid, process.pid);
      assert.equal(listed?.url, record.url);
      assert.equal(stores.servers.isRunning(listed!), true);
      await stores.servers.unregister(process.pid);
      assert.deepEqual(await stores.servers.list(), []);
    });

    it('never lists a server whose process is gone, and cannot signal it', async () => {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      await stores.servers.register(serverRecord(gone));
      assert.deepEqual(await stores.servers.list(), []);
      assert.equal(stores.servers.isRunning(serverRecord(gone)), false);
      assert.equal(stores.servers.signalStop(serverRecord(gone)), false);
    });
  });
}

export function settingsStoreContract(impl: StoreImplementation): void {
  describe(`SettingsStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('reads defaults, keeps updates, and shows them to other handles', async () => {
      const defaults = await stores.settings.read();
      assert.equal(defaults.defaultPort, 3001);
      assert.equal(defaults.requestLogLimit, 10_000);
      const next = await stores.settings.update({ defaultPort: 4100, theme: 'dark' });
      assert.equal(next.defaultPort, 4100);
      assert.equal(next.mcpPort, defaults.mcpPort, 'other settings unchanged');
      assert.equal((await again().settings.read()).theme, 'dark');
    });
  });
}
