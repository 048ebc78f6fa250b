/**
 * The local flow run store's own mechanics (the FlowRunStore contract, test/contract/, covers
 * what every implementation does): a writer that opens nothing before its first flush, a
 * failing database reported once, a run's request found while it is still only spooled.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { flowRun } from '../../../test/helpers/flow-runs.js';
import { record } from '../../../test/helpers/records.js';
import { waitUntil } from '../../../test/helpers/wait.js';
import { RequestDatabase } from '../request-log/database.js';
import { RecordBatch } from '../request-log/frame.js';
import { spoolDirOf } from '../request-log/local-request-log.js';
import { SpoolWriter } from '../request-log/spool.js';
import { LocalFlowRuns } from './local-flow-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-runs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Flow runs over a fresh request log database, counting how often it was asked for. */
const fresh = () => {
  const file = join(dir, `${++n}.db`);
  let db: RequestDatabase | undefined;
  const opened = { count: 0 };
  const runs = new LocalFlowRuns(file, async () => {
    opened.count++;
    return (db ??= new RequestDatabase(file, spoolDirOf(file)));
  });
  return { file, runs, opened, close: () => db?.close() };
};

describe('LocalFlowRuns', () => {
  it('opens the database on a writer’s first flush, not when the writer is opened', async () => {
    const { runs, opened, close } = fresh();
    try {
      const writer = runs.openWriter({ projectId: 'p1', limit: 10 });
      writer.save(flowRun(1));
      assert.equal(opened.count, 0, 'nothing opened on openWriter or save');
      await waitUntil(() => opened.count > 0, 'the first flush');
      await writer.close();
      assert.equal((await runs.get('run1'))?.id, 'run1');
    } finally {
      close();
    }
  });

  it('reports a database it cannot write once, and counts every change lost', async () => {
    const warnings: string[] = [];
    const runs = new LocalFlowRuns(join(dir, 'nowhere.db'), () =>
      Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })),
    );
    const writer = runs.openWriter({ projectId: 'p1', limit: 10, onWarning: (m) => warnings.push(m) });
    writer.save(flowRun(1));
    writer.save(flowRun(1)); // the same run: one change
    writer.save(flowRun(2));
    await waitUntil(() => writer.lost === 2, 'the first batch lost');
    writer.save(flowRun(3));
    await writer.close();
    assert.equal(writer.lost, 3);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^Could not store flow runs in .*nowhere\.db \(.+\): 2 changes lost$/);
  });

  it('finds a run’s request still waiting in the spool: the reader expands it first', async () => {
    const { file, runs, close } = fresh();
    try {
      const spool = new SpoolWriter(spoolDirOf(file), 'p1', { rotateAfter: 1e9 });
      const batch = new RecordBatch();
      batch.add(record(5, { method: 'POST', url: '/orders' }));
      spool.write(batch, 1000);
      spool.close();
      const writer = runs.openWriter({ projectId: 'p1', limit: 10 });
      writer.save(flowRun(1, { request: { method: 'POST', url: '/orders', ts: 1_700_000_000_005 } }));
      await writer.close();
      const db = new RequestDatabase(file, spoolDirOf(file));
      try {
        const rowId = db.connection.prepare('SELECT id FROM requests').pluck().get();
        assert.equal(rowId, undefined, 'not expanded by saving the run');
      } finally {
        db.close();
      }
      const found = await runs.get('run1');
      assert.match(found!.requestId ?? '', /^\d+$/);
      assert.equal((await runs.list('p1', { limit: 1 }))[0]!.requestId, found!.requestId);
    } finally {
      close();
    }
  });
});
