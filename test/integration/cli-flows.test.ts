/**
 * `flow list | show | create | update | delete | enable | disable | step add | step remove`
 * through the CLI in-process: what each prints, and what flows.json holds (endpoints and `after`
 * steps stored by id, whatever the user named them by).
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Flow, FlowStep } from '../../src/core/model/flow.js';
import { assertCliError, json } from '../helpers/cli.js';
import { addStep, ok, shop } from '../helpers/flows.js';

describe('flow commands', () => {
  it('builds a flow step by step; flows.json names endpoints and steps by id', async (t) => {
    const { cli, id, flowsFile, stored } = await shop(t);
    assert.equal(existsSync(flowsFile), false, 'no flows.json before the first flow');
    const created = ok(await cli(['flow', 'create', 'shop', '-n', 'orders', '-d', '202, then the webhook']));
    assert.match(created.stdout, /^Created flow "orders" \(id \S+\) with 0 steps\n$/);
    assert.deepEqual(
      stored().map((f) => [f.name, f.description, f.enabled, f.steps]),
      [['orders', '202, then the webhook', true, []]],
    );

    const accept = await addStep(
      cli,
      'orders',
      '--label',
      'accept',
      '--on',
      'request:create-order',
      '--respond',
      'POST /orders',
    );
    assert.match(
      accept.stdout,
      /^Added step 1 \("accept"\) \(id \S+\) to flow "orders": request POST \/orders -> respond POST \/orders \(202\)\n$/,
    );
    const notify = json<FlowStep>(
      await addStep(
        cli,
        'orders',
        '--label',
        'notify',
        '--on',
        'after:accept+2000',
        '--callback',
        'put http://127.0.0.1:9/hook/{{body.id}}',
        '-H',
        'X-Order: {{body.id}}',
        '-b',
        '{"status":"{{response.status}}"}',
        '--retries',
        '2',
        '--timeout',
        '1500',
        '--json',
      ),
    );
    await addStep(cli, 'orders', '--on', 'delay:50', '--callback', 'GET {{env.HOOK}}/ping');

    const [flow] = stored();
    const [s1, s2, s3] = flow!.steps;
    assert.deepEqual(s1, {
      id: s1!.id,
      label: 'accept',
      trigger: { type: 'request', endpointId: id('/orders') },
      action: { type: 'respond', endpointId: id('/orders') },
    });
    assert.deepEqual(s2, {
      id: notify.id,
      label: 'notify',
      trigger: { type: 'after', stepId: s1!.id, delayMs: 2000 },
      action: {
        type: 'callback',
        method: 'PUT',
        url: 'http://127.0.0.1:9/hook/{{body.id}}',
        headers: { 'X-Order': '{{body.id}}' },
        body: '{"status":"{{response.status}}"}',
        timeoutMs: 1500,
        retries: 2,
      },
    });
    assert.deepEqual(s3!.trigger, { type: 'delay', ms: 50 });
    assert.deepEqual(s3!.action, {
      type: 'callback',
      method: 'GET',
      url: '{{env.HOOK}}/ping',
      headers: {},
      timeoutMs: 10_000,
      retries: 0,
    });

    const list = ok(await cli(['flow', 'list', 'shop']));
    assert.match(
      list.stdout,
      /^ID +NAME +ENABLED +STEPS +DESCRIPTION\n\S+ +orders +yes +3 +202, then the webhook\n$/,
    );
    assert.deepEqual(json<Flow[]>(ok(await cli(['flow', 'list', 'shop', '--json']))), stored());

    const show = ok(await cli(['flow', 'show', 'shop', 'ORDERS']));
    assert.match(show.stdout, /^id: +\S+\nname: +orders\n/);
    assert.match(show.stdout, /\n1 +\S+ +accept +request POST \/orders +respond POST \/orders \(202\)\n/);
    assert.match(
      show.stdout,
      /\n2 +\S+ +notify +after accept \+2000 ms +callback PUT http:\/\/127\.0\.0\.1:9\/hook\/\{\{body\.id\}\}/,
    );
    assert.match(show.stdout, /\n3 +\S+ +delay 50 ms +callback GET \{\{env\.HOOK\}\}\/ping\n$/);
    assert.deepEqual(json<Flow>(ok(await cli(['flow', 'show', 'shop', flow!.id, '--json']))), flow);
  });

  it('a project without flows says how to make one', async (t) => {
    const { cli } = await shop(t);
    const r = ok(await cli(['flow', 'list', 'shop']));
    assert.equal(
      r.stdout,
      'Project "shop" has no flows. Create one with: mockdev flow create "shop" -n NAME\n',
    );
    assert.deepEqual(json(ok(await cli(['flow', 'list', 'shop', '--json']))), []);
    ok(await cli(['flow', 'create', 'shop', '-n', 'empty']));
    assert.match(
      ok(await cli(['flow', 'show', 'shop', 'empty'])).stdout,
      /has no steps yet\. Add one with: mockdev flow step add/,
    );
  });

  it('creates a flow whole from a file: a flow object (its name overridden by -n) or a bare array of steps', async (t) => {
    const { cli, dir, id, stored } = await shop(t);
    const steps = [
      {
        label: 'accept',
        trigger: { type: 'request', endpointId: 'POST /orders' },
        action: { type: 'respond', endpointId: 'create-order' },
      },
      {
        label: 'notify',
        trigger: { type: 'after', stepId: 'ACCEPT' },
        action: { type: 'callback', url: 'https://example.com/h' },
      },
      {
        id: 'fwd',
        trigger: { type: 'request', endpointId: 'GET /up/*' },
        action: { type: 'proxy', endpointId: 'GET /up/*' },
      },
    ];
    writeFileSync(
      join(dir, 'flow.json'),
      JSON.stringify({ name: 'from-file', description: 'd', enabled: false, steps }),
    );
    writeFileSync(join(dir, 'steps.json'), JSON.stringify(steps.slice(0, 2)));
    const a = ok(await cli(['flow', 'create', 'shop', '--file', 'flow.json']));
    assert.match(a.stdout, /^Created flow "from-file" \(id \S+\) with 3 steps, disabled\n$/);
    ok(await cli(['flow', 'create', 'shop', '-n', 'renamed', '--file', 'flow.json']));
    ok(await cli(['flow', 'create', 'shop', '-n', 'bare', '--file', 'steps.json', '--disabled']));
    const flows = stored();
    assert.deepEqual(
      flows.map((f) => [f.name, f.enabled, f.steps.length]),
      [
        ['from-file', false, 3],
        ['renamed', false, 3],
        ['bare', false, 2],
      ],
    );
    const [s1, s2, s3] = flows[0]!.steps;
    assert.equal(s1!.action.type === 'respond' && s1!.action.endpointId, id('/orders'));
    assert.deepEqual(s2!.trigger, { type: 'after', stepId: s1!.id, delayMs: 0 });
    assert.equal(s3!.id, 'fwd');
    assert.deepEqual(s3!.action, { type: 'proxy', endpointId: id('/up/*') });
    assert.deepEqual(s2!.action, {
      type: 'callback',
      method: 'POST',
      url: 'https://example.com/h',
      headers: {},
      timeoutMs: 10_000,
      retries: 0,
    });
  });

  it('updates, disables, enables, removes a step and deletes a flow', async (t) => {
    const { cli, dir, stored } = await shop(t);
    ok(await cli(['flow', 'create', 'shop', '-n', 'orders']));
    await addStep(cli, 'orders', '--label', 'a', '--on', 'delay:10', '--callback', 'POST http://h/a');
    await addStep(cli, 'orders', '--label', 'b', '--on', 'after:a', '--callback', 'POST http://h/b');

    assert.equal(
      ok(await cli(['flow', 'update', 'shop', 'orders', '-n', 'webhooks', '-d', 'calls'])).stdout,
      `Updated flow "webhooks" (id ${stored()[0]!.id}), 2 steps\n`,
    );
    assert.deepEqual([stored()[0]!.name, stored()[0]!.description], ['webhooks', 'calls']);
    writeFileSync(
      join(dir, 'one.json'),
      JSON.stringify([
        { trigger: { type: 'delay', ms: 5 }, action: { type: 'callback', url: 'http://h/one' } },
      ]),
    );
    ok(await cli(['flow', 'update', 'shop', 'webhooks', '--file', 'one.json']));
    assert.deepEqual(
      stored()[0]!.steps.map((s) => s.trigger),
      [{ type: 'delay', ms: 5 }],
    );
    ok(await cli(['flow', 'update', 'shop', 'webhooks', '--file', 'one.json', '-n', 'again']));

    assert.equal(ok(await cli(['flow', 'disable', 'shop', 'again'])).stdout, 'Flow "again" is disabled\n');
    assert.equal(stored()[0]!.enabled, false);
    assert.equal(json<Flow>(ok(await cli(['flow', 'enable', 'shop', 'again', '--json']))).enabled, true);

    const stepId = stored()[0]!.steps[0]!.id;
    const removed = ok(await cli(['flow', 'step', 'remove', 'shop', 'again', stepId, '-f']));
    assert.equal(removed.stdout, `Removed step 1 (id ${stepId}) of flow "again"\n`);
    assert.deepEqual(stored()[0]!.steps, []);

    assertCliError(
      await cli(['flow', 'delete', 'shop', 'again']),
      2,
      /^mockdev: Delete flow "again" \(0 steps\) of project "shop": refusing without confirmation\. Pass --force/,
    );
    assert.equal(stored().length, 1);
    assert.equal(
      ok(await cli(['flow', 'delete', 'shop', 'again', '-f'])).stdout.startsWith('Deleted flow "again"'),
      true,
    );
    assert.deepEqual(stored(), []);
  });
});
