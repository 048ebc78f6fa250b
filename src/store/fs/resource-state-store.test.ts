import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileResourceStateStore } from './resource-state-store.js';

describe('FileResourceStateStore (the files)', () => {
  it('keeps the items staged for the newest two revisions only, of that resource only', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-resource-state-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = new FileResourceStateStore(dir);
    await store.stage('p1', 'users', 1, [{ id: 1 }]);
    await store.stage('p1', 'orders', 1, [{ id: 'a' }]);
    await store.stage('p1', 'users', 2, [{ id: 2 }]);
    await store.stage('p1', 'users', 3, [{ id: 3 }]);
    await store.stage('p1', 'users', 4, [{ id: 4 }]);
    assert.deepEqual(readdirSync(join(dir, 'resources', 'p1')).sort(), [
      'orders.r1.json',
      'users.r3.json',
      'users.r4.json',
    ]);
    assert.deepEqual(await store.readStaged('p1', 'users', 3), [{ id: 3 }]);
    assert.equal(await store.readStaged('p1', 'users', 1), undefined);
  });
});
