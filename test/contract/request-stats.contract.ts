import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { parseRequestFilters, type RequestFilters } from '../../src/core/model/request.js';
import { statsWindow, type RequestStats } from '../../src/core/model/request-stats.js';
import type { NewRequestRecord, RequestLogStore } from '../../src/core/ports.js';
import { record } from '../helpers/records.js';
import type { StoreImplementation } from './implementations.js';
import { requestLogSandbox } from './request-log-sandbox.js';

/** The RequestLogStore contract, its charts (stats): what every implementation answers. */
export function requestStatsContract(impl: StoreImplementation): void {
  describe(`RequestLogStore contract, the charts: ${impl.name}`, () => {
    const box = requestLogSandbox(impl);
    let log: RequestLogStore;
    beforeEach(() => {
      log = box.log;
    });
    const logged = (records: NewRequestRecord[]) => box.logged(records);

    /** One minute ending with the bucket that holds NOW: 60 buckets of 1 s, from FROM. */
    const NOW = 1_700_000_000_500;
    const window = statsWindow(NOW, 1);
    const FROM = window.from;
    /** A record at `s` seconds (and `ms` more) into the window. */
    const at = (n: number, s: number, extra: Partial<NewRequestRecord> = {}) =>
      record(n, { ts: FROM + s * 1000 + 250, ...extra });
    const stats = (projectId: string, filters: RequestFilters = {}, reader = log): Promise<RequestStats> => {
      const { limit: _limit, ...parsed } = parseRequestFilters(filters);
      return reader.stats(projectId, parsed, window);
    };

    it('counts the requests of the window per second by status class, in buckets aligned to the clock', async () => {
      assert.deepEqual(window, { from: 1_699_999_941_000, to: 1_700_000_001_000, bucketMs: 1000 });
      const projectId = await logged([
        record(0, { ts: FROM - 1 }), // before the window
        at(1, 0),
        at(2, 0, { status: 201 }),
        at(3, 0, { status: 404 }),
        at(4, 30, { status: 302 }),
        at(5, 30, { status: 500 }),
        at(6, 30, { status: 503 }),
        at(7, 59, { status: 204 }),
        record(8, { ts: window.to }), // after it
      ]);
      await logged([at(9, 0), at(10, 59)]); // another project's
      const s = await stats(projectId, {}, box.again().requests);
      assert.equal(s.from, new Date(window.from).toISOString());
      assert.equal(s.to, new Date(window.to).toISOString());
      assert.equal(s.minutes, 1);
      assert.equal(s.bucketSeconds, 1);
      assert.equal(s.total, 7);
      assert.equal(s.rate.length, 60);
      assert.equal(s.rate[0]!.start, new Date(FROM).toISOString());
      assert.equal(s.rate[59]!.start, new Date(FROM + 59_000).toISOString());
      assert.deepEqual(s.rate[0]!.counts, { '2xx': 2, '3xx': 0, '4xx': 1, '5xx': 0 });
      assert.deepEqual(s.rate[30]!.counts, { '2xx': 0, '3xx': 1, '4xx': 0, '5xx': 2 });
      assert.deepEqual(s.rate[59]!.counts, { '2xx': 1, '3xx': 0, '4xx': 0, '5xx': 0 });
      assert.deepEqual(s.rate[0]!.perSecond, { '2xx': 2, '3xx': 0, '4xx': 1, '5xx': 0 });
      const quiet = s.rate.filter((_, i) => ![0, 30, 59].includes(i));
      assert.ok(quiet.every((b) => Object.values(b.counts).every((n) => n === 0)));
    });

    it('gives requests per second over buckets longer than a second', async () => {
      const projectId = await logged(
        Array.from({ length: 30 }, (_, i) => record(i, { ts: NOW - 1000 - i, status: i < 3 ? 500 : 200 })),
      );
      const { limit: _limit, ...filters } = parseRequestFilters({});
      const s = await log.stats(projectId, filters, statsWindow(NOW, 15));
      assert.equal(s.bucketSeconds, 15);
      assert.equal(s.rate.length, 60);
      const last = s.rate.at(-1)!;
      assert.deepEqual(last.counts, { '2xx': 27, '3xx': 0, '4xx': 0, '5xx': 3 });
      assert.deepEqual(last.perSecond, { '2xx': 1.8, '3xx': 0, '4xx': 0, '5xx': 0.2 });
    });

    it('bins the latencies and gives p50, p95 and p99 (nearest rank)', async () => {
      // 100 requests: 1..100 tenths of a millisecond, so p50 = 5 ms, p95 = 9.5 ms, p99 = 9.9 ms
      const durations = Array.from({ length: 100 }, (_, i) => (i + 1) / 10);
      const projectId = await logged(durations.reverse().map((d, i) => at(i, i % 60, { durationMs: d })));
      const { latency, total } = await stats(projectId);
      assert.equal(total, 100);
      assert.equal(latency.count, 100);
      assert.deepEqual([latency.p50, latency.p95, latency.p99], [5, 9.5, 9.9]);
      assert.deepEqual(latency.histogram, [
        { fromMs: 0.1, toMs: 0.2, count: 1 }, // 0.1
        { fromMs: 0.2, toMs: 0.5, count: 3 }, // 0.2, 0.3, 0.4
        { fromMs: 0.5, toMs: 1, count: 5 },
        { fromMs: 1, toMs: 2, count: 10 },
        { fromMs: 2, toMs: 5, count: 30 },
        { fromMs: 5, toMs: 10, count: 50 },
        { fromMs: 10, toMs: 20, count: 1 }, // 10
      ]);
      const slow = await logged([at(0, 1, { durationMs: 0.05 }), at(1, 2, { durationMs: 61_000 }), at(2, 3)]);
      const wide = await stats(slow);
      assert.deepEqual(wide.latency.histogram[0], { fromMs: 0, toMs: 0.1, count: 1 });
      assert.deepEqual(wide.latency.histogram.at(-1), { fromMs: 60_000, toMs: null, count: 1 });
      assert.equal(wide.latency.histogram.length, 19, 'the empty bins between are answered');
      assert.deepEqual([wide.latency.p50, wide.latency.p95, wide.latency.p99], [0.5, 61_000, 61_000]);
    });

    it('follows the list filters: method, status, path, starred and violations', async () => {
      const projectId = await logged([
        at(0, 1, { method: 'POST', url: '/api/users', status: 201, durationMs: 3 }),
        at(1, 2, { url: '/api/users/7?x=users', durationMs: 1 }),
        at(2, 3, { url: '/health', status: 503, durationMs: 40 }),
        at(3, 4, { url: '/api/orders', status: 404, durationMs: 2 }),
      ]);
      const total = async (f: RequestFilters) => (await stats(projectId, f)).total;
      assert.equal(await total({}), 4);
      assert.equal(await total({ method: 'post' }), 1);
      assert.equal(await total({ status: '4xx,5xx' }), 2);
      assert.equal(await total({ path: 'users' }), 2, 'the path, not the query');
      const s = await stats(projectId, { status: '5xx' });
      assert.deepEqual([s.latency.p50, s.latency.p99], [40, 40]);
      assert.deepEqual(s.rate[3]!.counts, { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 1 });
      const [newest] = await log.list(projectId, parseRequestFilters({ limit: 1 }));
      await log.setStarred(newest!.id, true);
      assert.equal(await total({ starred: true }), 1);
      assert.equal(await total({ starred: false }), 3);
      await log.setContractVerdicts([{ id: newest!.id, verdict: { ok: false, violations: [] } }]);
      assert.equal(await total({ violations: true }), 1);
      assert.equal(await total({ path: "'; DROP TABLE requests; --" }), 0);
      assert.equal(await total({}), 4);
    });

    it('answers an empty window with zeroes, no percentiles and no bins', async () => {
      const projectId = await logged([record(0, { ts: FROM - 60_000 })]);
      const s = await stats(projectId);
      assert.equal(s.total, 0);
      assert.equal(s.rate.length, 60);
      assert.ok(s.rate.every((b) => Object.values(b.perSecond).every((n) => n === 0)));
      assert.deepEqual(s.latency, { count: 0, p50: null, p95: null, p99: null, histogram: [] });
      assert.equal((await stats('no-such-project')).total, 0);
    });
  });
}
