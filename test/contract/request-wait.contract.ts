import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { parseCountFilters, type RequestCountInput } from '../../src/core/model/request-wait.js';
import type { RequestLogStore } from '../../src/core/ports.js';
import { record } from '../helpers/records.js';
import { within } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';
import { requestLogSandbox } from './request-log-sandbox.js';

/** The RequestLogStore contract, what `requests count` and `requests wait` stand on: count and watchWrites. */
export function requestWaitContract(impl: StoreImplementation): void {
  describe(`RequestLogStore contract, counting and being told of writes: ${impl.name}`, () => {
    const box = requestLogSandbox(impl);
    let log: RequestLogStore;
    beforeEach(() => {
      log = box.log;
    });
    const count = (projectId: string, input: RequestCountInput = {}, reader = log) =>
      reader.count(projectId, parseCountFilters(input));

    it("counts a project's records with the list's filters, and those after an id", async () => {
      const projectId = await box.logged([
        record(0, { method: 'POST', status: 201 }),
        record(1, { status: 404 }),
        record(2, { status: 500 }),
        record(3),
      ]);
      await box.logged([record(4), record(5)]); // another project's
      assert.equal(await count(projectId), 4);
      assert.equal(await count(projectId, { method: 'post' }), 1);
      assert.equal(await count(projectId, { status: '4xx,5xx' }), 2);
      assert.equal(await count(projectId, { path: '/r/3' }), 1);
      assert.equal(await count(box.newProjectId()), 0, 'a project with no records');
      const oldestFirst = await log.list(projectId, {
        ...parseRequestFilters({ limit: 10 }),
        oldestFirst: true,
      });
      assert.deepEqual(
        oldestFirst.map((r) => r.path),
        ['/r/0', '/r/1', '/r/2', '/r/3'],
      );
      const second = oldestFirst[1]!.id;
      assert.equal(await count(projectId, { since: second }), 2);
      assert.equal(await count(projectId, { since: second, status: '200' }), 1);
      assert.equal(await count(projectId, { since: '0' }), 4);
      assert.equal(await count(projectId, { since: oldestFirst[3]!.id }), 0);
      const after = await log.list(projectId, {
        ...parseRequestFilters({ limit: 10 }),
        after: Number(second),
        oldestFirst: true,
      });
      assert.deepEqual(
        after.map((r) => r.path),
        ['/r/2', '/r/3'],
        'the list takes the same cursor',
      );
    });

    it('tells a reader elsewhere of records a writer writes, and counts them at once', async () => {
      const projectId = box.newProjectId();
      const reader = box.again().requests;
      let told = 0;
      let onTold: (() => void) | undefined;
      const watch = reader.watchWrites(() => {
        told++;
        onTold?.();
      });
      const writer = log.openWriter({ projectId, limit: 1000 });
      try {
        const heard = new Promise<void>((resolve) => (onTold = resolve));
        writer.push(record(0));
        await within(heard, 5000, 'being told of the write');
        assert.ok(told >= 1);
        // Told: the record is readable by then or soon after (the writer appends once per batch).
        const start = Date.now();
        while ((await count(projectId, {}, reader)) < 1 && Date.now() - start < 5000)
          await new Promise<void>((resolve) => (onTold = resolve));
        assert.equal(await count(projectId, {}, reader), 1);
      } finally {
        watch.close();
        await writer.close();
      }
      const before = told;
      await box.logged([record(1)]);
      assert.equal(told, before, 'nothing told once closed');
    });
  });
}
