import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointOf } from '../helpers/endpoint.js';
import {
  after,
  callback,
  delay,
  flow,
  onRequest,
  post,
  respond,
  serveFlows,
  startReceiver,
} from '../helpers/flow-runtime.js';

/**
 * Flows at run time over real surfaces: a server started through startServer on port 0, a real
 * callback receiver on 127.0.0.1, the runs as the server saves them (kept in memory here).
 */

describe('flows at run time', () => {
  it('SPEC example: POST answered 202 at once by a respond step, the callback after the delay with a templated body', async (t) => {
    const receiver = await startReceiver(t);
    const { server, runs } = await serveFlows(
      t,
      [
        endpointOf('orders', { method: 'POST', path: '/orders', status: 500, body: 'not this' }),
        endpointOf('accepted', {
          method: 'POST',
          path: '/accepted',
          status: 202,
          body: '{"status":"accepted","orderId":"{{body.order.id}}"}',
        }),
      ],
      [
        flow('order-accepted', [
          { id: 's1', trigger: onRequest('orders'), action: respond('accepted') },
          {
            id: 's2',
            label: 'notify',
            trigger: delay(400),
            action: callback(`${receiver.url}/hooks/orders`, {
              headers: { 'X-Order': '{{body.order.id}}' },
              body: '{"orderId":"{{body.order.id}}","status":"{{response.body.status}}","code":{{response.status}},"run":"{{run.id}}"}',
            }),
          },
        ]),
      ],
    );
    const sent = Date.now();
    const res = await post(`${server.url}/orders`, { order: { id: 'o-42' } });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { status: 'accepted', orderId: 'o-42' });
    assert.equal(receiver.received.length, 0, 'the response comes first');
    const [hook] = await receiver.waitFor(1);
    const run = await runs.waitFor((r) => r.status !== 'running', 'the run to end');
    assert.equal(run.status, 'completed');
    assert.equal(hook!.method, 'POST');
    assert.equal(hook!.url, '/hooks/orders');
    assert.equal(hook!.headers['x-order'], 'o-42');
    assert.equal(hook!.headers['x-mockdev-flow-depth'], '1');
    assert.deepEqual(JSON.parse(hook!.body), { orderId: 'o-42', status: 'accepted', code: 202, run: run.id });
    assert.ok(hook!.at - sent >= 400 - 5, `the callback came ${hook!.at - sent} ms after the request`);
    assert.equal(run.flowName, 'order-accepted');
    assert.equal(run.request?.method, 'POST');
    assert.deepEqual(
      run.steps.map((s) => [s.stepId, s.status, s.callback?.status ?? null]),
      [
        ['s1', 'completed', null],
        ['s2', 'completed', 200],
      ],
    );
  });

  it('fires a delay step within ±200 ms of its delay', async (t) => {
    const receiver = await startReceiver(t);
    const { server } = await serveFlows(
      t,
      [endpointOf('ping')],
      [
        flow('later', [
          { id: 'r', trigger: onRequest('ping'), action: respond('ping') },
          { id: 's', trigger: delay(700), action: callback(`${receiver.url}/later`) },
        ]),
      ],
    );
    const sent = Date.now();
    await (await fetch(`${server.url}/ping`)).text();
    const [hook] = await receiver.waitFor(1);
    const took = hook!.at - sent;
    assert.ok(Math.abs(took - 700) <= 200, `the delay of 700 ms fired after ${took} ms`);
  });

  it('chains after steps: a callback reads the response served and an earlier callback answer', async (t) => {
    const receiver = await startReceiver(t);
    receiver.answer = (r) =>
      r.url === '/token'
        ? {
            status: 201,
            body: '{"token":"tk-9","nested":{"n":3}}',
            headers: { 'Content-Type': 'application/json' },
          }
        : { status: 200, body: 'thanks' };
    const { server, runs } = await serveFlows(
      t,
      [
        endpointOf('signup', {
          method: 'POST',
          path: '/users/{id}',
          status: 201,
          body: '{"user":"{{params.id}}"}',
        }),
      ],
      [
        flow('chain', [
          {
            id: 's1',
            trigger: onRequest('signup'),
            action: callback(`${receiver.url}/token`, { body: '{{body.email}}' }),
          },
          {
            id: 's2',
            trigger: after('s1', 100),
            action: callback(`${receiver.url}/welcome/{{steps.s1.body.token}}`, {
              body: '{"user":"{{response.body.user}}","status":{{response.status}},"tokenStatus":{{steps.s1.status}},"n":{{steps.s1.body.nested.n}},"q":"{{query.ref}}"}',
            }),
          },
        ]),
      ],
    );
    await (await post(`${server.url}/users/u-5?ref=ad`, { email: 'a@b.test' })).text();
    const [first, second] = await receiver.waitFor(2);
    assert.equal(first!.body, 'a@b.test');
    assert.equal(first!.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(second!.url, '/welcome/tk-9');
    assert.deepEqual(JSON.parse(second!.body), { user: 'u-5', status: 201, tokenStatus: 201, n: 3, q: 'ad' });
    assert.ok(second!.at - first!.at >= 95, 'the after step waited its delayMs');
    const run = await runs.waitFor((r) => r.status !== 'running', 'the run to end');
    assert.equal(run.status, 'completed');
  });

  it('a disabled flow starts nothing; an enabled one beside it does', async (t) => {
    const receiver = await startReceiver(t);
    const { server, runs } = await serveFlows(
      t,
      [endpointOf('a'), endpointOf('b')],
      [
        flow('off', [{ id: 's', trigger: onRequest('a'), action: callback(`${receiver.url}/off`) }], {
          enabled: false,
        }),
        flow('pushed-off', [{ id: 's', trigger: delay(0), action: callback(`${receiver.url}/off-push`) }], {
          enabled: false,
        }),
        flow('on', [{ id: 's', trigger: onRequest('b'), action: callback(`${receiver.url}/on`) }]),
      ],
    );
    assert.equal((await fetch(`${server.url}/a`)).status, 200);
    await (await fetch(`${server.url}/b`)).text();
    await runs.waitFor((r) => r.flowId === 'on' && r.status === 'completed', 'the enabled flow');
    await receiver.waitFor(1);
    assert.deepEqual(
      receiver.received.map((r) => r.url),
      ['/on'],
    );
    assert.deepEqual(
      runs.all().map((r) => r.flowId),
      ['on'],
    );
  });

  it('starts a flow no request starts when the server starts, when it is enabled, and by hand (requestRun)', async (t) => {
    const receiver = await startReceiver(t);
    const push = (name: string, enabled = true) =>
      flow(
        name,
        [{ id: 's', trigger: delay(0), action: callback(`${receiver.url}/${name}?run={{run.id}}`) }],
        {
          enabled,
        },
      );
    const served = await serveFlows(t, [endpointOf('x')], [push('at-start'), push('later', false)]);
    const { server, runs } = served;
    const started = await runs.waitFor(
      (r) => r.flowId === 'at-start' && r.status === 'completed',
      'the start run',
    );
    assert.equal(started.startedBy, 'start');
    assert.equal(started.request, null);
    await served.save({ flows: [push('at-start'), push('later')] });
    const enabled = await runs.waitFor(
      (r) => r.flowId === 'later' && r.status === 'completed',
      'the enabled run',
    );
    assert.equal(enabled.startedBy, 'enabled');
    assert.equal(
      served.ctx.servers.requestRun(server.record, { runId: 'manual-1', flowId: 'at-start' }),
      true,
    );
    const manual = await runs.waitFor(
      (r) => r.id === 'manual-1' && r.status === 'completed',
      'the manual run',
    );
    assert.equal(manual.startedBy, 'manual');
    await receiver.waitFor(3);
    assert.deepEqual(
      receiver.received.map((r) => r.url).sort(),
      [`/at-start?run=${started.id}`, `/at-start?run=manual-1`, `/later?run=${enabled.id}`].sort(),
    );
  });
});
