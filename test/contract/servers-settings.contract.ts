import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ServerRecord } from '../../src/core/model/server.js';
import type { FlowRunRequest, Stores } from '../../src/core/ports.js';
import { waitUntil } from '../helpers/wait.js';
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
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => ({ stores, again, cleanup } = await impl.open()));
    afterEach(() => cleanup());

    it('lists a registered running server until it is unregistered', async () => {
      const record = serverRecord(process.pid);
      await stores.servers.register(record);
      const [listed] = await stores.servers.list();
      assert.equal(listed?.pid, process.pid);
      assert.equal(listed?.url, record.url);
      assert.equal(stores.servers.isRunning(listed!), true);
      await stores.servers.unregister(record);
      assert.deepEqual(await stores.servers.list(), []);
    });

    it('holds several servers of one process apart, by port', async () => {
      const a = serverRecord(process.pid, { port: 4001, url: 'http://127.0.0.1:4001' });
      const b = serverRecord(process.pid, { port: 4002, url: 'http://127.0.0.1:4002', projectId: 'p2' });
      await stores.servers.register(a);
      await stores.servers.register(b);
      assert.deepEqual((await again().servers.list()).map((r) => r.port).sort(), [4001, 4002]);
      await stores.servers.unregister(a);
      assert.deepEqual(
        (await stores.servers.list()).map((r) => r.port),
        [4002],
      );
    });

    it('delivers a stop request to the host of a server that shares its process, without a signal', async () => {
      const record = serverRecord(process.pid, { port: 4003, stopByRequest: true });
      await stores.servers.register(record);
      let asked = 0;
      const sub = stores.servers.onStopRequest(record, () => asked++);
      try {
        const [listed] = await again().servers.list();
        assert.equal(listed?.stopByRequest, true);
        // Another process's view asks; this process (the host) must survive it: no SIGTERM.
        assert.equal(again().servers.signalStop(listed!), true);
        const deadline = Date.now() + 5000;
        while (asked === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        assert.equal(asked, 1, 'the host was told once');
        assert.equal(stores.servers.isRunning(listed!), true, 'running until its host unregisters it');
        await stores.servers.unregister(record);
        assert.equal(again().servers.isRunning(listed!), false);
        assert.deepEqual(await stores.servers.list(), []);
      } finally {
        sub.close();
      }
    });

    it('delivers run requests to the host of a running server, each once, in the order they were made', async () => {
      const record = serverRecord(process.pid, { port: 4004 });
      await stores.servers.register(record);
      const got: FlowRunRequest[] = [];
      const sub = stores.servers.onRunRequest(record, (r) => got.push(r));
      try {
        // Run ids that sort against the order they are made in, several within one millisecond.
        assert.equal(stores.servers.requestRun(record, { runId: 'r3', flowId: 'f1' }), true);
        assert.equal(again().servers.requestRun(record, { runId: 'r2', flowId: 'f2' }), true);
        assert.equal(stores.servers.requestRun(record, { runId: 'r1', flowId: 'f1' }), true);
        await waitUntil(() => got.length >= 3, 'the first three requests');
        // One more, after the others were taken: nothing taken before comes again.
        assert.equal(again().servers.requestRun(record, { runId: 'r0', flowId: 'f3' }), true);
        await waitUntil(() => got.length >= 4, 'the fourth request');
        assert.deepEqual(got, [
          { runId: 'r3', flowId: 'f1' },
          { runId: 'r2', flowId: 'f2' },
          { runId: 'r1', flowId: 'f1' },
          { runId: 'r0', flowId: 'f3' },
        ]);
      } finally {
        sub.close();
        await stores.servers.unregister(record);
      }
    });

    it('asks no server that is gone or unregistered to run, and drops the requests an unregistered one had', async () => {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      await stores.servers.register(serverRecord(gone, { port: 4005 }));
      assert.equal(
        stores.servers.requestRun(serverRecord(gone, { port: 4005 }), { runId: 'r1', flowId: 'f1' }),
        false,
      );
      const record = serverRecord(process.pid, { port: 4006 });
      assert.equal(
        stores.servers.requestRun(record, { runId: 'r1', flowId: 'f1' }),
        false,
        'never registered',
      );
      await stores.servers.register(record);
      assert.equal(stores.servers.requestRun(record, { runId: 'old', flowId: 'f1' }), true);
      await stores.servers.unregister(record);
      assert.equal(
        again().servers.requestRun(record, { runId: 'late', flowId: 'f1' }),
        false,
        'unregistered',
      );
      // A later server on the same port gets only its own requests.
      await stores.servers.register(record);
      const got: string[] = [];
      const sub = stores.servers.onRunRequest(record, (r) => got.push(r.runId));
      try {
        assert.equal(stores.servers.requestRun(record, { runId: 'new', flowId: 'f1' }), true);
        await waitUntil(() => got.length > 0, 'the new request');
        assert.deepEqual(got, ['new']);
      } finally {
        sub.close();
        await stores.servers.unregister(record);
      }
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
