import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { Flow } from '../../core/model/flow.js';
import type { NewRequestRecord, RequestLogWriter } from '../../core/ports.js';
import { listen } from '../../http/listen.js';
import { endpointOf } from '../../../test/helpers/endpoint.js';
import { callback, delay, flow, memoryRuns, onRequest, respond } from '../../../test/helpers/flow-runtime.js';
import { waitUntil } from '../../../test/helpers/wait.js';
import { compileProject, type CompiledProject } from '../compile.js';
import { createMockHandler } from '../handler.js';
import type { CallbackRequest, SendCallback } from './callback.js';
import { FlowEngine } from './engine.js';

const endpoint = endpointOf;

const NO_ENV = { variables: {}, secrets: [] };

/**
 * A mock handler on 127.0.0.1 (port 0) over `endpoints` and `flows`, with a flow engine whose
 * callbacks are recorded (answered 200) and whose runs are kept in memory.
 */
async function harness(t: { after(fn: () => unknown): void }, endpoints: Endpoint[], flows: Flow[]) {
  const runs = memoryRuns();
  const warnings: string[] = [];
  const sent: CallbackRequest[] = [];
  const send: SendCallback = async (req) => {
    sent.push(req);
    return { status: 200, statusText: 'OK', headers: [], body: Buffer.from('{}') };
  };
  const engine = new FlowEngine({
    projectId: 'p1',
    openWriter: () => runs.writer,
    warn: (m) => warnings.push(m),
    send,
    refTimers: true,
  });
  const compile = (fl: Flow[]) =>
    compileProject(endpoints, 1 << 20, {}, {}, (c, as) => engine.compile(fl, c, as, NO_ENV));
  let project: CompiledProject = compile(flows);
  const records: NewRequestRecord[] = [];
  const log: RequestLogWriter = { lost: 0, push: (r) => void records.push(r), close: async () => undefined };
  const handler = createMockHandler({
    current: () => project,
    log,
    bodyLimitBytes: 1 << 20,
    requestSizeLimitBytes: 1 << 20,
  });
  const server = await listen(handler, { host: '127.0.0.1', port: 0 });
  t.after(async () => {
    server.server.close();
    await engine.stop();
  });
  return {
    engine,
    runs,
    warnings,
    sent,
    records,
    url: server.url,
    project: () => project,
    reload: (fl: Flow[]) => (project = compile(fl)),
  };
}

const hookStep = (endpointId: string, url: string) => ({
  id: 'cb',
  trigger: onRequest(endpointId),
  action: callback(url),
});

describe('the flow engine', () => {
  it('leaves an endpoint no flow names exactly as compiled, with no flow stage', async (t) => {
    const eps = [endpoint('plain'), endpoint('hooked')];
    const h = await harness(t, eps, [flow('f', [hookStep('hooked', 'http://cb.test/x')])]);
    const bare = compileProject(eps, 1 << 20);
    const plain = h.project().routes.endpoints.find((e) => e.id === 'plain')!;
    assert.deepEqual(Object.keys(plain).sort(), Object.keys(bare.routes.endpoints[0]!).sort());
    assert.equal(plain.startRuns, undefined);
    assert.equal(typeof h.project().routes.endpoints.find((e) => e.id === 'hooked')!.startRuns, 'function');
    await (await fetch(`${h.url}/plain`)).text();
    await (await fetch(`${h.url}/hooked`)).text();
    await h.runs.waitFor((r) => r.status === 'completed', 'the run of /hooked');
    assert.equal(h.runs.all().length, 1);
    assert.equal(h.sent.length, 1);
  });

  it('starts a run per flow naming the endpoint, with the request log record as its request', async (t) => {
    const h = await harness(
      t,
      [endpoint('orders', { method: 'POST', path: '/orders' })],
      [
        flow('a', [hookStep('orders', 'http://cb.test/a')]),
        flow('b', [hookStep('orders', 'http://cb.test/b')]),
      ],
    );
    await (await fetch(`${h.url}/orders?x=1`, { method: 'POST', body: '{}' })).text();
    await waitUntil(() => h.runs.all().filter((r) => r.status === 'completed').length === 2, 'two runs');
    const record = h.records[0]!;
    for (const run of h.runs.all()) {
      assert.deepEqual(run.request, { method: 'POST', url: '/orders?x=1', ts: record.ts });
      assert.equal(run.startedBy, 'request');
    }
    assert.deepEqual(h.sent.map((s) => s.url.pathname).sort(), ['/a', '/b']);
  });

  it('guards depth: a request at FLOW_DEPTH_MAX starts no run (a warning says so); below, callbacks carry one more', async (t) => {
    const h = await harness(t, [endpoint('hook')], [flow('f', [hookStep('hook', 'http://cb.test/x')])]);
    const deep = await fetch(`${h.url}/hook`, { headers: { 'X-Mockdev-Flow-Depth': '10' } });
    assert.equal(deep.status, 200, 'the request itself is answered');
    await deep.text();
    await waitUntil(() => h.warnings.length > 0, 'the warning');
    assert.equal(
      h.warnings[0],
      'GET /hook came with X-Mockdev-Flow-Depth: 10 (10 or more): it starts no flow run (a flow calling its own server stops here)',
    );
    assert.equal(h.runs.all().length, 0);
    await (await fetch(`${h.url}/hook`, { headers: { 'X-Mockdev-Flow-Depth': '9' } })).text();
    await h.runs.waitFor((r) => r.status === 'completed', 'the run');
    assert.equal(h.sent[0]!.headers['X-Mockdev-Flow-Depth'], '10');
  });

  it('answers with the endpoint a respond step names (its template reading the path of the request)', async (t) => {
    const h = await harness(
      t,
      [
        endpoint('orders', { method: 'POST', path: '/orders/{id}', status: 200, body: 'never sent' }),
        endpoint('accepted', {
          method: 'GET',
          path: '/accepted',
          status: 202,
          body: '{"accepted":"{{params.id}}"}',
        }),
      ],
      [flow('f', [{ id: 'answer', trigger: onRequest('orders'), action: respond('accepted') }])],
    );
    const res = await fetch(`${h.url}/orders/o-1`, { method: 'POST' });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { accepted: 'o-1' });
    assert.equal(
      h.records[0]!.endpointId,
      'orders',
      'the request log names the endpoint the request reached',
    );
    const run = await h.runs.waitFor((r) => r.status === 'completed', 'the run');
    assert.equal(run.steps[0]!.status, 'completed');
  });

  it('records a run asked for by hand under its id; an unknown or disabled flow as cancelled with no steps', async (t) => {
    const h = await harness(
      t,
      [endpoint('x')],
      [
        flow('on', [{ id: 's', trigger: delay(0), action: callback('http://cb.test/m') }]),
        flow('off', [{ id: 's', trigger: delay(0), action: callback('http://cb.test/n') }], {
          enabled: false,
        }),
      ],
    );
    h.engine.requestRun({ runId: 'r-on', flowId: 'on' });
    h.engine.requestRun({ runId: 'r-off', flowId: 'off' });
    h.engine.requestRun({ runId: 'r-gone', flowId: 'gone' });
    const on = await h.runs.waitFor((r) => r.id === 'r-on' && r.status !== 'running', 'the manual run');
    assert.equal(on.status, 'completed');
    assert.equal(on.startedBy, 'manual');
    for (const id of ['r-off', 'r-gone']) {
      const r = h.runs.get(id)!;
      assert.equal(r.status, 'cancelled');
      assert.deepEqual(r.steps, []);
    }
    assert.deepEqual(
      h.sent.map((s) => s.url.pathname),
      ['/m'],
    );
  });

  it('starts flows no request starts when the server begins and when enabled later; disabling cancels pending steps', async (t) => {
    const steps = (path: string, ms = 0): Flow['steps'] => [
      { id: 's', trigger: delay(ms), action: callback(`http://cb.test${path}`) },
    ];
    const h = await harness(
      t,
      [endpoint('x')],
      [flow('push', steps('/push')), flow('later', steps('/later'), { enabled: false })],
    );
    assert.equal(h.runs.all().length, 0, 'nothing runs before the server begins');
    h.engine.begin();
    const pushed = await h.runs.waitFor(
      (r) => r.flowId === 'push' && r.status === 'completed',
      'the start run',
    );
    assert.equal(pushed.startedBy, 'start');
    h.reload([flow('push', steps('/push')), flow('later', steps('/later', 60_000))]);
    const enabled = await h.runs.waitFor((r) => r.flowId === 'later', 'the enabled run');
    assert.equal(enabled.startedBy, 'enabled');
    assert.equal(
      h.runs.all().filter((r) => r.flowId === 'push').length,
      1,
      'a flow still enabled starts no new run',
    );
    h.reload([flow('push', steps('/push')), flow('later', steps('/later', 60_000), { enabled: false })]);
    const cancelled = await h.runs.waitFor(
      (r) => r.flowId === 'later' && r.status === 'cancelled',
      'the cancel',
    );
    assert.equal(cancelled.steps[0]!.status, 'cancelled');
    assert.equal(cancelled.steps[0]!.reason, 'the flow was disabled');
  });

  it('a stop cancels a delay at once, without waiting for it, and closes the writer', async (t) => {
    const h = await harness(
      t,
      [endpoint('x')],
      [flow('f', [{ id: 's', trigger: delay(60_000), action: callback('http://cb.test/late') }])],
    );
    h.engine.begin();
    const t0 = Date.now();
    await h.engine.stop();
    assert.ok(Date.now() - t0 < 1000, `the stop took ${Date.now() - t0} ms`);
    const run = h.runs.all()[0]!;
    assert.equal(run.status, 'cancelled');
    assert.equal(run.steps[0]!.status, 'cancelled');
    assert.equal(run.steps[0]!.reason, 'the server stopped');
    assert.equal(h.runs.writer.closed, true);
  });
});
