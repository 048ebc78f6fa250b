/**
 * Admin API: the live event stream, over a socket (the admin server in-process on a free
 * port). Changes come from other contexts over the same data directory, as from other processes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject, initProject, updateProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createApiServices } from '../../src/api/services.js';
import { tempDir } from '../helpers/cli.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { writeEndpoints } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { join } from 'node:path';

type Json = Record<string, unknown>;

async function admin(t: AfterHook) {
  const { dir, cleanup } = tempDir('mockdev-api-events-');
  t.after(cleanup);
  const options = { dataDir: dir, cwd: dir, env: {}, dataDirPollMs: 100 };
  const ctx = createContext(options);
  const services = createApiServices(ctx);
  const running = await startAdminServer({
    ctx,
    routes: ALL_ROUTES,
    services,
    host: '127.0.0.1',
    port: 0,
  });
  // Another process's view of the same data directory (the CLI, a `serve`).
  const other = createContext(options);
  const clients: SseClient[] = [];
  t.after(async () => {
    for (const c of clients) c.close();
    await running.close();
    await services.close();
    other.close();
    ctx.close();
  });
  const events = async (headers: Record<string, string> = {}, query = '') => {
    const c = await openSse(`${running.url}/api/v1/events${query}`, headers);
    clients.push(c);
    return c;
  };
  return { ctx, other, url: running.url, events, services };
}

const isType =
  (type: string, fits: (d: Json) => boolean = () => true) =>
  (e: { event?: string }, d: unknown) =>
    e.event === type && fits(d as Json);

describe('admin API: live events', () => {
  it('streams Server-Sent Events with a retry hint; requests to any server arrive within a second', async (t) => {
    const { other, events } = await admin(t);
    const stream = await events();
    assert.equal(stream.status, 200);
    assert.match(stream.contentType, /^text\/event-stream/);
    const project = await createProject(other, { name: 'live' });
    await addEndpoint(other, 'live', { path: '/hello', body: 'hi' });
    const server = await startServer(other, { project: 'live', port: 0 });
    t.after(() => server.stop());
    await stream.next(
      isType('server', (d) => d.change === 'started'),
      'the server started event',
    );
    assert.deepEqual(stream.retry.length, 1);

    const res = await fetch(`${server.url}/hello?x=1`);
    assert.equal(await res.text(), 'hi');
    const answered = Date.now();
    const event = await stream.next(
      isType('request', (d) => d.path === '/hello'),
      'the request event',
      5000,
    );
    const data = JSON.parse(event.data) as Json;
    assert.deepEqual(
      { ...data, id: undefined, timestamp: undefined, durationMs: undefined, endpointId: undefined },
      {
        id: undefined,
        projectId: project.id,
        endpointId: undefined,
        method: 'GET',
        path: '/hello',
        status: 200,
        durationMs: undefined,
        timestamp: undefined,
      },
    );
    assert.equal(typeof data.endpointId, 'string');
    assert.ok(event.at - answered < 1000, `arrived ${event.at - answered} ms after the answer`);
    await server.stop();
    await stream.next(
      isType('server', (d) => d.change === 'stopped'),
      'the server stopped event',
    );
  });

  it('tells project and endpoint changes apart, from any process and from hand edits', async (t) => {
    const { other, events } = await admin(t);
    const stream = await events();
    const project = await createProject(other, { name: 'watched' });
    const id = project.id;
    await stream.next(
      isType('projects', (d) => d.projectId === id && d.change === 'created'),
      'created',
    );
    await addEndpoint(other, 'watched', { path: '/a' });
    await stream.next(
      isType('endpoints', (d) => d.projectId === id && d.count === 1),
      'endpoint added',
    );
    await updateProject(other, 'watched', { description: 'changed' });
    await stream.next(
      isType('projects', (d) => d.projectId === id && d.change === 'updated'),
      'project updated',
    );
    // A hand edit of endpoints.json.
    writeEndpoints(join(other.dataDir, 'projects', id), [{ path: '/x' }, { path: '/y' }]);
    await stream.next(
      isType('endpoints', (d) => d.projectId === id && d.count === 2),
      'the hand edit',
    );
    const endpointEvents = stream.events.filter((e) => e.event === 'endpoints').length;
    const projectEvents = stream.events.filter((e) => e.event === 'projects').length;
    assert.equal(endpointEvents, 2, 'the project change was not an endpoints change');
    assert.equal(projectEvents, 2, 'the endpoint changes were not project changes');
    const { deleteProject } = await import('../../src/app/projects.js');
    await deleteProject(other, id);
    await stream.next(
      isType('projects', (d) => d.projectId === id && d.change === 'deleted'),
      'deleted',
    );
  });

  it('sends every setting when one changes, from any process (the UI applies a new theme at once)', async (t) => {
    const { other, events } = await admin(t);
    const stream = await events();
    const settingsEvents = () => stream.events.filter((e) => e.event === 'settings');
    // The source starts with the first client and takes the settings as they are then: change
    // them (again every few polls) until the first event shows it is watching.
    let polls = 0;
    let port = 4000;
    await waitUntil(async () => {
      if (polls++ % 12 === 0) await other.settings.update({ defaultPort: ++port });
      return settingsEvents().length > 0;
    }, 'a settings event');
    // Settled: the last change made has been sent, and no other is pending.
    await stream.next(
      isType('settings', (d) => d.defaultPort === port),
      'the last port',
    );
    const seen = settingsEvents().length;
    await other.settings.update({ defaultPort: port }); // changes nothing
    await other.settings.update({ theme: 'dark' });
    const event = await stream.next(
      isType('settings', (d) => d.theme === 'dark'),
      'the theme change',
    );
    const data = JSON.parse(event.data) as Json;
    assert.deepEqual([data.defaultPort, data.confirmBeforeDelete], [port, true], 'every setting is sent');
    assert.equal(settingsEvents().length, seen + 1, 'a write that changes nothing sends nothing');
  });

  it('watches projects kept in folders of their own too', async (t) => {
    const { other, events } = await admin(t);
    const { dir, cleanup } = tempDir('mockdev-api-folder-');
    t.after(cleanup);
    const before = await initProject(other, { path: join(dir, 'known'), name: 'known' });
    const stream = await events();
    // The stream watches a folder project once it has looked it up: add endpoints until one is seen.
    await waitUntil(async () => {
      await addEndpoint(other, before.id, { path: `/e${Date.now()}` });
      return stream.next(
        isType('endpoints', (d) => d.projectId === before.id),
        'an endpoints event of the folder project',
        1000,
      );
    }, 'an endpoints event of the folder project');
    const later = await initProject(other, { path: join(dir, 'later'), name: 'later' });
    await stream.next(
      isType('projects', (d) => d.projectId === later.id && d.change === 'created'),
      'the new folder project',
      15_000,
    );
  });

  it('replays what a reconnecting client missed (Last-Event-ID, or ?lastEventId=)', async (t) => {
    const { other, events } = await admin(t);
    const first = await events();
    for (const name of ['p1', 'p2', 'p3']) await createProject(other, { name });
    await first.next(
      (e, d) => e.event === 'projects' && (d as Json).change === 'created' && first.events.length >= 3,
      'three events',
    );
    first.close();
    const ids = first.events.map((e) => Number(e.id));
    assert.deepEqual(ids, [ids[0]!, ids[0]! + 1, ids[0]! + 2], 'ids grow by one');
    const again = await events({ 'Last-Event-ID': String(ids[0]) });
    await again.next(() => again.events.length >= 2, 'the two missed events');
    assert.deepEqual(
      again.events.map((e) => Number(e.id)),
      ids.slice(1),
    );
    const byQuery = await events({}, `?lastEventId=${ids[1]}`);
    await byQuery.next(() => byQuery.events.length >= 1, 'the missed event');
    assert.deepEqual(
      byQuery.events.map((e) => Number(e.id)),
      ids.slice(2),
    );
  });

  it('refuses a foreign Origin before streaming', async (t) => {
    const { url } = await admin(t);
    const res = await fetch(`${url}/api/v1/events`, { headers: { origin: 'http://evil.example' } });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    await res.body?.cancel();
  });
});
