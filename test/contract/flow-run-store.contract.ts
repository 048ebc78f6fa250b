import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parseRequestFilters } from '../../src/core/model/request.js';
import type { FlowRun } from '../../src/core/model/flow.js';
import type { FlowRunStore, FlowRunWriterOptions, Stores } from '../../src/core/ports.js';
import { endedRun as ended, flowRun } from '../helpers/flow-runs.js';
import { record } from '../helpers/records.js';
import { waitUntil } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';

/** The FlowRunStore contract: what every implementation of the interface does. */
export function flowRunStoreContract(impl: StoreImplementation): void {
  describe(`FlowRunStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    let runs: FlowRunStore;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => {
      ({ stores, again, cleanup } = await impl.open());
      runs = stores.flowRuns;
    });
    afterEach(() => cleanup());

    /** Saves runs through a writer, closed when done. */
    const saved = async (items: FlowRun[], options: Partial<FlowRunWriterOptions> = {}) => {
      const writer = runs.openWriter({ projectId: items[0]?.projectId ?? 'p1', limit: 1000, ...options });
      for (const r of items) writer.save(r);
      await writer.close();
      assert.equal(writer.lost, 0);
    };
    const ids = (list: FlowRun[]) => list.map((r) => r.id);

    it('reads back saved runs whole: newest started first, at most the limit, of one flow when asked', async () => {
      await saved([flowRun(2), flowRun(1, { flowId: 'f2' }), ended(flowRun(3)), flowRun(0)]);
      await saved([flowRun(9, { projectId: 'p2' })]);
      assert.deepEqual(ids(await runs.list('p1', { limit: 10 })), ['run3', 'run2', 'run1', 'run0']);
      assert.deepEqual(ids(await runs.list('p1', { limit: 2 })), ['run3', 'run2']);
      assert.deepEqual(ids(await runs.list('p1', { flowId: 'f2', limit: 10 })), ['run1']);
      assert.deepEqual(await runs.list('p1', { flowId: 'nope', limit: 10 }), []);
      assert.deepEqual(ids(await runs.list('p2', { limit: 10 })), ['run9']);
      assert.deepEqual(await runs.get('run3'), ended(flowRun(3)));
      assert.deepEqual(await runs.get('run0'), flowRun(0));
      assert.equal(await runs.get('missing'), undefined);
    });

    it('replaces a run by each later save, in one batch and across batches, stored as it is when written', async () => {
      const writer = runs.openWriter({ projectId: 'p1', limit: 1000 });
      const run = flowRun(1);
      writer.save(run);
      run.steps[0]!.status = 'completed'; // changed after the save, before its batch: stored so
      writer.save(flowRun(2));
      await waitUntil(() => runs.get('run2'), 'the first batch');
      assert.equal((await runs.get('run1'))?.steps[0]?.status, 'completed');
      run.status = 'failed'; // changed after its batch was stored, never saved again: not stored
      assert.equal((await runs.get('run1'))?.status, 'running');
      writer.save(ended(flowRun(1)));
      writer.save({ ...ended(flowRun(2)), status: 'cancelled' });
      writer.save(ended(flowRun(2)));
      await writer.close();
      assert.deepEqual(await runs.get('run1'), ended(flowRun(1)));
      assert.deepEqual(await runs.list('p1', { limit: 10 }), [ended(flowRun(2)), ended(flowRun(1))]);
    });

    it('shows what one set of stores saves to another, as another process, while the writer runs', async () => {
      const other = again().flowRuns;
      const writer = runs.openWriter({ projectId: 'p1', limit: 1000 });
      try {
        writer.save(flowRun(1));
        await waitUntil(() => other.get('run1'), 'the run, seen by another process');
        writer.save(ended(flowRun(1)));
        await waitUntil(async () => (await other.get('run1'))?.status === 'completed', 'its end');
        assert.deepEqual(await other.list('p1', { limit: 10 }), [ended(flowRun(1))]);
      } finally {
        await writer.close();
      }
    });

    it('keeps the newest `limit` runs of each project, dropping the oldest started', async () => {
      await saved([flowRun(3), flowRun(1), flowRun(4), flowRun(2)], { limit: 3 });
      await saved([flowRun(10, { projectId: 'p2' }), flowRun(11, { projectId: 'p2' })], { limit: 3 });
      assert.deepEqual(ids(await runs.list('p1', { limit: 10 })), ['run4', 'run3', 'run2']);
      await saved([flowRun(5)], { limit: 3 });
      assert.deepEqual(ids(await runs.list('p1', { limit: 10 })), ['run5', 'run4', 'run3']);
      assert.equal(await runs.get('run1'), undefined);
      assert.deepEqual(ids(await runs.list('p2', { limit: 10 })), ['run11', 'run10'], 'other projects kept');
    });

    it('clears the runs of one project only', async () => {
      await saved([flowRun(1), flowRun(2)]);
      await saved([flowRun(3, { projectId: 'p2' })]);
      assert.equal(await runs.clearProject('p1'), 2);
      assert.deepEqual(await again().flowRuns.list('p1', { limit: 10 }), []);
      assert.equal(await runs.get('run1'), undefined);
      assert.deepEqual(ids(await runs.list('p2', { limit: 10 })), ['run3']);
      assert.equal(await runs.clearProject('p1'), 0);
    });

    it('tells a watcher which runs were saved after its cursor, of every project, in the order they changed', async () => {
      await saved([flowRun(0)]);
      const start = await runs.since(undefined, 100);
      assert.deepEqual(start.runs, [], 'no history: from now on');
      await saved([flowRun(1), flowRun(2, { projectId: 'p2' })]);
      await saved([ended(flowRun(1))]);
      const seen = await again().flowRuns.since(start.cursor, 100);
      assert.deepEqual(
        seen.runs,
        [flowRun(2, { projectId: 'p2' }), ended(flowRun(1))],
        'each run once, as it is now',
      );
      const first = await runs.since(start.cursor, 1);
      assert.deepEqual(ids(first.runs), ['run2']);
      assert.deepEqual(ids((await runs.since(first.cursor, 100)).runs), ['run1']);
      assert.deepEqual(await runs.since(seen.cursor, 100), { runs: [], cursor: seen.cursor }, 'nothing new');
      await saved([ended(flowRun(2, { projectId: 'p2' }))]);
      assert.deepEqual((await runs.since(seen.cursor, 100)).runs, [ended(flowRun(2, { projectId: 'p2' }))]);
      await runs.clearProject('p1');
      const cleared = await runs.since(undefined, 100);
      await saved([flowRun(7)]);
      assert.deepEqual(
        ids((await runs.since(cleared.cursor, 100)).runs),
        ['run7'],
        'cursors keep growing after a clear',
      );
    });

    it('finds the logged request that started a run, and none when it is not (or no longer) in the log', async () => {
      const writer = stores.requests.openWriter({ projectId: 'p1', limit: 1000 });
      writer.push(record(1, { method: 'POST', url: '/orders?x=1' }));
      writer.push(record(1, { method: 'POST', url: '/orders?x=1' })); // the same, twice: the first is meant
      writer.push(record(2, { method: 'POST', url: '/orders' }));
      await writer.close();
      const logged = await stores.requests.list('p1', parseRequestFilters({ limit: 10 }));
      const first = logged.filter((r) => r.timestamp === new Date(1_700_000_000_001).toISOString()).at(-1)!;
      const second = logged.find((r) => r.timestamp === new Date(1_700_000_000_002).toISOString())!;
      const by = (ts: number, method = 'POST', url = '/orders') => ({
        ts: 1_700_000_000_000 + ts,
        method,
        url,
      });
      await saved([
        flowRun(1, { request: by(1, 'POST', '/orders?x=1') }),
        flowRun(2, { request: by(2) }),
        flowRun(3, { request: by(2, 'GET') }),
        flowRun(4, { request: by(3) }),
        flowRun(5, { request: by(2), projectId: 'p2' }),
        flowRun(6, { startedBy: 'manual' }),
      ]);
      const requestIds = async (store: FlowRunStore) =>
        Object.fromEntries(
          [...(await store.list('p1', { limit: 10 })), ...(await store.list('p2', { limit: 10 }))].map(
            (r) => [r.id, r.requestId],
          ),
        );
      assert.deepEqual(await requestIds(runs), {
        run1: first.id,
        run2: second.id,
        run3: null,
        run4: null,
        run5: null,
        run6: null,
      });
      assert.equal((await again().flowRuns.get('run2'))?.requestId, second.id);
      assert.deepEqual((await runs.since('0', 100)).runs.find((r) => r.id === 'run1')?.requestId, first.id);
      await stores.requests.clear('p1');
      assert.equal((await runs.get('run2'))?.requestId, null, 'its request was cleared from the log');
    });

    it('stores what is queued when closed, and counts (and reports) each save after as lost', async () => {
      const warnings: string[] = [];
      const writer = runs.openWriter({ projectId: 'p1', limit: 1000, onWarning: (m) => warnings.push(m) });
      writer.save(flowRun(1));
      await writer.close();
      assert.deepEqual(await runs.get('run1'), flowRun(1), 'stored by close, without waiting');
      writer.save(ended(flowRun(1)));
      writer.save(flowRun(2));
      assert.equal(writer.lost, 2);
      assert.equal(warnings.length, 2);
      assert.match(warnings[0]!, /Lost 1 flow run change: the run run1 changed after/);
      assert.deepEqual(await runs.get('run1'), flowRun(1));
      assert.equal(await runs.get('run2'), undefined);
    });
  });
}
