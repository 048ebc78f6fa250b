import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from './errors.js';
import { callbackUrlProblem, checkFlow, flowsUsing, type FlowCheckContext } from './flows.js';
import type { Endpoint } from './model/endpoint.js';
import { FlowSchema, type Flow } from './model/flow.js';

const endpoint = (id: string, method: string, path: string, kind: 'mock' | 'proxy' = 'mock') =>
  ({ id, method, path, kind, name: id }) as unknown as Endpoint;
const ENDPOINTS = [
  endpoint('orders', 'POST', '/orders'),
  endpoint('status', 'GET', '/status'),
  endpoint('up', 'GET', '/up/*', 'proxy'),
];

type StepIn = Record<string, unknown>;
const flow = (steps: StepIn[], extra: Record<string, unknown> = {}): Flow =>
  FlowSchema.parse({ id: 'f1', name: 'orders', steps, ...extra });
const respond = (id = 's1', on = 'orders', to = 'orders', label?: string): StepIn => ({
  id,
  ...(label ? { label } : {}),
  trigger: { type: 'request', endpointId: on },
  action: { type: 'respond', endpointId: to },
});
const callback = (id: string, trigger: StepIn, action: StepIn = {}, label?: string): StepIn => ({
  id,
  ...(label ? { label } : {}),
  trigger,
  action: { type: 'callback', url: 'http://127.0.0.1:9/hook', ...action },
});
const ctx = (extra: Partial<FlowCheckContext> = {}): FlowCheckContext => ({
  endpoints: ENDPOINTS,
  otherFlows: [],
  ...extra,
});

/** The INVALID_ARGUMENT checkFlow throws: its field and message. */
function refusal(f: Flow, context = ctx()): { field: unknown; message: string } {
  try {
    checkFlow(f, context);
  } catch (e) {
    assert.ok(e instanceof MockdevError);
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.doesNotMatch(e.fullMessage, /\n/);
    return { field: e.details?.field, message: e.fullMessage };
  }
  assert.fail('the flow was accepted');
}

describe('checkFlow', () => {
  it('accepts the SPEC example: respond at once, a callback after a delay, one after it', () => {
    checkFlow(
      flow([
        respond('s1', 'orders', 'orders', 'accept'),
        callback('s2', { type: 'delay', ms: 2000 }, { body: '{"id":"{{body.id}}"}' }, 'notify'),
        callback(
          's3',
          { type: 'after', stepId: 's2', delayMs: 10 },
          {
            url: '{{env.BASE}}/done?s={{steps.notify.status}}',
            headers: { 'X-Run': '{{run.id}}' },
          },
        ),
      ]),
      ctx({ whole: true }),
    );
  });

  it('needs a name', () => {
    const f = { ...flow([]), name: ' ' };
    assert.deepEqual(refusal(f).field, 'name');
  });

  it('needs a step when given whole, none when built step by step', () => {
    const r = refusal(flow([]), ctx({ whole: true }));
    assert.equal(r.field, 'steps');
    assert.match(r.message, /has no steps: a flow given whole needs at least one/);
    checkFlow(flow([]), ctx());
  });

  it('refuses a step id or a label used twice', () => {
    assert.equal(refusal(flow([respond('a'), callback('a', { type: 'delay', ms: 1 })])).field, 'steps.1.id');
    const r = refusal(
      flow([
        callback('a', { type: 'delay', ms: 1 }, {}, 'x'),
        callback('b', { type: 'delay', ms: 1 }, {}, 'X'),
      ]),
    );
    assert.equal(r.field, 'steps.1.label');
    assert.match(r.message, /label "X" of step 1: labels must be unique/);
  });

  it('refuses an after trigger naming no step of the flow, or itself', () => {
    const r = refusal(flow([callback('a', { type: 'after', stepId: 'zz' })]));
    assert.equal(r.field, 'steps.0.trigger.stepId');
    assert.match(r.message, /^Step 1 waits for step "zz", which flow "orders" does not have/);
    const self = refusal(flow([callback('a', { type: 'after', stepId: 'a' }, {}, 'loop')]));
    assert.equal(self.field, 'steps.0.trigger.stepId');
    assert.match(self.message, /Step 1 \("loop"\) waits for itself/);
  });

  it('refuses a cycle of after triggers, naming its steps', () => {
    const r = refusal(
      flow([
        callback('a', { type: 'delay', ms: 1 }),
        callback('b', { type: 'after', stepId: 'c' }, {}, 'two'),
        callback('c', { type: 'after', stepId: 'b' }, {}, 'three'),
      ]),
    );
    assert.equal(r.field, 'steps.1.trigger.stepId');
    assert.match(r.message, /wait for each other in a cycle \(two waits for three waits for two\)/);
  });

  it('refuses respond or proxy on a trigger that is not a request', () => {
    const r = refusal(
      flow([
        { id: 'a', trigger: { type: 'delay', ms: 5 }, action: { type: 'respond', endpointId: 'orders' } },
      ]),
    );
    assert.equal(r.field, 'steps.0.action.type');
    assert.match(
      r.message,
      /a "respond" action answers the request that triggered it, so its trigger must be "request", not "delay"/,
    );
    const p = refusal(
      flow([
        callback('a', { type: 'delay', ms: 5 }),
        { id: 'b', trigger: { type: 'after', stepId: 'a' }, action: { type: 'proxy', endpointId: 'up' } },
      ]),
    );
    assert.equal(p.field, 'steps.1.action.type');
  });

  it('refuses an endpoint the project does not have, or one of the wrong kind', () => {
    assert.equal(refusal(flow([respond('a', 'nope')])).field, 'steps.0.trigger.endpointId');
    const unknown = refusal(flow([respond('a', 'orders', 'gone')]));
    assert.equal(unknown.field, 'steps.0.action.endpointId');
    assert.match(
      unknown.message,
      /its respond action names endpoint "gone", which the project does not have/,
    );
    const mock = refusal(flow([respond('a', 'orders', 'up')]));
    assert.equal(mock.field, 'steps.0.action.endpointId');
    assert.match(
      mock.message,
      /a "respond" action needs a mock endpoint, and GET \/up\/\* is a proxy endpoint/,
    );
    const proxy = refusal(
      flow([
        {
          id: 'a',
          trigger: { type: 'request', endpointId: 'orders' },
          action: { type: 'proxy', endpointId: 'status' },
        },
      ]),
    );
    assert.match(
      proxy.message,
      /a "proxy" action needs a proxy endpoint, and GET \/status is a mock endpoint/,
    );
  });

  it('allows one answering step per endpoint across the enabled flows, naming the other', () => {
    const other = flow([respond('x', 'orders', 'status', 'ack')], { id: 'f2', name: 'first' });
    const r = refusal(flow([respond('a')]), ctx({ otherFlows: [other] }));
    assert.equal(r.field, 'steps.0.trigger.endpointId');
    assert.match(
      r.message,
      /answers requests to POST \/orders, which step 1 \("ack"\) of flow "first" already answers/,
    );
    // Within one flow too.
    assert.match(
      refusal(flow([respond('a'), respond('b')])).message,
      /which step 1 of this flow already answers/,
    );
    // A disabled flow answers nothing: either side may be disabled.
    checkFlow(flow([respond('a')]), ctx({ otherFlows: [{ ...other, enabled: false }] }));
    checkFlow(flow([respond('a')], { enabled: false }), ctx({ otherFlows: [other] }));
    // Callbacks triggered by the same endpoint answer nothing.
    checkFlow(flow([callback('a', { type: 'request', endpointId: 'orders' })]), ctx({ otherFlows: [other] }));
  });

  it('refuses a callback URL that is not absolute http(s) once templated', () => {
    for (const url of [
      '/hook',
      'ftp://h/x',
      'file:///etc/passwd',
      '/x/{{params.id}}',
      'ftp://{{env.H}}',
      '{{#if}}',
    ]) {
      const r = refusal(flow([callback('a', { type: 'delay', ms: 1 }, { url })]));
      assert.equal(r.field, 'steps.0.action.url', url);
      assert.match(r.message, /^Step 1: invalid callback URL/);
    }
  });

  it('refuses a bad callback header name and templates that do not compile', () => {
    const bad = { ...flow([callback('a', { type: 'delay', ms: 1 })]) };
    (bad.steps[0]!.action as { headers: Record<string, string> }).headers = { 'Bad Name': 'x' };
    assert.equal(refusal(bad).field, 'steps.0.action.headers');
    const header = refusal(
      flow([callback('a', { type: 'delay', ms: 1 }, { headers: { 'X-A': '{{#each}}' } })]),
    );
    assert.equal(header.field, 'steps.0.action.headers.X-A');
    assert.match(header.message, /invalid template in the value of callback header "X-A" at line 1/);
    const body = refusal(flow([callback('a', { type: 'delay', ms: 1 }, { body: '{"a": {{nope 1}}}' })]));
    assert.equal(body.field, 'steps.0.action.body');
  });
});

describe('callbackUrlProblem', () => {
  it('takes absolute http(s) URLs and templates that start like one', () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'https://example.com',
      '{{env.WEBHOOK_URL}}',
      'https://{{env.HOST}}/x',
      'http{{#if env.TLS}}s{{/if}}://h/x',
      'HTTPS://{{env.HOST}}',
    ])
      assert.equal(callbackUrlProblem(url), undefined, url);
  });

  it('refuses the rest, and checks a rendered URL as a plain one', () => {
    assert.match(callbackUrlProblem('example.com/hook')!, /absolute URL/);
    assert.match(callbackUrlProblem('mailto:a@b')!, /http: or https:/);
    assert.match(callbackUrlProblem('/{{x}}')!, /must start with http:\/\/ or https:\/\//);
    assert.match(callbackUrlProblem('http://{{x')!, /template does not compile/);
    assert.match(callbackUrlProblem('http://', { rendered: true })!, /absolute URL/);
    assert.equal(callbackUrlProblem('http://h/{{x}}', { rendered: true }), undefined);
    assert.match(callbackUrlProblem('{{x}}', { rendered: true })!, /absolute URL/);
  });
});

describe('flowsUsing', () => {
  it('finds the steps naming an endpoint in their trigger or action', () => {
    const f = flow([
      respond('a', 'orders', 'status'),
      callback('b', { type: 'request', endpointId: 'status' }),
    ]);
    assert.deepEqual(
      flowsUsing([f], new Set(['status'])).map((u) => [u.step.id, u.endpointId]),
      [
        ['a', 'status'],
        ['b', 'status'],
      ],
    );
    assert.deepEqual(flowsUsing([f], new Set(['up'])), []);
  });
});
