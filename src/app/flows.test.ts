import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerRecord } from '../core/model/server.js';
import { aRun, memoryFlowRuns } from '../../test/helpers/flows.js';
import { tempContext } from '../../test/helpers/context.js';
import { failure } from '../../test/helpers/failure.js';
import type { AppContext } from './context.js';
import { addEndpoint, removeEndpoints, updateEndpoint } from './endpoints.js';
import {
  addFlowStep,
  createFlow,
  getFlowRun,
  listFlowRuns,
  startFlowRun,
  updateFlow,
  waitFlowRun,
} from './flows.js';
import { createProject, deleteProject } from './projects.js';

/** A context over a temp data dir whose run store is in memory; project "shop" with POST /orders. */
async function shop(t: { after(fn: () => void): void }) {
  const base = tempContext(t, 'mockdev-app-flows-');
  const flowRuns = memoryFlowRuns();
  const ctx: AppContext = { ...base, flowRuns };
  const project = await createProject(ctx, { name: 'shop' });
  const orders = await addEndpoint(ctx, 'shop', { method: 'POST', path: '/orders', status: 202 });
  const status = await addEndpoint(ctx, 'shop', { path: '/status' });
  return { ctx, flowRuns, project, orders, status };
}

const accept = {
  label: 'accept',
  trigger: { type: 'request', endpointId: 'POST /orders' },
  action: { type: 'respond', endpointId: 'POST /orders' },
} as const;

describe('flow use cases', () => {
  it('say the field at fault relative to the flow, for the UI to show it there', async (t) => {
    const { ctx } = await shop(t);
    const cases: [() => Promise<unknown>, string][] = [
      [() => createFlow(ctx, 'shop', { name: 'x', steps: [] }), 'steps'],
      [() => createFlow(ctx, 'shop', { name: ' ' }), 'name'],
      [
        () =>
          createFlow(ctx, 'shop', {
            name: 'x',
            steps: [
              accept,
              { trigger: { type: 'after', stepId: 'nope' }, action: { type: 'callback', url: 'http://h/' } },
            ],
          }),
        'steps.1.trigger.stepId',
      ],
      [
        () =>
          createFlow(ctx, 'shop', {
            name: 'x',
            steps: [{ trigger: { type: 'delay', ms: 1 }, action: { type: 'callback', url: 'h/x' } }],
          }),
        'steps.0.action.url',
      ],
      [
        () =>
          createFlow(ctx, 'shop', {
            name: 'x',
            steps: [{ trigger: { type: 'delay', ms: -1 }, action: { type: 'callback', url: 'http://h/' } }],
          }),
        'steps.0.trigger.ms',
      ],
    ];
    for (const [p, field] of cases) {
      const e = await failure(p());
      assert.equal(e.code, 'INVALID_ARGUMENT');
      assert.equal(e.details?.field, field, e.message);
    }
    await createFlow(ctx, 'shop', { name: 'orders' });
    const step = await failure(
      addFlowStep(ctx, 'shop', 'orders', {
        trigger: { type: 'delay', ms: 1 },
        action: { type: 'callback', url: 'http://h/', retries: 99 },
      }),
    );
    assert.equal(step.details?.field, 'steps.0.action.retries');
    const empty = await failure(updateFlow(ctx, 'shop', 'orders', { steps: [] }));
    assert.equal(empty.details?.field, 'steps');
  });

  it('refuses to remove endpoints a flow uses, by ids or by folder (every adapter goes through it)', async (t) => {
    const { ctx, orders, status } = await shop(t);
    await createFlow(ctx, 'shop', { name: 'orders', steps: [accept] });
    for (const selection of [{ ids: [status.id, orders.id] }, { pathPrefix: '/' }]) {
      const e = await failure(removeEndpoints(ctx, 'shop', selection));
      assert.equal(e.code, 'CONFLICT');
      assert.match(
        e.message,
        /^Endpoint "POST \/orders" is used by step 1 \("accept"\) of flow "orders"; nothing was removed$/,
      );
      assert.deepEqual(e.details, {
        endpointId: orders.id,
        flowId: e.details!.flowId,
        stepId: e.details!.stepId,
      });
    }
    assert.deepEqual(
      (await removeEndpoints(ctx, 'shop', { ids: [status.id] })).map((e) => e.id),
      [status.id],
    );
  });

  it('refuses to turn an endpoint a respond step answers with into a proxy', async (t) => {
    const { ctx } = await shop(t);
    await createFlow(ctx, 'shop', { name: 'orders', steps: [accept] });
    const e = await failure(
      updateEndpoint(ctx, 'shop', 'POST /orders', { kind: 'proxy', proxy: { target: 'http://127.0.0.1:9' } }),
    );
    assert.equal(e.code, 'CONFLICT');
    assert.match(
      e.message,
      /cannot become a proxy endpoint: step 1 \("accept"\) of flow "orders" uses it in a respond action/,
    );
  });

  it('deleting a project clears its runs, and only its own', async (t) => {
    const { ctx, flowRuns, project } = await shop(t);
    await createProject(ctx, { name: 'other' });
    flowRuns.save(aRun({ id: 'r1', projectId: project.id, flowId: 'f' }));
    flowRuns.save(aRun({ id: 'r2', projectId: 'someone-else', flowId: 'f' }));
    await deleteProject(ctx, 'shop');
    assert.deepEqual([...flowRuns.runs.keys()], ['r2']);
  });
});

describe('flow runs', () => {
  it("lists a project's runs newest first, of one flow by name, and reads one of its own only", async (t) => {
    const { ctx, flowRuns, project } = await shop(t);
    const orders = await createFlow(ctx, 'shop', { name: 'orders', steps: [accept] });
    const other = await createProject(ctx, { name: 'other' });
    flowRuns.save(
      aRun({ id: 'old', projectId: project.id, flowId: orders.id, startedAt: '2026-01-01T00:00:00Z' }),
    );
    flowRuns.save(
      aRun({ id: 'new', projectId: project.id, flowId: orders.id, startedAt: '2026-01-02T00:00:00Z' }),
    );
    flowRuns.save(aRun({ id: 'elsewhere', projectId: project.id, flowId: 'gone' }));
    flowRuns.save(aRun({ id: 'theirs', projectId: other.id, flowId: orders.id }));
    assert.deepEqual(
      (await listFlowRuns(ctx, 'shop', { flow: 'ORDERS' })).map((r) => r.id),
      ['new', 'old'],
    );
    assert.deepEqual(
      (await listFlowRuns(ctx, 'shop', { flow: 'orders', limit: 1 })).map((r) => r.id),
      ['new'],
    );
    assert.equal((await listFlowRuns(ctx, 'shop')).length, 3);
    assert.equal((await getFlowRun(ctx, 'shop', 'old')).id, 'old');
    const e = await failure(getFlowRun(ctx, 'shop', 'theirs'));
    assert.equal(e.code, 'NOT_FOUND');
    assert.match(e.message, /^Run "theirs" not found in project "shop"$/);
  });

  it('waits until a run ends, or says it has not within the time given', async (t) => {
    const { ctx, flowRuns, project } = await shop(t);
    const run = aRun({ id: 'r1', projectId: project.id, flowId: 'f' });
    flowRuns.save(run);
    const notYet = await waitFlowRun(ctx, 'shop', 'r1', { timeoutMs: 200 });
    assert.deepEqual([notYet.ended, notYet.run.status], [false, 'running']);
    setTimeout(() => flowRuns.save({ ...run, status: 'failed', finishedAt: new Date().toISOString() }), 100);
    const ended = await waitFlowRun(ctx, 'shop', 'r1', { timeoutMs: 10_000 });
    assert.deepEqual([ended.ended, ended.run.status], [true, 'failed']);
    assert.equal((await failure(waitFlowRun(ctx, 'shop', 'r1', { timeoutMs: -1 }))).code, 'INVALID_ARGUMENT');
  });

  it("starts a run on the project's running server through the registry, with the id it waits on", async (t) => {
    const { ctx, flowRuns, project } = await shop(t);
    const orders = await createFlow(ctx, 'shop', { name: 'orders', steps: [accept] });
    const record: ServerRecord = {
      pid: process.pid,
      projectId: project.id,
      projectName: 'shop',
      projectDir: '',
      host: '127.0.0.1',
      port: 40_001,
      url: 'http://127.0.0.1:40001',
      startedAt: new Date().toISOString(),
    };
    await ctx.servers.register(record);
    const asked: string[] = [];
    const sub = ctx.servers.onRunRequest(record, (request) => {
      asked.push(request.flowId);
      flowRuns.save(aRun({ id: request.runId, projectId: project.id, flowId: request.flowId }));
    });
    t.after(() => sub.close());
    const run = await startFlowRun(ctx, 'shop', 'orders');
    assert.deepEqual(asked, [orders.id]);
    assert.equal(run.flowId, orders.id);
    assert.ok(flowRuns.runs.has(run.id));
    await ctx.servers.unregister(record);
  });
});
