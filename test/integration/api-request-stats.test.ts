/** Admin API: the request log's charts (GET …/requests/stats), over requests a real mock server logged. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import type { RequestStats } from '../../src/core/model/request-stats.js';
import { apiSandbox } from '../helpers/api.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

describe('admin API: request log charts', () => {
  it('answers requests per second by status class and the latencies with p50/p95/p99, for the filters given', async (t) => {
    const api = apiSandbox(t);
    await makeProject(api.dataDir, 'charts', [
      { path: '/ok', body: '{}' },
      { path: '/slow', delay: 120, body: '{}' },
      { method: 'POST', path: '/fail', status: 503, body: 'down' },
    ]);
    await makeProject(api.dataDir, 'quiet', []);
    const server = await startServer(api.ctx, { project: 'charts', port: 0 });
    t.after(() => server.stop());
    const calls: [string, string][] = [
      ['GET', '/ok'],
      ['GET', '/ok'],
      ['GET', '/ok'],
      ['GET', '/slow'],
      ['POST', '/fail'],
      ['GET', '/missing'],
    ];
    for (const [method, path] of calls) await (await fetch(`${server.url}${path}`, { method })).text();
    const stats = async (query = '', project = 'charts') => {
      const r = await api.call('GET', `/api/v1/projects/${project}/requests/stats${query}`);
      assert.equal(r.status, 200, r.body);
      return r.json as RequestStats;
    };
    await waitUntil(async () => (await stats()).total === 6, 'the six requests in the charts');

    const all = await stats();
    assert.equal(all.minutes, 15);
    assert.equal(all.bucketSeconds, 15);
    assert.equal(all.rate.length, 60);
    assert.ok(Date.parse(all.to) > Date.now() - 1000, 'the window ends now');
    const sum = (cls: '2xx' | '3xx' | '4xx' | '5xx') => all.rate.reduce((n, b) => n + b.counts[cls], 0);
    assert.deepEqual([sum('2xx'), sum('3xx'), sum('4xx'), sum('5xx')], [4, 0, 1, 1]);
    const busiest = all.rate.find((b) => b.counts['2xx'] > 0)!;
    assert.equal(busiest.perSecond['2xx'], Math.round((busiest.counts['2xx'] / 15) * 1000) / 1000);
    assert.equal(all.latency.count, 6);
    // A 120 ms delay may measure a little under 120 ms (node's timers run on the loop's cached clock).
    assert.ok(all.latency.p99! >= 100, `p99 ${all.latency.p99} takes the delayed answer`);
    assert.ok(all.latency.p50! < 100, `p50 ${all.latency.p50} does not`);
    assert.ok(all.latency.p50! <= all.latency.p95! && all.latency.p95! <= all.latency.p99!);
    assert.equal(
      all.latency.histogram.reduce((n, b) => n + b.count, 0),
      6,
      'every request is in a bin',
    );

    assert.equal((await stats('?status=5xx')).total, 1);
    assert.equal((await stats('?method=POST')).total, 1);
    assert.equal((await stats('?path=ok&status=2xx')).total, 3);
    const slow = await stats('?path=/slow');
    assert.ok(slow.latency.p50! >= 100, `p50 ${slow.latency.p50} of the delayed answers`);
    assert.equal((await stats('?starred=true')).total, 0);
    assert.equal((await stats('?violations=true')).total, 0);
    const hour = await stats('?minutes=60');
    assert.deepEqual([hour.bucketSeconds, hour.total], [60, 6]);
    assert.equal((await stats('', 'quiet')).total, 0, "another project's requests are its own");
  });

  it('refuses bad minutes or filters (400) and names an unknown project (404)', async (t) => {
    const api = apiSandbox(t);
    await makeProject(api.dataDir, 'charts', []);
    for (const query of ['?minutes=0', '?minutes=1441', '?minutes=2.5', '?status=6xx', '?method=G%20T']) {
      const r = await api.call('GET', `/api/v1/projects/charts/requests/stats${query}`);
      assert.equal(r.status, 400, `${query}: ${r.body}`);
    }
    const missing = await api.call('GET', '/api/v1/projects/nope/requests/stats');
    assert.equal(missing.status, 404, missing.body);
  });
});
