import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALLBACK_RETRY_BASE_MS, FLOW_STOP_GRACE_MS } from '../../src/core/model/limits.js';
import { endpointOf } from '../helpers/endpoint.js';
import {
  after,
  callback,
  delay,
  flow,
  onRequest,
  post,
  proxyThrough,
  respond,
  serveFlows,
  startReceiver,
} from '../helpers/flow-runtime.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Flows at run time, continued: the depth guard against a flow calling its own server, retries
 * and failures, respond and proxy steps, many runs at once, and a stop with steps pending.
 */

describe('flows at run time: guards, failures, actions, load, stop', () => {
  it('stops a flow calling its own server at depth 10, with one warning line', async (t) => {
    const served = await serveFlows(t, [endpointOf('loop', { method: 'POST', path: '/loop' })], []);
    // The flow names the server's own URL: saved once the server listens (a live reload).
    await served.save({
      flows: [
        flow('loop', [
          { id: 's', trigger: onRequest('loop'), action: callback(`${served.server.url}/loop`) },
        ]),
      ],
    });
    await waitUntil(() => served.server.endpoints().length === 1, 'the reload');
    await (await post(`${served.server.url}/loop`, {})).text();
    await waitUntil(
      () => served.warnings.some((w) => w.includes('X-Mockdev-Flow-Depth: 10')),
      'the depth warning',
    );
    await waitUntil(
      () => served.runs.all().filter((r) => r.status === 'completed').length === 10,
      '10 runs to end',
    );
    assert.equal(served.runs.all().length, 10, 'requests of depth 0 to 9 each started one run');
    assert.deepEqual(served.warnings, [
      'POST /loop came with X-Mockdev-Flow-Depth: 10 (10 or more): it starts no flow run (a flow calling its own server stops here)',
    ]);
  });

  it('retries a failing receiver after CALLBACK_RETRY_BASE_MS, then records the step failed and skips the next', async (t) => {
    const receiver = await startReceiver(t);
    receiver.answer = () => ({ status: 500, body: 'broken' });
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('go')],
      [
        flow('fragile', [
          {
            id: 's1',
            label: 'hook',
            trigger: onRequest('go'),
            action: callback(`${receiver.url}/fail`, { retries: 1 }),
          },
          { id: 's2', trigger: after('s1'), action: callback(`${receiver.url}/next`) },
        ]),
      ],
    );
    await (await fetch(`${server.url}/go`)).text();
    const run = await runs.waitFor((r) => r.status !== 'running', 'the run to end');
    assert.equal(run.status, 'failed');
    const [s1, s2] = run.steps;
    assert.equal(s1!.status, 'failed');
    assert.equal(s1!.reason, 'the callback failed after 2 attempts: answered 500 Internal Server Error');
    assert.equal(s1!.callback!.attempts, 2);
    assert.equal(s1!.callback!.status, 500);
    assert.equal(s1!.callback!.url, `${receiver.url}/fail`);
    assert.ok(s1!.callback!.durationMs >= CALLBACK_RETRY_BASE_MS);
    assert.equal(s2!.status, 'skipped');
    assert.equal(s2!.reason, 'step "hook" failed');
    assert.deepEqual(
      receiver.received.map((r) => r.url),
      ['/fail', '/fail'],
    );
    const gap = receiver.received[1]!.at - receiver.received[0]!.at;
    assert.ok(gap >= CALLBACK_RETRY_BASE_MS - 5, `the retry came ${gap} ms after the first attempt`);
  });

  it('a refused connection is a failed attempt, said in one line', async (t) => {
    const receiver = await startReceiver(t);
    const closed = receiver.url;
    await receiver.close();
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('go')],
      [flow('f', [{ id: 's1', trigger: onRequest('go'), action: callback(`${closed}/x`) }])],
    );
    await (await fetch(`${server.url}/go`)).text();
    const run = await runs.waitFor((r) => r.status !== 'running', 'the run to end');
    assert.equal(run.steps[0]!.status, 'failed');
    assert.equal(run.steps[0]!.callback!.status, null);
    assert.equal(run.steps[0]!.reason, `the callback failed: connection refused by ${new URL(closed).host}`);
  });

  it('a respond step answers with another endpoint: its rules, variations and templates apply', async (t) => {
    const { server, runs } = await serveFlows(
      t,
      [
        endpointOf('orders', { method: 'GET', path: '/orders/{id}', body: 'the endpoint itself' }),
        endpointOf('answer', {
          method: 'GET',
          path: '/elsewhere',
          status: 202,
          body: '{"queued":"{{params.id}}"}',
          variations: [
            {
              id: 'v1',
              name: 'vip',
              status: 200,
              headers: { 'X-Vip': 'yes' },
              body: '{"vip":"{{params.id}}"}',
              contentType: 'application/json',
              delay: 0,
              rules: [{ source: 'param', key: 'id', op: 'equals', value: 'gold' }],
            },
          ],
        }),
      ],
      [flow('f', [{ id: 's1', trigger: onRequest('orders'), action: respond('answer') }])],
    );
    const plain = await fetch(`${server.url}/orders/o-1`);
    assert.equal(plain.status, 202);
    assert.deepEqual(await plain.json(), { queued: 'o-1' });
    const vip = await fetch(`${server.url}/orders/gold`);
    assert.equal(vip.status, 200);
    assert.equal(vip.headers.get('x-vip'), 'yes');
    assert.deepEqual(await vip.json(), { vip: 'gold' });
    await waitUntil(() => runs.all().filter((r) => r.status === 'completed').length === 2, 'both runs');
    // The endpoint answering for another keeps answering its own requests.
    assert.equal((await fetch(`${server.url}/elsewhere`)).status, 202);
  });

  it('a proxy step forwards the request through a proxy endpoint; a callback after it reads the answer', async (t) => {
    const upstream = await startReceiver(t);
    upstream.answer = (r) => ({
      status: 201,
      body: `{"echo":${r.body},"path":"${r.url}"}`,
      headers: { 'Content-Type': 'application/json' },
    });
    const receiver = await startReceiver(t);
    const { server, runs } = await serveFlows(
      t,
      [
        endpointOf('forward', { method: 'POST', path: '/forward' }),
        endpointOf('upstream', {
          kind: 'proxy',
          method: 'POST',
          path: '/upstream/*',
          proxy: { target: upstream.url, record: false },
        }),
      ],
      [
        flow('through', [
          { id: 's1', trigger: onRequest('forward'), action: proxyThrough('upstream') },
          {
            id: 's2',
            trigger: after('s1'),
            action: callback(`${receiver.url}/after`, {
              body: '{{response.status}} {{response.body.echo.a}} {{steps.s1.body.path}}',
            }),
          },
        ]),
      ],
    );
    const res = await post(`${server.url}/forward?x=1`, { a: 7 });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { echo: { a: 7 }, path: '/forward?x=1' });
    assert.equal(upstream.received[0]!.body, '{"a":7}');
    const [hook] = await receiver.waitFor(1);
    assert.equal(hook!.body, '201 7 /forward?x=1');
    const run = await runs.waitFor((r) => r.status !== 'running', 'the run to end');
    assert.equal(run.status, 'completed');
  });

  it('200 concurrent requests each start a run, and every callback is delivered exactly once', async (t) => {
    const receiver = await startReceiver(t);
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('orders', { method: 'POST', path: '/orders', status: 202, body: '{}' })],
      [
        flow('each', [
          {
            id: 's',
            trigger: onRequest('orders'),
            action: callback(`${receiver.url}/n/{{body.n}}`, { body: '{{body.n}}' }),
          },
        ]),
      ],
    );
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, n) => {
        const res = await post(`${server.url}/orders`, { n });
        await res.text();
        return res.status;
      }),
    );
    assert.ok(answers.every((s) => s === 202));
    await waitUntil(
      () => runs.all().filter((r) => r.status === 'completed').length === 200,
      '200 runs to complete',
      30_000,
    );
    const bodies = receiver.received.map((r) => Number(r.body)).sort((a, b) => a - b);
    assert.deepEqual(
      bodies,
      Array.from({ length: 200 }, (_, n) => n),
      'each callback once, none lost, none twice',
    );
    assert.equal(runs.all().length, 200);
  });

  it('a stop lets a callback in flight finish, cancels the steps after it and a pending delay at once', async (t) => {
    const receiver = await startReceiver(t);
    receiver.answer = (r) =>
      r.url === '/slow' ? { status: 200, body: '{}', delayMs: 300 } : { status: 200 };
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('go')],
      [
        flow('f', [
          { id: 's1', trigger: onRequest('go'), action: callback(`${receiver.url}/slow`) },
          { id: 's2', trigger: after('s1'), action: callback(`${receiver.url}/next`) },
          { id: 's3', trigger: delay(60_000), action: callback(`${receiver.url}/late`) },
        ]),
      ],
    );
    await (await fetch(`${server.url}/go`)).text();
    await receiver.waitFor(1);
    const t0 = Date.now();
    await server.stop();
    assert.ok(Date.now() - t0 < FLOW_STOP_GRACE_MS - 1000, `the stop took ${Date.now() - t0} ms`);
    const run = runs.all()[0]!;
    assert.equal(run.status, 'cancelled');
    assert.deepEqual(
      run.steps.map((s) => [s.status, s.reason ?? null]),
      [
        ['completed', null],
        ['cancelled', 'the server stopped'],
        ['cancelled', 'the server stopped'],
      ],
    );
    assert.deepEqual(
      receiver.received.map((r) => r.url),
      ['/slow'],
    );
  });

  it('a stop waits at most FLOW_STOP_GRACE_MS for a callback that does not answer, then cancels it', async (t) => {
    const receiver = await startReceiver(t);
    receiver.answer = () => ({ status: 200, delayMs: Infinity });
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('go')],
      [flow('f', [{ id: 's1', trigger: onRequest('go'), action: callback(`${receiver.url}/hang`) }])],
    );
    await (await fetch(`${server.url}/go`)).text();
    await receiver.waitFor(1);
    const t0 = Date.now();
    await server.stop();
    const took = Date.now() - t0;
    assert.ok(
      took >= FLOW_STOP_GRACE_MS - 100 && took < FLOW_STOP_GRACE_MS + 5000,
      `the stop took ${took} ms`,
    );
    const run = runs.all()[0]!;
    assert.equal(run.status, 'cancelled');
    assert.equal(run.steps[0]!.status, 'cancelled');
    assert.match(run.steps[0]!.reason!, /^the server stopped/);
  });
});
