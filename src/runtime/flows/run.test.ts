import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Flow, FlowRun } from '../../core/model/flow.js';
import { SECRET_MASK } from '../../core/model/credentials.js';
import { after, callback, delay, flow, onRequest, respond } from '../../../test/helpers/flow-runtime.js';
import type { CallbackAnswer, CallbackRequest, SendCallback } from './callback.js';
import { compileFlow } from './compile.js';
import { headerObject, KeptBody, RUN_BODY_KEPT_BYTES } from './context.js';
import { Run, type RunHost, type TriggeringRequest } from './run.js';

/** A fake server for runs: sends answered by `answer` (in order of attempts), saves kept. */
function host(
  answer: (req: CallbackRequest, attempt: number) => CallbackAnswer | Error = () => ok(),
  extra: Partial<RunHost> = {},
) {
  const sent: { req: CallbackRequest; at: number }[] = [];
  const saves: FlowRun[] = [];
  let stopping = false;
  const send: SendCallback = async (req, _timeout, signal) => {
    sent.push({ req, at: Date.now() });
    const a = answer(req, sent.length);
    if (a instanceof Error) throw a;
    if (signal.aborted) throw new Error('cancelled');
    return a;
  };
  const h: RunHost = {
    save: (r) => void saves.push(structuredClone(r)),
    send,
    retryBaseMs: 40,
    stopping: () => stopping,
    refTimers: true,
    ended: () => undefined,
    ...extra,
  };
  return { h, sent, saves, stop: () => (stopping = true) };
}

const ok = (status = 200, body = '{"id":"cb-1"}'): CallbackAnswer => ({
  status,
  statusText: status === 200 ? 'OK' : 'Internal Server Error',
  headers: [['Content-Type', 'application/json']],
  body: Buffer.from(body),
});

const start = (
  f: Flow,
  h: RunHost,
  trigger: TriggeringRequest | null = null,
  env = { variables: {}, secrets: [] as string[] },
) => {
  const run = new Run(
    {
      id: 'run-1',
      projectId: 'p1',
      flow: compileFlow(f, env.secrets.length > 0),
      startedBy: trigger ? 'request' : 'manual',
      trigger,
      env,
      tunnelUrl: '',
    },
    h,
  );
  run.start();
  return run;
};

const trigger = (endpointId: string, extra: Partial<TriggeringRequest> = {}): TriggeringRequest => ({
  endpointId,
  request: {
    method: 'POST',
    url: '/orders/o-7?express=yes',
    path: '/orders/o-7',
    params: { id: 'o-7' },
    query: { express: 'yes' },
    headers: headerObject([['X-Client', 'acme']]),
    body: new KeptBody('{"order":{"id":"o-7","total":12}}'),
  },
  response: {
    status: 202,
    headers: headerObject([['Content-Type', 'application/json']]),
    body: new KeptBody('{"ticket":"t-1"}'),
  },
  depth: 0,
  ref: { method: 'POST', url: '/orders/o-7?express=yes', ts: 1 },
  ...extra,
});

describe('flow runs: scheduling', () => {
  it('saves every step pending first, fires a delay after its ms and an after step once the step it names completed', async () => {
    const { h, sent, saves } = host();
    const t0 = Date.now();
    const run = start(
      flow('f', [
        { id: 's1', label: 'first', trigger: delay(60), action: callback('http://cb.test/one') },
        { id: 's2', trigger: after('s1', 50), action: callback('http://cb.test/two') },
      ]),
      h,
    );
    assert.deepEqual(
      saves[0]!.steps.map((s) => s.status),
      ['pending', 'pending'],
    );
    assert.equal(saves[0]!.status, 'running');
    await run.ended;
    assert.equal(sent.length, 2);
    assert.ok(sent[0]!.at - t0 >= 55, `the delay fired after ${sent[0]!.at - t0} ms`);
    assert.ok(sent[1]!.at - sent[0]!.at >= 45, `the after step fired ${sent[1]!.at - sent[0]!.at} ms later`);
    const last = saves.at(-1)!;
    assert.equal(last.status, 'completed');
    assert.deepEqual(
      last.steps.map((s) => [s.status, s.callback?.status, s.callback?.attempts]),
      [
        ['completed', 200, 1],
        ['completed', 200, 1],
      ],
    );
    assert.ok(last.finishedAt);
  });

  it('retries a failed attempt after 1x, 2x the base wait (no jitter), then completes', async () => {
    const { h, sent, saves } = host((_r, n) => (n < 3 ? ok(500, 'no') : ok()));
    const run = start(
      flow('f', [{ id: 's1', trigger: delay(0), action: callback('http://cb.test/x', { retries: 3 }) }]),
      h,
    );
    await run.ended;
    assert.equal(sent.length, 3);
    const gap1 = sent[1]!.at - sent[0]!.at;
    const gap2 = sent[2]!.at - sent[1]!.at;
    assert.ok(gap1 >= 38 && gap2 >= 78, `waits of ${gap1} and ${gap2} ms (base 40 ms)`);
    const step = saves.at(-1)!.steps[0]!;
    assert.equal(step.status, 'completed');
    assert.equal(step.callback!.attempts, 3);
    assert.equal(step.callback!.error, null);
  });

  it('a callback that finally fails marks its step failed, skips the steps after it transitively, and the run failed', async () => {
    const { h, sent, saves } = host((r) => (r.url.pathname === '/bad' ? ok(503, 'down') : ok()));
    const run = start(
      flow('f', [
        { id: 's1', label: 'bad', trigger: delay(0), action: callback('http://cb.test/bad', { retries: 1 }) },
        { id: 's2', trigger: after('s1'), action: callback('http://cb.test/two') },
        { id: 's3', trigger: after('s2'), action: callback('http://cb.test/three') },
        { id: 's4', trigger: delay(10), action: callback('http://cb.test/other') },
      ]),
      h,
    );
    await run.ended;
    assert.deepEqual(sent.map((s) => s.req.url.pathname).sort(), ['/bad', '/bad', '/other']);
    const last = saves.at(-1)!;
    assert.equal(last.status, 'failed');
    const [s1, s2, s3, s4] = last.steps;
    assert.equal(s1!.status, 'failed');
    assert.equal(s1!.reason, 'the callback failed after 2 attempts: answered 503 Internal Server Error');
    assert.deepEqual(s1!.callback, {
      ...s1!.callback!,
      status: 503,
      attempts: 2,
      error: 'answered 503 Internal Server Error',
    });
    assert.equal(s2!.status, 'skipped');
    assert.equal(s2!.reason, 'step "bad" failed');
    assert.equal(s3!.status, 'skipped');
    assert.equal(s3!.reason, 'step "s2" was skipped');
    assert.equal(s4!.status, 'completed');
  });

  it('a run without a triggering request skips request steps and the steps after them', async () => {
    const { h, sent, saves } = host();
    const run = start(
      flow('f', [
        { id: 's1', trigger: onRequest('e1'), action: respond('e2') },
        { id: 's2', trigger: after('s1'), action: callback('http://cb.test/a') },
        { id: 's3', trigger: delay(0), action: callback('http://cb.test/b') },
      ]),
      h,
    );
    await run.ended;
    assert.deepEqual(
      sent.map((s) => s.req.url.pathname),
      ['/b'],
    );
    const last = saves.at(-1)!;
    assert.deepEqual(
      last.steps.map((s) => s.status),
      ['skipped', 'skipped', 'completed'],
    );
    assert.equal(last.steps[0]!.reason, 'it fires on requests; this run was started by hand');
    assert.equal(last.status, 'completed');
  });

  it('a stop cancels what waits at once, lets a callback in flight finish, and cancels the steps after it', async () => {
    let release!: (a: CallbackAnswer) => void;
    const { h, saves, stop } = host();
    h.send = () => new Promise((r) => (release = r));
    const run = start(
      flow('f', [
        { id: 's1', trigger: delay(0), action: callback('http://cb.test/slow') },
        { id: 's2', trigger: after('s1'), action: callback('http://cb.test/next') },
        { id: 's3', trigger: delay(60_000), action: callback('http://cb.test/late') },
      ]),
      h,
    );
    await new Promise((r) => setTimeout(r, 20)); // s1 fires (a 0 ms timer)
    stop();
    run.cancelWaiting('the server stopped');
    let last = saves.at(-1)!;
    assert.deepEqual(
      last.steps.map((s) => s.status),
      ['pending', 'cancelled', 'cancelled'],
    );
    release(ok());
    await run.ended;
    last = saves.at(-1)!;
    assert.deepEqual(
      last.steps.map((s) => s.status),
      ['completed', 'cancelled', 'cancelled'],
    );
    assert.equal(last.status, 'cancelled');
    assert.equal(last.steps[2]!.reason, 'the server stopped');
  });

  it('cancelAll aborts a callback in flight', async () => {
    const { h, saves } = host();
    h.send = (_r, _t, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
    const run = start(flow('f', [{ id: 's1', trigger: delay(0), action: callback('http://cb.test/x') }]), h);
    await new Promise((r) => setTimeout(r, 20));
    run.cancelAll('the flow was disabled');
    await run.ended;
    const last = saves.at(-1)!;
    assert.equal(last.status, 'cancelled');
    assert.equal(last.steps[0]!.status, 'cancelled');
    assert.equal(last.steps[0]!.reason, 'the flow was disabled');
  });
});

describe('flow runs: callback templates', () => {
  it('renders method, URL, headers and body from the request, the response sent, env, the run and earlier steps', async () => {
    const { h, sent, saves } = host((r) =>
      r.url.pathname === '/first' ? ok(201, '{"id":"cb-9","n":[1,2]}') : ok(),
    );
    const run = start(
      flow('f', [
        { id: 's0', trigger: onRequest('e1'), action: respond('e2') },
        {
          id: 's1',
          label: 'first',
          trigger: after('s0'),
          action: callback('{{env.BASE}}/first', { method: 'PUT' }),
        },
        {
          id: 's2',
          trigger: after('s1'),
          action: callback('{{env.BASE}}/second/{{params.id}}?run={{run.id}}', {
            headers: { 'X-Client': '{{headers.x-client}}', 'X-Tunnel': '[{{tunnel.url}}]' },
            body: '{"order":"{{body.order.id}}","total":{{body.order.total}},"status":{{response.status}},"ticket":"{{response.body.ticket}}","first":"{{steps.first.body.id}}","firstStatus":{{steps.first.status}},"n":{{json steps.first.body.n}},"ct":"{{response.headers.content-type}}","express":"{{query.express}}"}',
          }),
        },
      ]),
      h,
      trigger('e1', { depth: 3 }),
      { variables: { BASE: 'http://cb.test' }, secrets: [] },
    );
    await run.ended;
    assert.equal(saves.at(-1)!.status, 'completed');
    assert.equal(sent[0]!.req.method, 'PUT');
    const second = sent[1]!.req;
    assert.equal(second.url.href, 'http://cb.test/second/o-7?run=run-1');
    assert.equal(second.headers['X-Client'], 'acme');
    assert.equal(second.headers['X-Tunnel'], '[]');
    assert.equal(second.headers['X-Mockdev-Flow-Depth'], '4');
    assert.equal(second.headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(second.body!), {
      order: 'o-7',
      total: 12,
      status: 202,
      ticket: 't-1',
      first: 'cb-9',
      firstStatus: 201,
      n: [1, 2],
      ct: 'application/json',
      express: 'yes',
    });
  });

  it('sends a secret as it is and stores the callback URL with it masked', async () => {
    const { h, sent, saves } = host();
    const run = start(
      flow('f', [
        {
          id: 's1',
          trigger: delay(0),
          action: callback('http://cb.test/hook?token={{env.TOKEN}}&x={{env.PLAIN}}'),
        },
      ]),
      h,
      null,
      { variables: { TOKEN: 's3cr3t-value', PLAIN: 'visible' }, secrets: ['s3cr3t-value'] },
    );
    await run.ended;
    assert.equal(sent[0]!.req.url.searchParams.get('token'), 's3cr3t-value');
    const stored = saves.at(-1)!.steps[0]!.callback!;
    assert.equal(stored.url, `http://cb.test/hook?token=${SECRET_MASK}&x=visible`);
    assert.ok(!JSON.stringify(saves).includes('s3cr3t-value'));
  });

  it('fails a step whose URL does not render to an absolute http(s) URL, in one line', async () => {
    const { h, sent, saves } = host();
    const run = start(
      flow('f', [
        { id: 's1', trigger: delay(0), action: callback('{{env.MISSING}}/hook') },
        { id: 's2', trigger: delay(0), action: callback('ftp://cb.test/x') },
      ]),
      h,
    );
    await run.ended;
    assert.equal(sent.length, 0);
    const [s1, s2] = saves.at(-1)!.steps;
    assert.equal(s1!.status, 'failed');
    assert.equal(
      s1!.reason,
      'the callback URL rendered to "/hook", which must be an absolute URL such as https://example.com/hook',
    );
    assert.match(s2!.reason!, /must be an http: or https: URL, not ftp:$/);
  });

  it('keeps at most RUN_BODY_KEPT_BYTES of a body, as text when cut', () => {
    const big = `{"a":"${'x'.repeat(RUN_BODY_KEPT_BYTES)}"}`;
    const kept = new KeptBody(big);
    assert.equal(kept.bytes!.length, RUN_BODY_KEPT_BYTES);
    assert.equal(typeof kept.value, 'string');
    assert.deepEqual(new KeptBody('{"a":1}').value, { a: 1 });
    assert.equal(new KeptBody('plain').value, 'plain');
  });
});
