/**
 * Admin API: flows (in process, through the handler): every route of `mockdev flow …` over
 * HTTP, validation errors as 400 problem+json naming the field, unknown flows, steps and runs
 * as 404. Runs started by hand and the live events: api-flows-runs.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiResult, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';

type Json = Record<string, unknown>;
type Step = { id: string; label?: string; trigger: Json; action: Json };
type Flow = { id: string; name: string; description: string; enabled: boolean; steps: Step[] };

const FLOWS = '/api/v1/projects/Shop/flows';

/** The API over a project Shop with POST /orders (202) and a proxy endpoint. */
async function shopApi(t: AfterHook): Promise<ApiSandbox & { orders: string; proxy: string }> {
  const api = apiSandbox(t);
  assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).status, 201);
  const orders = await api.call('POST', '/api/v1/projects/Shop/endpoints', {
    body: { method: 'POST', path: '/orders', status: 202, body: '{"accepted":true}' },
  });
  assert.equal(orders.status, 201, orders.body);
  const proxy = await api.call('POST', '/api/v1/projects/Shop/endpoints', {
    body: { path: '/upstream/*', kind: 'proxy', proxy: { target: 'http://127.0.0.1:9' } },
  });
  assert.equal(proxy.status, 201, proxy.body);
  return { ...api, orders: (orders.json as Json).id as string, proxy: (proxy.json as Json).id as string };
}

/** The SPEC example: answer POST /orders, then call a webhook 100 ms later. */
const orderFlow = (callbackUrl = 'http://127.0.0.1:9/hooks/orders') => ({
  name: 'Order webhook',
  description: 'Accept, then notify',
  steps: [
    {
      label: 'accept',
      trigger: { type: 'request', endpointId: 'POST /orders' },
      action: { type: 'respond', endpointId: 'POST /orders' },
    },
    {
      label: 'notify',
      trigger: { type: 'after', stepId: 'accept', delayMs: 100 },
      action: { type: 'callback', url: callbackUrl, body: '{"order":"{{body.id}}"}' },
    },
  ],
});

async function created(api: ApiSandbox, body: unknown = orderFlow()): Promise<Flow> {
  const r = await api.call('POST', FLOWS, { body });
  assert.equal(r.status, 201, r.body);
  return r.json as Flow;
}

/** A 400 problem+json naming `field` in details.field, its detail matching `detail`. */
function assertFieldProblem(r: ApiResult, field: string, detail: RegExp): void {
  assert.equal(r.status, 400, r.body);
  assert.match(r.headers['Content-Type']!, /^application\/problem\+json/);
  const p = r.json as Json;
  assert.equal(p.code, 'INVALID_ARGUMENT');
  assert.equal((p.details as Json | undefined)?.field, field, r.body);
  assert.match(p.detail as string, detail);
}

function assertNotFound(r: ApiResult, code: string, detail: RegExp): void {
  assert.equal(r.status, 404, r.body);
  assert.match(r.headers['Content-Type']!, /^application\/problem\+json/);
  assert.equal((r.json as Json).code, code);
  assert.match((r.json as Json).detail as string, detail);
}

describe('admin API: flows', () => {
  it('creates a flow whole, endpoints and steps resolved to ids, defaults filled; lists and shows it by id or name', async (t) => {
    const api = await shopApi(t);
    const flow = await created(api);
    assert.equal(flow.name, 'Order webhook');
    assert.equal(flow.description, 'Accept, then notify');
    assert.equal(flow.enabled, true);
    const [accept, notify] = flow.steps;
    assert.ok(accept?.id && notify?.id && accept.id !== notify.id, 'each step has an id of its own');
    assert.deepEqual(accept.trigger, { type: 'request', endpointId: api.orders });
    assert.deepEqual(accept.action, { type: 'respond', endpointId: api.orders });
    assert.deepEqual(notify.trigger, { type: 'after', stepId: accept.id, delayMs: 100 });
    assert.deepEqual(notify.action, {
      type: 'callback',
      method: 'POST',
      url: 'http://127.0.0.1:9/hooks/orders',
      headers: {},
      body: '{"order":"{{body.id}}"}',
      timeoutMs: 10_000,
      retries: 0,
    });

    const list = await api.call('GET', FLOWS);
    assert.equal(list.status, 200, list.body);
    assert.deepEqual(list.json, [flow]);
    for (const ref of [flow.id, 'Order webhook']) {
      const shown = await api.call('GET', `${FLOWS}/${encodeURIComponent(ref)}`);
      assert.equal(shown.status, 200, shown.body);
      assert.deepEqual(shown.json, flow);
    }
  });

  it('builds a flow step by step: created without steps, steps added and removed by label', async (t) => {
    const api = await shopApi(t);
    const flow = await created(api, { name: 'Push', enabled: false });
    assert.deepEqual([flow.steps, flow.enabled], [[], false]);

    const first = await api.call('POST', `${FLOWS}/Push/steps`, {
      body: {
        label: 'ping',
        trigger: { type: 'delay', ms: 50 },
        action: { type: 'callback', method: 'PUT', url: 'http://127.0.0.1:9/ping', retries: 2 },
      },
    });
    assert.equal(first.status, 201, first.body);
    const { flow: after1, step } = first.json as { flow: Flow; step: Step };
    assert.equal(step.label, 'ping');
    assert.deepEqual(step.trigger, { type: 'delay', ms: 50 });
    assert.equal((step.action as Json).retries, 2);
    assert.deepEqual(after1.steps, [step]);

    const second = await api.call('POST', `${FLOWS}/${flow.id}/steps`, {
      body: {
        trigger: { type: 'after', stepId: 'ping' },
        action: { type: 'callback', url: 'http://127.0.0.1:9/pong' },
      },
    });
    assert.equal(second.status, 201, second.body);
    const pong = (second.json as { step: Step }).step;
    assert.deepEqual(pong.trigger, { type: 'after', stepId: step.id, delayMs: 0 });

    const refused = await api.call('DELETE', `${FLOWS}/Push/steps/ping`);
    assert.equal(refused.status, 409, `a step an after trigger names stays: ${refused.body}`);
    assert.match((refused.json as Json).detail as string, /ping/);

    const removed = await api.call('DELETE', `${FLOWS}/Push/steps/${pong.id}`);
    assert.equal(removed.status, 200, removed.body);
    assert.equal((removed.json as { step: Step }).step.id, pong.id);
    assert.deepEqual((removed.json as { flow: Flow }).flow.steps, [step]);
    assertNotFound(await api.call('DELETE', `${FLOWS}/Push/steps/nope`), 'NOT_FOUND', /nope/);
  });

  it('updates name, description and steps; enables and disables; deletes', async (t) => {
    const api = await shopApi(t);
    const flow = await created(api);
    const patched = await api.call('PATCH', `${FLOWS}/${flow.id}`, {
      body: { name: 'Orders', description: 'renamed', steps: [flow.steps[0]] },
    });
    assert.equal(patched.status, 200, patched.body);
    const after = patched.json as Flow;
    assert.deepEqual([after.id, after.name, after.description], [flow.id, 'Orders', 'renamed']);
    assert.deepEqual(after.steps, [flow.steps[0]], 'a step given with its id keeps it');

    const off = await api.call('DELETE', `${FLOWS}/Orders/enabled`);
    assert.equal(off.status, 200, off.body);
    assert.equal((off.json as Flow).enabled, false);
    assert.equal(((await api.call('GET', `${FLOWS}/Orders`)).json as Flow).enabled, false);
    const on = await api.call('PUT', `${FLOWS}/Orders/enabled`);
    assert.equal(on.status, 200, on.body);
    assert.equal((on.json as Flow).enabled, true);

    const deleted = await api.call('DELETE', `${FLOWS}/Orders`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal((deleted.json as Flow).id, flow.id);
    assert.deepEqual((await api.call('GET', FLOWS)).json, []);
    assertNotFound(await api.call('GET', `${FLOWS}/${flow.id}`), 'NOT_FOUND', /Orders|flow/i);
  });

  it('refuses invalid flows with 400 problem+json naming the field at fault, and saves nothing', async (t) => {
    const api = await shopApi(t);
    // The route's schema (the core's input schema).
    assertFieldProblem(await api.call('POST', FLOWS, { body: { description: 'no name' } }), 'name', /name/);
    assertFieldProblem(
      await api.call('POST', FLOWS, {
        body: {
          name: 'Bad delay',
          steps: [
            {
              trigger: { type: 'delay', ms: -5 },
              action: { type: 'callback', url: 'http://127.0.0.1:9/x' },
            },
          ],
        },
      }),
      'steps.0.trigger.ms',
      /negative/,
    );
    // The core's checks, past the schema: the field as a dotted path from the flow.
    const ftp = orderFlow('ftp://example.com/hook');
    assertFieldProblem(await api.call('POST', FLOWS, { body: ftp }), 'steps.1.action.url', /http/);
    const dangling = orderFlow();
    dangling.steps[1]!.trigger = { type: 'after', stepId: 'nowhere', delayMs: 0 };
    assertFieldProblem(
      await api.call('POST', FLOWS, { body: dangling }),
      'steps.1.trigger.stepId',
      /nowhere/,
    );
    assertFieldProblem(
      await api.call('POST', FLOWS, { body: { name: 'Whole', steps: [] } }),
      'steps',
      /step/,
    );
    assert.deepEqual((await api.call('GET', FLOWS)).json, [], 'nothing was saved');

    const flow = await created(api);
    const proxyRespond = await api.call('PATCH', `${FLOWS}/${flow.id}`, {
      body: {
        steps: [
          {
            trigger: { type: 'request', endpointId: api.orders },
            action: { type: 'proxy', endpointId: 'POST /orders' },
          },
        ],
      },
    });
    assertFieldProblem(proxyRespond, 'steps.0.action.endpointId', /proxy/);
    const badStep = await api.call('POST', `${FLOWS}/${flow.id}/steps`, {
      body: { trigger: { type: 'later' }, action: { type: 'callback', url: 'http://127.0.0.1:9/' } },
    });
    assert.equal(badStep.status, 400, badStep.body);
    assert.equal(((badStep.json as Json).details as Json).field, 'trigger.type');
    assert.deepEqual(((await api.call('GET', `${FLOWS}/${flow.id}`)).json as Flow).steps, flow.steps);
  });

  it('answers 404 for an unknown flow on every route, and PROJECT_NOT_FOUND for an unknown project', async (t) => {
    const api = await shopApi(t);
    const step = {
      trigger: { type: 'delay', ms: 1 },
      action: { type: 'callback', url: 'http://127.0.0.1:9/' },
    };
    const calls: [string, string, unknown?][] = [
      ['GET', `${FLOWS}/Ghost`],
      ['PATCH', `${FLOWS}/Ghost`, { description: 'x' }],
      ['DELETE', `${FLOWS}/Ghost`],
      ['PUT', `${FLOWS}/Ghost/enabled`],
      ['DELETE', `${FLOWS}/Ghost/enabled`],
      ['POST', `${FLOWS}/Ghost/steps`, step],
      ['DELETE', `${FLOWS}/Ghost/steps/one`],
      ['POST', `${FLOWS}/Ghost/runs`],
      ['GET', '/api/v1/projects/Shop/flow-runs?flow=Ghost'],
    ];
    for (const [method, url, body] of calls)
      assertNotFound(await api.call(method, url, body === undefined ? {} : { body }), 'NOT_FOUND', /Ghost/);
    assertNotFound(
      await api.call('GET', '/api/v1/projects/Shop/flow-runs/no-such-run'),
      'NOT_FOUND',
      /no-such-run/,
    );
    assertNotFound(await api.call('GET', '/api/v1/projects/Nope/flows'), 'PROJECT_NOT_FOUND', /Nope/);
    assertNotFound(await api.call('GET', '/api/v1/projects/Nope/flow-runs'), 'PROJECT_NOT_FOUND', /Nope/);
  });

  it('checks the run queries: limit from 1 to 1000, wait from 0 to 60000 ms', async (t) => {
    const api = await shopApi(t);
    const runs = '/api/v1/projects/Shop/flow-runs';
    assertFieldProblem(await api.call('GET', `${runs}?limit=0`), 'limit', /from 1 to 1000/);
    assertFieldProblem(await api.call('GET', `${runs}?limit=abc`), 'limit', /whole number/);
    assertFieldProblem(await api.call('GET', `${runs}/r1?wait=60001`), 'wait', /from 0 to 60000/);
    assertFieldProblem(await api.call('GET', `${runs}/r1?wait=-1`), 'wait', /from 0 to 60000/);
    const empty = await api.call('GET', `${runs}?limit=5`);
    assert.equal(empty.status, 200, empty.body);
    assert.deepEqual(empty.json, []);
  });
});
