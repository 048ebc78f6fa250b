import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Flow } from '../../src/core/model/flow.js';
import type { ProjectChange, ProjectStore, Stores } from '../../src/core/ports.js';
import { waitUntil } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';
import { endpoint, projectFile } from './project-store.contract.js';

/** A flow as stored: a request to e1 calls a hook back, then (`after` it) another. */
export const flow = (n: number, extra: Partial<Flow> = {}): Flow => ({
  id: `f${n}`,
  name: `flow ${n}`,
  description: '',
  enabled: true,
  steps: [
    {
      id: `s${n}a`,
      label: 'notify',
      trigger: { type: 'request', endpointId: 'e1' },
      action: {
        type: 'callback',
        method: 'POST',
        url: 'http://127.0.0.1:9/hook',
        headers: { 'Content-Type': 'application/json' },
        body: '{"n":{{params.n}}}',
        timeoutMs: 10_000,
        retries: 2,
      },
    },
    {
      id: `s${n}b`,
      trigger: { type: 'after', stepId: `s${n}a`, delayMs: 500 },
      action: {
        type: 'callback',
        method: 'GET',
        url: 'http://127.0.0.1:9/then',
        headers: {},
        timeoutMs: 1000,
        retries: 0,
      },
    },
  ],
  ...extra,
});

/**
 * A project's flows in the ProjectStore (core/ports.ts): saved with its endpoints by `update`
 * (one read-modify-write), given at `create`, read back by every read, and heard by watchers.
 */
export function projectFlowsContract(impl: StoreImplementation): void {
  describe(`ProjectStore contract, flows: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    let folders: string | undefined;
    let projects: ProjectStore;
    beforeEach(async () => {
      ({ stores, again, cleanup, folders } = await impl.open());
      projects = stores.projects;
    });
    afterEach(() => cleanup());

    /** The flows of a project as every read gives them: read, get or find, find by name, list. */
    const everyRead = async (store: ProjectStore, key: string, id: string, name: string) => {
      const listed = (await store.list()).projects.find((p) => p.project.id === id);
      const found = await store.find(name);
      const byId = await store.find(id);
      return [(await store.read(key)).flows, found[0]?.flows, byId[0]?.flows, listed?.flows];
    };

    it('has no flows until some are saved, then reads them back from every read and another process', async () => {
      const file = projectFile('With flows');
      const { key } = await projects.create(file, [endpoint(1)]);
      assert.deepEqual((await projects.read(key)).flows, []);
      const result = await projects.update(key, (current) => {
        assert.deepEqual(current.flows, []);
        return { flows: [flow(1), flow(2, { enabled: false })], result: 'saved' };
      });
      assert.equal(result, 'saved');
      const expected = [flow(1), flow(2, { enabled: false })];
      assert.deepEqual(await everyRead(projects, key, file.id, 'With flows'), [
        expected,
        expected,
        expected,
        expected,
      ]);
      assert.deepEqual(await everyRead(again().projects, key, file.id, 'With flows'), [
        expected,
        expected,
        expected,
        expected,
      ]);
      assert.deepEqual((await projects.read(key)).endpoints, [endpoint(1)], 'endpoints untouched');
    });

    it('keeps the flows when a change leaves them out, and changes endpoints and flows in one write', async () => {
      const { key } = await projects.create(projectFile('Both'), [endpoint(1)]);
      await projects.update(key, () => ({ flows: [flow(1)], result: undefined }));
      await again().projects.update(key, (c) => ({
        endpoints: [...c.endpoints, endpoint(2)],
        result: undefined,
      }));
      assert.deepEqual((await projects.read(key)).flows, [flow(1)], 'an endpoint change keeps the flows');
      await projects.update(key, (c) => {
        assert.deepEqual(c.flows, [flow(1)], 'the change sees the flows as stored');
        return { endpoints: [endpoint(3)], flows: [flow(3)], result: undefined };
      });
      const read = await again().projects.read(key);
      assert.deepEqual([read.endpoints, read.flows], [[endpoint(3)], [flow(3)]]);
      await assert.rejects(
        projects.update(key, () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      await projects.update(key, () => ({ flows: [], result: undefined }));
      assert.deepEqual((await projects.read(key)).flows, [], 'all flows removed');
    });

    it('creates a project with flows, managed or in a folder', async () => {
      const managed = projectFile('Made with flows');
      const made = await projects.create(managed, [endpoint(1)], { flows: [flow(1)] });
      assert.deepEqual(made.flows, [flow(1)]);
      assert.deepEqual(await everyRead(again().projects, made.key, managed.id, 'Made with flows'), [
        [flow(1)],
        [flow(1)],
        [flow(1)],
        [flow(1)],
      ]);
      if (!folders) return;
      const inFolder = projectFile('Folder with flows');
      const { key } = await projects.create(inFolder, [endpoint(1)], {
        folder: { path: 'with-flows', cwd: folders },
        flows: [flow(2)],
      });
      assert.deepEqual((await again().projects.find('Folder with flows'))[0]?.flows, [flow(2)]);
      await projects.remove(key);
      // A new project in the same folder starts without the removed one's flows.
      const next = await projects.create(projectFile('Next'), [], {
        folder: { path: 'with-flows', cwd: folders },
      });
      assert.deepEqual(next.flows, []);
      assert.deepEqual((await projects.read(next.key)).flows, []);
    });

    it('tells a watcher of the project when only its flows change, through another handle', async () => {
      const file = projectFile('Watched flows');
      const { key } = await projects.create(file, [endpoint(1)]);
      const heard: ProjectChange[] = [];
      const sub = projects.watch((c) => heard.push(c), { key });
      try {
        await again().projects.update(key, () => ({ flows: [flow(1)], result: undefined }));
        await waitUntil(() => heard.some((c) => c.change === 'updated'), 'the first flow to be heard');
        heard.length = 0;
        await again().projects.update(key, () => ({
          flows: [flow(1, { enabled: false })],
          result: undefined,
        }));
        await waitUntil(() => heard.some((c) => c.change === 'updated'), 'a flow disabled to be heard');
        assert.ok(heard.every((c) => c.projectId === file.id && c.key === key));
        assert.deepEqual((await projects.read(key)).flows, [flow(1, { enabled: false })]);
      } finally {
        sub.close();
      }
    });
  });
}
