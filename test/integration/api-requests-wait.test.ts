/** Admin API: counting and waiting on the request log (the mock server in-process on a free port). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { startServer } from '../../src/app/server.js';
import { apiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil, within } from '../helpers/wait.js';

interface WaitResult {
  done: boolean;
  wanted: number;
  count: number;
  records: { id: string; method: string; path: string; status: number }[];
}

async function served(t: AfterHook) {
  const api = apiSandbox(t);
  await makeProject(api.dataDir, 'reqs', [
    { path: '/a', body: '{"a":1}' },
    { method: 'POST', path: '/a', status: 201, body: '{"created":true}' },
  ]);
  const server = await startServer(api.ctx, { project: 'reqs', port: 0 });
  t.after(() => server.stop());
  const send = async (path: string, method = 'GET') =>
    (await fetch(`${server.url}${path}`, { method, signal: AbortSignal.timeout(10_000) })).text();
  const count = async (query = '') => {
    const r = await api.call('GET', `/api/v1/projects/reqs/requests/count${query}`);
    assert.equal(r.status, 200, r.body);
    return (r.json as { count: number }).count;
  };
  return { api, send, count };
}

describe('admin API: requests count and wait', () => {
  it("GET …/requests/count counts with the list's filters and since", async (t) => {
    const { send, count } = await served(t);
    assert.equal(await count(), 0);
    await send('/a');
    await send('/a', 'POST');
    await send('/missing');
    await waitUntil(async () => (await count()) === 3, 'the three requests in the log');
    assert.equal(await count('?method=POST'), 1);
    assert.equal(await count('?status=4xx'), 1);
    assert.equal(await count('?path=/a&status=2xx'), 2);
    assert.equal(await count('?since=0'), 3);
    assert.equal(await count('?since=999999'), 0);
  });

  it('GET …/requests/wait answers once count requests match, and done: false at the timeout', async (t) => {
    const { api, send, count } = await served(t);
    await send('/a');
    await waitUntil(async () => (await count()) === 1, 'the first request in the log');
    const waiting = api.call('GET', '/api/v1/projects/reqs/requests/wait?method=POST&count=2&timeout=20000');
    let answered = false;
    void waiting.then(() => (answered = true));
    await send('/a', 'POST');
    await send('/a');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(answered, false, 'one POST is not two');
    await send('/a', 'POST');
    const r = await within(waiting, 10_000, 'the wait to answer');
    assert.equal(r.status, 200, r.body);
    const result = r.json as WaitResult;
    assert.deepEqual([result.done, result.wanted, result.count], [true, 2, 2]);
    assert.deepEqual(
      result.records.map((x) => `${x.method} ${x.status}`),
      ['POST 201', 'POST 201'],
    );
    const already = await api.call('GET', '/api/v1/projects/reqs/requests/wait?method=GET');
    assert.equal((already.json as WaitResult).done, true, 'those already logged count');
    const late = await api.call('GET', '/api/v1/projects/reqs/requests/wait?status=5xx&timeout=200');
    assert.equal(late.status, 200, late.body);
    assert.deepEqual(late.json, { done: false, wanted: 1, count: 0, records: [] });
  });

  it('refuses bad query fields with 400 naming them; an unknown project is 404', async (t) => {
    const { api } = await served(t);
    const bad: [string, RegExp][] = [
      ['wait?timeout=60001', /timeout/],
      ['wait?timeout=-1', /timeout/],
      ['wait?count=0', /count/],
      ['wait?count=x', /count/],
      ['wait?since=abc', /since/],
      ['count?since=1.5', /since/],
      ['count?status=9zz', /status/i],
    ];
    for (const [route, re] of bad) {
      const r = await api.call('GET', `/api/v1/projects/reqs/requests/${route}`);
      assert.equal(r.status, 400, `${route}: ${r.body}`);
      assert.match(r.body, re, route);
    }
    const unknown = await api.call('GET', '/api/v1/projects/nope/requests/wait?timeout=100');
    assert.equal(unknown.status, 404, unknown.body);
    assert.equal((unknown.json as { code: string }).code, 'PROJECT_NOT_FOUND');
  });

  it('stops waiting when the client goes away (over a socket)', async (t) => {
    const api = apiSandbox(t);
    await makeProject(api.dataDir, 'reqs', []);
    // How many waits follow the log right now: each holds one watchWrites subscription.
    let following = 0;
    const watchWrites = api.ctx.requests.watchWrites.bind(api.ctx.requests);
    api.ctx.requests.watchWrites = (onWritten) => {
      following++;
      const sub = watchWrites(onWritten);
      return { close: () => (following--, sub.close()) };
    };
    const admin = await startAdminServer({ ctx: api.ctx, routes: ALL_ROUTES, host: '127.0.0.1', port: 0 });
    t.after(() => admin.close());
    const client = new AbortController();
    const waiting = fetch(`${admin.url}/api/v1/projects/reqs/requests/wait?timeout=60000`, {
      headers: { host: new URL(admin.url).host },
      signal: client.signal,
    }).catch((e: unknown) => e);
    await waitUntil(() => following === 1, 'the wait to follow the log');
    client.abort();
    assert.ok((await waiting) instanceof Error, 'the client gave up');
    await waitUntil(() => following === 0, 'the wait to stop once its client left', 5000);
  });
});
