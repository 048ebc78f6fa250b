/**
 * The flow commands as the built binary runs them (the real wiring: `node dist/cli/main.js
 * flow …`; `npm run build` first), and `flow run --wait`, `flow wait` and `flow runs` against a
 * real `mockdev serve` and a callback receiver on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import type { Flow, FlowRun } from '../../src/core/model/flow.js';
import { assertCliError, json } from '../helpers/cli.js';
import { ACCEPT_STEP, addStep, ok, shop } from '../helpers/flows.js';
import { startServe, waitUntil } from '../helpers/server.js';

/** A receiver of callbacks on 127.0.0.1:0 answering `status`; what it got, in order. */
async function receiver(t: { after(fn: () => unknown): void }, status = 200) {
  const got: { method: string; url: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { got, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('flow commands, spawned', () => {
  it('the binary creates, lists and shows flows, and refuses a run without a server', async (t) => {
    const { spawn, stored } = await shop(t);
    ok(await spawn(['flow', 'create', 'shop', '-n', 'orders']));
    ok(await spawn(['flow', 'step', 'add', 'shop', 'orders', ...ACCEPT_STEP]));
    assert.deepEqual(json<Flow[]>(ok(await spawn(['flow', 'list', 'shop', '--json']))), stored());
    assert.match(
      ok(await spawn(['flow', 'show', 'shop', 'orders'])).stdout,
      /accept +request POST \/orders +respond POST \/orders \(202\)/,
    );
    assertCliError(
      await spawn(['flow', 'step', 'add', 'shop', 'orders', '--on', 'soon', '--respond', 'x']),
      2,
      /^mockdev: Invalid --on "soon": use request:<ENDPOINT>/,
    );
    assertCliError(
      await spawn(['flow', 'run', 'shop', 'orders']),
      1,
      /^mockdev: No server of project "shop" is running/,
    );
  });
});

describe('flow runs against a running server', () => {
  it('flow run --wait: a run by hand calls back, completes (exit 0) and is listed with its steps', async (t) => {
    const { cli, dataDir, defer } = await shop(t);
    const hook = await receiver(t);
    ok(await cli(['flow', 'create', 'shop', '-n', 'push']));
    await addStep(
      cli,
      'push',
      '--label',
      'ping',
      '--on',
      'delay:50',
      '--callback',
      `POST ${hook.url}/ping`,
      '-b',
      '{"run":"{{run.id}}"}',
    );
    await addStep(
      cli,
      'push',
      '--on',
      'after:ping',
      '--callback',
      `GET ${hook.url}/after?s={{steps.ping.status}}`,
    );
    const server = await startServe(['shop'], { dataDir });
    defer(() => server.stop());
    const r = ok(await cli(['flow', 'run', 'shop', 'push', '--wait', '--json']));
    const run = json<FlowRun>(r);
    assert.equal(run.status, 'completed');
    assert.equal(run.startedBy, 'manual');
    assert.deepEqual(
      run.steps.map((s) => [s.status, s.callback?.status]),
      [
        ['completed', 200],
        ['completed', 200],
      ],
    );
    // The flow has no request trigger: the server also ran it when it started (startedBy 'start').
    const ping = hook.got.filter((g) => g.url === '/ping');
    assert.ok(
      ping.some((g) => g.body === JSON.stringify({ run: run.id })),
      'the manual run called back',
    );
    await waitUntil(() => hook.got.filter((g) => g.url === '/after?s=200').length === 2, 'both runs');
    assert.equal(ping.length, 2);
    const listed = ok(await cli(['flow', 'runs', 'shop', '--flow', 'push']));
    assert.match(
      listed.stdout,
      new RegExp(
        `^RUN +FLOW +STARTED +BY +STATUS +STEP +STEP STATUS +CALLBACK\\n${run.id} +push +\\S+ +manual +completed +ping +completed +200 \\(1 attempt`,
      ),
    );
    assert.equal(json<FlowRun[]>(ok(await cli(['flow', 'runs', 'shop', '--json'])))[0]!.id, run.id);
  });

  it('flow wait: a run a request started (exit 0), a failed one (exit 1), one not ended in time (exit 1)', async (t) => {
    const { cli, dataDir, defer } = await shop(t);
    const hook = await receiver(t);
    const failing = await receiver(t, 500);
    ok(await cli(['flow', 'create', 'shop', '-n', 'orders']));
    await addStep(cli, 'orders', ...ACCEPT_STEP);
    await addStep(cli, 'orders', '--on', 'after:accept+20', '--callback', `POST ${hook.url}/orders`);
    ok(await cli(['flow', 'create', 'shop', '-n', 'broken']));
    await addStep(cli, 'broken', '--label', 'call', '--on', 'delay:1', '--callback', `POST ${failing.url}/x`);
    await addStep(cli, 'broken', '--on', 'after:call', '--callback', `POST ${hook.url}/never`);
    ok(await cli(['flow', 'create', 'shop', '-n', 'slow']));
    await addStep(cli, 'slow', '--on', 'delay:60000', '--callback', `POST ${hook.url}/slow`);
    const server = await startServe(['shop'], { dataDir });
    defer(() => server.stop());

    const answer = await fetch(`${server.url}/orders`, { method: 'POST', body: '{}' });
    assert.equal(answer.status, 202);
    const runs = await waitUntil(async () => {
      const list = json<FlowRun[]>(ok(await cli(['flow', 'runs', 'shop', '--flow', 'orders', '--json'])));
      return list.length ? list : undefined;
    }, 'the run the request started');
    const done = ok(await cli(['flow', 'wait', 'shop', runs[0]!.id, '--timeout', '10000']));
    assert.match(
      done.stdout,
      /^run: +\S+\nflow: +orders \(\S+\)\nstatus: +completed\nstarted by: +request\n/,
    );

    const failed = await cli(['flow', 'run', 'shop', 'broken', '--wait', '--timeout', '10000']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /status: +failed/);
    assert.match(failed.stdout, /call +failed +POST http:\/\/127\.0\.0\.1:\d+\/x +500 \(1 attempt/);
    assert.match(failed.stderr, /^Run \S+ of flow "broken" failed\n$/);
    assert.equal(hook.got.filter((g) => g.url === '/never').length, 0);

    const started = json<FlowRun>(ok(await cli(['flow', 'run', 'shop', 'slow', '--json'])));
    const late = await cli(['flow', 'wait', 'shop', started.id, '--timeout', '100']);
    assert.equal(late.code, 1);
    assert.match(late.stderr, new RegExp(`^Run ${started.id} of flow "slow" has not ended after 100 ms\\n$`));
    assertCliError(
      await cli(['flow', 'wait', 'shop', 'nope']),
      1,
      /^mockdev: Run "nope" not found in project "shop"/,
    );
  });
});

describe('flow runs and flow wait on stored runs', () => {
  it('lists runs newest first with each step, and waits: exit 0 completed, 1 failed or not ended', async (t) => {
    const { cli, dataDir, project, stored } = await shop(t);
    ok(await cli(['flow', 'create', 'shop', '-n', 'push']));
    const flowId = stored()[0]!.id;
    const ctx = createContext({ dataDir, cwd: dataDir });
    t.after(() => ctx.close());
    const writer = ctx.flowRuns.openWriter({ projectId: project.id, limit: 100 });
    const step = (label: string, status: FlowRun['steps'][number]['status'], callback?: number | null) => ({
      stepId: `s-${label}`,
      label,
      status,
      firedAt: '2026-01-01T00:00:01.000Z',
      finishedAt: '2026-01-01T00:00:02.000Z',
      ...(callback !== undefined
        ? {
            callback: {
              method: 'POST',
              url: 'http://127.0.0.1:9/hook',
              status: callback,
              durationMs: 1500,
              attempts: callback === null ? 3 : 1,
              error: callback === null ? 'timed out after 500 ms' : null,
            },
          }
        : {}),
    });
    const base = {
      projectId: project.id,
      flowId,
      flowName: 'push',
      startedBy: 'manual' as const,
      requestId: null,
      request: null,
    };
    writer.save({
      ...base,
      id: 'run-ok',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:02.500Z',
      status: 'completed',
      steps: [step('ping', 'completed', 200)],
    });
    writer.save({
      ...base,
      id: 'run-bad',
      startedAt: '2026-01-02T00:00:00.000Z',
      finishedAt: '2026-01-02T00:00:03.000Z',
      status: 'failed',
      steps: [step('ping', 'failed', null), step('next', 'skipped')],
    });
    writer.save({
      ...base,
      id: 'run-on',
      startedAt: '2026-01-03T00:00:00.000Z',
      finishedAt: null,
      status: 'running',
      steps: [step('ping', 'pending')],
    });
    await writer.close();

    const table = ok(await cli(['flow', 'runs', 'shop'])).stdout.split('\n');
    assert.match(table[0]!, /^RUN +FLOW +STARTED +BY +STATUS +STEP +STEP STATUS +CALLBACK$/);
    assert.match(table[1]!, /^run-on +push +2026-01-03T00:00:00\.000Z +manual +running +ping +pending$/);
    assert.match(
      table[2]!,
      /^run-bad +push +\S+ +manual +failed +ping +failed +no answer \(3 attempts, 1500 ms\): timed out after 500 ms$/,
    );
    assert.match(table[3]!, /^ +next +skipped$/);
    assert.match(
      table[4]!,
      /^run-ok +push +\S+ +manual +completed +ping +completed +200 \(1 attempt, 1500 ms\)$/,
    );
    assert.deepEqual(
      json<FlowRun[]>(ok(await cli(['flow', 'runs', 'shop', '--flow', 'push', '-l', '1', '--json']))).map(
        (r) => r.id,
      ),
      ['run-on'],
    );

    const done = ok(await cli(['flow', 'wait', 'shop', 'run-ok']));
    assert.match(
      done.stdout,
      /^run: +run-ok\nflow: +push \(\S+\)\nstatus: +completed\nstarted by: +manual\n/,
    );
    assert.match(done.stdout, /took: +2\.5 s\n/);
    assert.match(
      done.stdout,
      /\nping +completed +POST http:\/\/127\.0\.0\.1:9\/hook +200 \(1 attempt, 1500 ms\)\n$/,
    );
    assert.equal(done.stderr, '');
    const failed = await cli(['flow', 'wait', 'shop', 'run-bad', '--json']);
    assert.equal(failed.code, 1);
    assert.equal(json<FlowRun>(failed).status, 'failed');
    assert.equal(failed.stderr, 'Run run-bad of flow "push" failed\n');
    const late = await cli(['flow', 'wait', 'shop', 'run-on', '--timeout', '100']);
    assert.equal(late.code, 1);
    assert.match(late.stdout, /status: +running/);
    assert.equal(late.stderr, 'Run run-on of flow "push" has not ended after 100 ms\n');
    assertCliError(
      await cli(['flow', 'wait', 'shop', 'run-on', '--timeout', 'soon']),
      2,
      /^mockdev: Invalid --timeout "soon": must be a whole number\n$/,
    );
    assertCliError(
      await cli(['flow', 'wait', 'shop', 'nope']),
      1,
      /^mockdev: Run "nope" not found in project "shop"\. List the project's flow runs/,
    );
  });
});
