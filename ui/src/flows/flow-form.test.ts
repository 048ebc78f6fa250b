import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Flow } from '../../../src/core/model/flow';
import { flowForm, flowPatch, flowProblems, newStep, problemAt, stepInput, stepName } from './flow-form';
import { mergeRuns } from './flow-runs-model';

const flow: Flow = {
  id: 'f1',
  name: 'Orders',
  description: '',
  enabled: true,
  steps: [
    {
      id: 's1',
      label: 'accept',
      trigger: { type: 'request', endpointId: 'e1' },
      action: { type: 'respond', endpointId: 'e1' },
    },
    {
      id: 's2',
      trigger: { type: 'after', stepId: 's1', delayMs: 100 },
      action: {
        type: 'callback',
        method: 'POST',
        url: 'http://127.0.0.1:9/hook',
        headers: { 'Content-Type': 'application/json' },
        body: '{"id":"{{body.id}}"}',
        timeoutMs: 10000,
        retries: 2,
      },
    },
  ],
};

describe('the flow editor’s form', () => {
  it('gives back the steps as saved, an after trigger following its step by id', () => {
    const form = flowForm(flow);
    assert.deepEqual(
      form.steps.map((s) => stepInput(s, form.steps)),
      flow.steps,
    );
    assert.equal(stepName(form.steps, form.steps[1]!.key), 'Step 2');
    assert.equal(stepName(form.steps, form.steps[0]!.key), 'accept');
  });

  it('patches only what changed; steps only when a step changed, whatever the rows’ keys', () => {
    const base = flowForm(flow);
    assert.deepEqual(flowPatch(base, flowForm(flow)), {});
    assert.deepEqual(flowPatch(base, { ...base, name: ' Renamed ' }), { name: 'Renamed' });
    const steps = base.steps.map((s, i) => (i === 1 ? { ...s, url: 'http://127.0.0.1:9/other' } : s));
    const p = flowPatch(base, { ...base, steps });
    assert.equal((p.steps as { action: { url: string } }[])[1]!.action.url, 'http://127.0.0.1:9/other');
  });

  it('names a new step an after trigger follows by its label, and asks for one when it has none', () => {
    const base = flowForm(flow);
    const fresh = { ...newStep(), trigger: 'delay' as const, url: 'http://127.0.0.1:9/a' };
    const follower = {
      ...newStep(),
      trigger: 'after' as const,
      after: fresh.key,
      url: 'http://127.0.0.1:9/b',
    };
    const form = { ...base, steps: [...base.steps, fresh, follower] };
    assert.deepEqual(flowProblems(form), {
      'steps.3.trigger.stepId': 'Give Step 3 a label: it is not saved yet',
    });
    fresh.label = 'later';
    assert.deepEqual(flowProblems(form), {});
    assert.deepEqual(stepInput(follower, form.steps).trigger, { type: 'after', stepId: 'later', delayMs: 0 });
  });

  it('checks what it can before asking the API, keyed as the API names fields', () => {
    const step = { ...newStep(), trigger: 'delay' as const, delay: '-1', retries: 'x', timeout: '0' };
    assert.deepEqual(Object.keys(flowProblems({ name: ' ', description: '', steps: [step] })).sort(), [
      'name',
      'steps.0.action.retries',
      'steps.0.action.timeoutMs',
      'steps.0.action.url',
      'steps.0.trigger.ms',
    ]);
  });

  it('shows the API’s problem at the field it names, or at a field holding it', () => {
    const api = { field: 'steps.1.action.headers.X Y', text: 'bad header' };
    assert.equal(problemAt({}, api, 'steps.1.action.headers'), 'bad header');
    assert.equal(problemAt({}, api, 'steps.1.action.url'), undefined);
    assert.equal(problemAt({ 'steps.1.action.url': 'own' }, api, 'steps.1.action.url'), 'own');
  });
});

describe('the runs of a flow', () => {
  it('keeps the newer of each run, newest first, at most the number shown', () => {
    const run = (id: string, startedAt: string, status: 'running' | 'completed') =>
      ({ id, startedAt, status }) as Parameters<typeof mergeRuns>[0][number];
    const merged = mergeRuns(
      [run('a', '2025-01-01T00:00:01Z', 'running'), run('b', '2025-01-01T00:00:00Z', 'completed')],
      [run('a', '2025-01-01T00:00:01Z', 'completed'), run('c', '2025-01-01T00:00:02Z', 'running')],
      2,
    );
    assert.deepEqual(
      merged.map((r) => [r.id, r.status]),
      [
        ['c', 'running'],
        ['a', 'completed'],
      ],
    );
  });
});
