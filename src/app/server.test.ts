import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRequestFilters } from '../core/model/request.js';
import { waitUntil } from '../../test/helpers/wait.js';
import { createContext, type AppContext } from './context.js';
import { addEndpoint, removeEndpoint, updateEndpoint } from './endpoints.js';
import { createProject, deleteProject } from './projects.js';
import { GONE_GRACE_MS } from '../runtime/endpoint-source.js';
import { startServer } from './server.js';

let root: string;
let ctx: AppContext;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockdev-server-'));
  ctx = createContext({ dataDir: join(root, 'data'), cwd: root, folderPollMs: 50 });
});
afterEach(() => {
  ctx.close();
  rmSync(root, { recursive: true, force: true });
});

describe('startServer', () => {
  it('ends pending delays when it stops: the request is answered and logged at once', async () => {
    const project = await createProject(ctx, { name: 'slow' });
    await addEndpoint(ctx, 'slow', { path: '/slow', delay: 60_000, body: '{"slow":true}' });
    const received: string[] = [];
    const warnings: string[] = [];
    const server = await startServer(ctx, {
      project: 'slow',
      port: 0,
      logger: { received: (m, url) => received.push(`${m} ${url}`), warn: (m) => warnings.push(m) },
    });
    const answer = fetch(`${server.url}/slow`).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
    await waitUntil(() => received.includes('GET /slow'), 'the request to arrive');
    const started = Date.now();
    await server.stop();
    const stopMs = Date.now() - started;
    assert.deepEqual(await answer, { status: 200, body: '{"slow":true}' });
    assert.ok(stopMs < 10_000, `stopped in ${stopMs} ms, not after the 60 s delay`);
    const [logged] = await ctx.requests.list(project.id, parseRequestFilters({}));
    assert.equal(logged?.path, '/slow');
    assert.equal(logged?.status, 200);
    assert.deepEqual(warnings, []);
  });

  it('answers a proxy endpoint whose target is unreachable with 502, and logs what it sent', async () => {
    const project = await createProject(ctx, { name: 'proxied' });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await addEndpoint(ctx, 'proxied', {
      path: '/api',
      kind: 'proxy',
      proxy: { target: `http://127.0.0.1:${port}` },
    });
    const server = await startServer(ctx, { project: 'proxied', port: 0 });
    try {
      const res = await fetch(`${server.url}/api`);
      assert.equal(res.status, 502);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      const body = (await res.json()) as { title: string; target: string };
      assert.equal(body.title, 'Bad gateway');
      assert.equal(body.target, `http://127.0.0.1:${port}`);
    } finally {
      await server.stop();
    }
    const [logged] = await ctx.requests.list(project.id, parseRequestFilters({}));
    assert.equal(logged?.status, 502);
    assert.match(logged!.response.body, /could not be reached/);
  });

  it('removes the recordings of a removed proxy endpoint, and of a deleted project', async () => {
    const upstream = createServer((_req, res) => res.end('up'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const project = await createProject(ctx, { name: 'rec' });
    const a = await addEndpoint(ctx, 'rec', { path: '/a', kind: 'proxy', proxy: { target, record: true } });
    const b = await addEndpoint(ctx, 'rec', { path: '/b', kind: 'proxy', proxy: { target, record: true } });
    const server = await startServer(ctx, { project: 'rec', port: 0 });
    try {
      assert.equal(await (await fetch(`${server.url}/a`)).text(), 'up');
      assert.equal(await (await fetch(`${server.url}/b`)).text(), 'up');
    } finally {
      await server.stop(); // stores what was recorded
      upstream.close();
    }
    assert.deepEqual(await ctx.recordings.countByEndpoint(project.id), { [a.id]: 1, [b.id]: 1 });
    await removeEndpoint(ctx, 'rec', a.id);
    assert.deepEqual(await ctx.recordings.countByEndpoint(project.id), { [b.id]: 1 });
    await deleteProject(ctx, 'rec');
    assert.deepEqual(await ctx.recordings.countByEndpoint(project.id), {});
  });

  it('sees an endpoint change made before a request was sent, and keeps serving after a broken edit', async () => {
    const project = await createProject(ctx, { name: 'live' });
    const e = await addEndpoint(ctx, 'live', { path: '/v', body: '1' });
    const warnings: string[] = [];
    const server = await startServer(ctx, {
      project: 'live',
      port: 0,
      logger: { warn: (m) => warnings.push(m) },
    });
    try {
      assert.equal(await (await fetch(`${server.url}/v`)).text(), '1');
      for (const body of ['2', '3', '4']) {
        await updateEndpoint(ctx, 'live', e.id, { body });
        assert.equal(await (await fetch(`${server.url}/v`)).text(), body);
      }
      writeFileSync(join(ctx.dataDir, 'projects', project.id, 'endpoints.json'), '[{"broken": ');
      await waitUntil(() => warnings.some((w) => /endpoints\.json is not valid JSON/.test(w)), 'the warning');
      assert.equal(await (await fetch(`${server.url}/v`)).text(), '4', 'the last good endpoints');
      assert.equal(warnings.length, 1, 'one warning per problem');
      // A hand edit giving a header no server can send is refused the same way: no crash.
      const file = join(ctx.dataDir, 'projects', project.id, 'endpoints.json');
      writeFileSync(file, JSON.stringify([{ ...e, body: '5', headers: { 'X Evil': 'a' } }]));
      await waitUntil(
        () =>
          warnings.some((w) =>
            /endpoints\.json has an invalid value at 0\.headers\.X Evil: may contain only/.test(w),
          ),
        'the warning naming the header',
      );
      assert.equal(await (await fetch(`${server.url}/v`)).text(), '4', 'still the last good endpoints');
    } finally {
      await server.stop();
    }
  });

  it('stops when its project is deleted, and the delete clears what it logged until then', async () => {
    const project = await createProject(ctx, { name: 'doomed' });
    await addEndpoint(ctx, 'doomed', { path: '/x', body: '1' });
    const warnings: string[] = [];
    const server = await startServer(ctx, {
      project: 'doomed',
      port: 0,
      logger: { warn: (m) => warnings.push(m) },
    });
    for (let i = 0; i < 3; i++) assert.equal(await (await fetch(`${server.url}/x`)).text(), '1');
    const { requestsDeleted } = await deleteProject(ctx, 'doomed');
    assert.equal(requestsDeleted, 3);
    await server.stopped;
    assert.deepEqual(warnings, ['The project "doomed" was deleted: stopping its server']);
    assert.deepEqual(await ctx.servers.list(), []);
    assert.deepEqual(await ctx.requests.list(project.id, parseRequestFilters({})), []);
  });

  it('keeps serving through a moment without project.json (an editor saving it)', async () => {
    const project = await createProject(ctx, { name: 'edited' });
    await addEndpoint(ctx, 'edited', { path: '/x', body: '1' });
    const warnings: string[] = [];
    const server = await startServer(ctx, {
      project: 'edited',
      port: 0,
      logger: { warn: (m) => warnings.push(m) },
    });
    try {
      const file = join(ctx.dataDir, 'projects', project.id, 'project.json');
      const text = readFileSync(file, 'utf8');
      rmSync(file);
      await waitUntil(
        async () => (await fetch(`${server.url}/x`)).status === 200,
        'a request answered meanwhile',
      );
      writeFileSync(file, text);
      await sleep(GONE_GRACE_MS + 300);
      assert.equal(await (await fetch(`${server.url}/x`)).text(), '1', 'still serving');
      assert.deepEqual(
        warnings.filter((w) => /deleted/.test(w)),
        [],
      );
    } finally {
      await server.stop();
    }
  });
});
