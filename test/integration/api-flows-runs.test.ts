/**
 * Admin API: flow runs. Listing and waiting (`?wait=`) over runs a server's writer saves, the
 * live `flow-run` events over a socket as a run starts, its steps finish and it ends, and a run
 * started by hand on a server the API runs, calling back a receiver on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createContext, type AppContext } from '../../src/app/context.js';
import { startAdminServer } from '../../src/api/http.js';
import type { ApiServices } from '../../src/api/route.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createApiServices } from '../../src/api/services.js';
import type { FlowRun } from '../../src/core/model/flow.js';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { openSse } from '../helpers/sse.js';
import { waitUntil } from '../helpers/wait.js';

type Json = Record<string, unknown>;
type Flow = { id: string; name: string; steps: { id: string; label?: string }[] };

/** A flow of two callbacks (`first` at once, `second` after it), created through the API. */
async function twoStepFlow(api: ApiSandbox, url: string, name = 'Push'): Promise<Flow> {
  const r = await api.call('POST', '/api/v1/projects/Shop/flows', {
    body: {
      name,
      steps: [
        {
          label: 'first',
          trigger: { type: 'delay', ms: 0 },
          action: { type: 'callback', url: `${url}/first` },
        },
        {
          label: 'second',
          trigger: { type: 'after', stepId: 'first' },
          action: { type: 'callback', url: `${url}/second`, body: '{"run":"{{run.id}}"}' },
        },
      ],
    },
  });
  assert.equal(r.status, 201, r.body);
  return r.json as Flow;
}

/** A run of `flow` as a server records it: running, every step pending. */
function runOf(projectId: string, flow: Flow, id: string, startedAt = new Date().toISOString()): FlowRun {
  return {
    id,
    projectId,
    flowId: flow.id,
    flowName: flow.name,
    startedBy: 'start',
    requestId: null,
    request: null,
    startedAt,
    finishedAt: null,
    status: 'running',
    steps: flow.steps.map((s) => ({
      stepId: s.id,
      label: s.label ?? null,
      status: 'pending',
      firedAt: null,
      finishedAt: null,
    })),
  };
}

/** The run with its first `n` steps completed (a callback answered 200); ended when all are. */
function advanced(run: FlowRun, n: number): FlowRun {
  const at = new Date().toISOString();
  const steps = run.steps.map((s, i) =>
    i < n
      ? {
          ...s,
          status: 'completed' as const,
          firedAt: at,
          finishedAt: at,
          callback: {
            method: 'POST',
            url: 'http://127.0.0.1:9/',
            status: 200,
            durationMs: 3,
            attempts: 1,
            error: null,
          },
        }
      : s,
  );
  const done = n >= run.steps.length;
  return { ...run, steps, status: done ? 'completed' : 'running', finishedAt: done ? at : null };
}

/** A receiver of callbacks on 127.0.0.1: every request's method, path and body. */
async function receiver(t: AfterHook) {
  const received: { method: string; path: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method!, path: req.url!, body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function shop(api: ApiSandbox): Promise<string> {
  const r = await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
  assert.equal(r.status, 201, r.body);
  return (r.json as Json).id as string;
}

/** A writer of runs, as a server of another process has. */
function writerOf(t: AfterHook, ctx: AppContext, projectId: string) {
  const writer = ctx.flowRuns.openWriter({ projectId, limit: 1000 });
  t.after(() => writer.close());
  return writer;
}

describe('admin API: flow runs', () => {
  it('lists runs newest first, of one flow with ?flow=, at most ?limit=', async (t) => {
    const api = apiSandbox(t);
    const projectId = await shop(api);
    const push = await twoStepFlow(api, 'http://127.0.0.1:9');
    const other = await twoStepFlow(api, 'http://127.0.0.1:9', 'Other');
    const writer = writerOf(t, api.ctx, projectId);
    const t0 = Date.now();
    writer.save(runOf(projectId, push, 'run-1', new Date(t0 - 3000).toISOString()));
    writer.save(runOf(projectId, other, 'run-2', new Date(t0 - 2000).toISOString()));
    writer.save(advanced(runOf(projectId, push, 'run-3', new Date(t0 - 1000).toISOString()), 2));
    const runs = '/api/v1/projects/Shop/flow-runs';
    await waitUntil(
      async () => ((await api.call('GET', runs)).json as FlowRun[]).length === 3,
      'the runs stored',
    );
    assert.deepEqual(
      ((await api.call('GET', runs)).json as FlowRun[]).map((r) => r.id),
      ['run-3', 'run-2', 'run-1'],
    );
    const ofPush = (await api.call('GET', `${runs}?flow=Push`)).json as FlowRun[];
    assert.deepEqual(
      ofPush.map((r) => [r.id, r.status, r.steps.map((s) => s.status).join()]),
      [
        ['run-3', 'completed', 'completed,completed'],
        ['run-1', 'running', 'pending,pending'],
      ],
    );
    assert.deepEqual(
      ((await api.call('GET', `${runs}?flow=${other.id}&limit=1`)).json as FlowRun[]).map((r) => r.id),
      ['run-2'],
    );
    assert.deepEqual(
      ((await api.call('GET', `${runs}?limit=1`)).json as FlowRun[]).map((r) => r.id),
      ['run-3'],
    );
    const one = await api.call('GET', `${runs}/run-3`);
    assert.equal(one.status, 200, one.body);
    assert.equal((one.json as FlowRun).steps[1]!.callback?.status, 200);
  });

  it('?wait= answers when the run ends, or with the run still running when the wait is over; other calls are answered meanwhile', async (t) => {
    const api = apiSandbox(t);
    const projectId = await shop(api);
    const push = await twoStepFlow(api, 'http://127.0.0.1:9');
    const writer = writerOf(t, api.ctx, projectId);
    const run = runOf(projectId, push, 'run-w');
    writer.save(run);
    const url = '/api/v1/projects/Shop/flow-runs/run-w';
    await waitUntil(async () => (await api.call('GET', url)).status === 200, 'the run stored');

    // The wait is over first: the run as it is, still running.
    const before = Date.now();
    const timedOut = await api.call('GET', `${url}?wait=300`);
    assert.equal(timedOut.status, 200, timedOut.body);
    assert.equal((timedOut.json as FlowRun).status, 'running');
    assert.ok(
      Date.now() - before >= 250,
      `answered after ${Date.now() - before} ms, before the wait was over`,
    );

    // The run ends first: answered then, long before the wait is over.
    const started = Date.now();
    const waiting = api.call('GET', `${url}?wait=30000`);
    // Meanwhile the API answers other calls (the wait holds nothing).
    const listed = await api.call('GET', '/api/v1/projects/Shop/flows');
    assert.equal(listed.status, 200);
    writer.save(advanced(run, 1));
    await new Promise((r) => setTimeout(r, 200));
    writer.save(advanced(run, 2));
    const ended = await waiting;
    assert.equal(ended.status, 200, ended.body);
    assert.equal((ended.json as FlowRun).status, 'completed');
    assert.ok(Date.now() - started < 10_000, `answered ${Date.now() - started} ms later`);
  });

  it('streams a flows event when a project’s flows change, and a flow-run event each time a run is saved: started, a step finished, ended', async (t) => {
    const services: ApiServices = {};
    const api = apiSandbox(t, { services });
    const own = createApiServices(api.ctx, { watchers: { flowRunPollMs: 50 } });
    Object.assign(services, own);
    const admin = await startAdminServer({
      ctx: api.ctx,
      routes: ALL_ROUTES,
      services,
      host: '127.0.0.1',
      port: 0,
    });
    const other = createContext({ dataDir: api.dataDir, cwd: api.dataDir, env: {} }); // a server's process
    const stream = await openSse(`${admin.url}/api/v1/events`);
    t.after(async () => {
      stream.close();
      await admin.close();
      await own.close();
      other.close();
    });
    const projectId = await shop(api);
    await stream.next(
      (e, d) => e.event === 'projects' && (d as Json).projectId === projectId,
      'the project created',
    );
    const push = await twoStepFlow(api, 'http://127.0.0.1:9');
    // A change of the project's flows is told as such (the UI reloads its flow list).
    const flows = await stream.next(
      (e, d) => e.event === 'flows' && (d as Json).projectId === projectId,
      'the flows changed',
    );
    assert.deepEqual(JSON.parse(flows.data), { projectId, name: 'Shop', change: 'updated', count: 1 });
    const writer = writerOf(t, other, projectId);
    const run = runOf(projectId, push, 'run-e');
    const event = (fits: (r: FlowRun) => boolean, what: string, timeoutMs = 10_000) =>
      stream.next((e, d) => e.event === 'flow-run' && fits(d as FlowRun), what, timeoutMs);
    // The source reads from the first subscriber on: save until the first event shows it is watching.
    await waitUntil(
      async () => {
        writer.save(run);
        return event((r) => r.id === 'run-e', 'the run started', 1000).then(
          () => true,
          () => false,
        );
      },
      'the first flow-run event',
      20_000,
    );
    writer.save(advanced(run, 1));
    const step = await event((r) => r.steps[0]!.status === 'completed', 'the first step finished');
    writer.save(advanced(run, 2));
    const end = await event((r) => r.status === 'completed', 'the run ended');
    const data = JSON.parse(end.data) as FlowRun;
    assert.deepEqual([data.projectId, data.flowId, data.flowName], [projectId, push.id, 'Push']);
    assert.equal(data.steps[1]!.callback?.status, 200);
    assert.ok(Number(end.id) > Number(step.id));
  });

  it('starts a run by hand on the project’s server (202), which calls back; ?wait= follows it to its end', async (t) => {
    const services: ApiServices = {};
    const api = apiSandbox(t, { services });
    const own = createApiServices(api.ctx);
    Object.assign(services, own);
    t.after(() => own.close());
    await shop(api);
    const hook = await receiver(t);
    const push = await twoStepFlow(api, hook.url);

    const none = await api.call('POST', `/api/v1/projects/Shop/flows/Push/runs`);
    assert.equal(none.status, 409, `no server runs: ${none.body}`);
    assert.equal((none.json as Json).code, 'CONFLICT');
    assert.match((none.json as Json).detail as string, /mockdev serve Shop/);

    const server = await api.call('PUT', '/api/v1/projects/Shop/server', { body: { port: 0 } });
    assert.equal(server.status, 201, server.body);
    const started = await api.call('POST', `/api/v1/projects/Shop/flows/${push.id}/runs`);
    assert.equal(started.status, 202, started.body);
    const run = started.json as FlowRun;
    assert.deepEqual([run.flowId, run.startedBy], [push.id, 'manual']);

    const ended = await api.call('GET', `/api/v1/projects/Shop/flow-runs/${run.id}?wait=20000`);
    assert.equal(ended.status, 200, ended.body);
    const done = ended.json as FlowRun;
    assert.equal(done.status, 'completed', ended.body);
    assert.deepEqual(
      done.steps.map((s) => [s.label, s.status, s.callback?.status]),
      [
        ['first', 'completed', 200],
        ['second', 'completed', 200],
      ],
    );
    // The flow has no request trigger: the server also ran it when it started. This run's
    // second callback carried its id.
    const ofThisRun = hook.received.filter((r) => r.path === '/second' && r.body.includes(run.id));
    assert.deepEqual(
      ofThisRun.map((r) => [r.method, JSON.parse(r.body)]),
      [['POST', { run: run.id }]],
    );
  });
});
