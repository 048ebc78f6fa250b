import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ResourceSchema, type ResourceItem, type ResourceState } from '../core/model/resource.js';
import type { ResourceStateStore } from '../core/ports-serving.js';
import { ResourceRuntime } from './resources.js';

/** A state store in memory that records each write (when it started and ended) and may be slow. */
function memoryStore(writeMs = 0) {
  const writes: { id: string; state: ResourceState; start: number; end: number }[] = [];
  const store: ResourceStateStore = {
    read: () => Promise.resolve(undefined),
    async write(_p, id, state) {
      const start = performance.now();
      const copy = JSON.parse(JSON.stringify(state)) as ResourceState;
      if (writeMs) await sleep(writeMs);
      writes.push({ id, state: copy, start, end: performance.now() });
    },
    stage: () => Promise.resolve(),
    readStaged: () => Promise.resolve(undefined),
    remove: () => Promise.resolve(),
    removeProject: () => Promise.resolve(),
  };
  return { store, writes };
}

const def = (id: string, name: string, seed: ResourceItem[] = []) =>
  ResourceSchema.parse({ id, name, path: `/${name}`, seed, revision: 3 });

async function runtime(writeMs = 0) {
  const { store, writes } = memoryStore(writeMs);
  const rt = new ResourceRuntime({ projectId: 'p1', store, bodyLimitBytes: 1024 });
  await rt.load([def('r1', 'users', [{ id: 1 }]), def('r2', 'tags')]);
  return { rt, writes };
}

describe('resources at run time: write-behind', () => {
  it('many changes make one write per changed resource, of the items as they are then', async () => {
    const { rt, writes } = await runtime();
    for (let i = 2; i <= 100; i++) rt.access.set('users', [...rt.access.get('users')!.items, { id: i }]);
    assert.equal(writes.length, 0, 'nothing is written on the response path');
    await sleep(300);
    assert.equal(writes.length, 1);
    assert.deepEqual(
      [writes[0]!.id, writes[0]!.state.revision, writes[0]!.state.items.length],
      ['r1', 3, 100],
    );
    await rt.close();
    assert.equal(writes.length, 1, 'nothing left to write');
  });

  it('a stop writes what is pending at once', async () => {
    const { rt, writes } = await runtime();
    rt.access.set('tags', [{ id: 'a' }]);
    await rt.close();
    assert.deepEqual(
      writes.map((w) => [w.id, w.state.items]),
      [['r2', [{ id: 'a' }]]],
    );
  });

  it('a batch that takes long spaces the next one (nine times as long), even under steady changes', async () => {
    const { rt, writes } = await runtime(80);
    const steady = setInterval(() => rt.access.set('users', [{ id: writes.length + 1 }]), 5);
    try {
      const deadline = Date.now() + 10_000;
      while (writes.length < 2 && Date.now() < deadline) await sleep(20);
    } finally {
      clearInterval(steady);
    }
    await rt.close();
    assert.ok(writes.length >= 2);
    const [first, second] = writes as [(typeof writes)[0], (typeof writes)[0]];
    const batchMs = first.end - first.start;
    // Timers never fire early: the gap is at least nine times the batch, however busy the machine.
    assert.ok(
      second.start - first.end >= 9 * batchMs - 20,
      `gap ${second.start - first.end} ms, batch ${batchMs} ms`,
    );
  });
});
