/**
 * The flow commands' errors through the CLI in-process: each one line on stderr with its exit
 * code (3 unknown project, 1 unknown flow, step or run and refused states, 2 invalid values),
 * and flows.json untouched.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError } from '../helpers/cli.js';
import { ACCEPT_STEP, addStep, ok, shop } from '../helpers/flows.js';

/** Shop with flow "orders" (accept: POST /orders answered; notify: after accept, a callback). */
async function withOrders(t: Parameters<typeof shop>[0]) {
  const s = await shop(t);
  ok(await s.cli(['flow', 'create', 'shop', '-n', 'orders']));
  await addStep(s.cli, 'orders', ...ACCEPT_STEP);
  await addStep(
    s.cli,
    'orders',
    '--label',
    'notify',
    '--on',
    'after:accept',
    '--callback',
    'POST http://127.0.0.1:9/h',
  );
  /** Runs a command that must fail as said, leaving flows.json as it was. */
  const refused = async (args: string[], code: number, re: RegExp) => {
    const before = readFileSync(s.flowsFile, 'utf8');
    assertCliError(await s.cli(args), code, re);
    assert.equal(readFileSync(s.flowsFile, 'utf8'), before, `flows.json untouched by: ${args.join(' ')}`);
  };
  return { ...s, refused };
}

const add = (...rest: string[]) => ['flow', 'step', 'add', 'shop', 'orders', ...rest];

describe('flow command errors', () => {
  it('unknown project (3), flow (1, listing the flows) and step (1, listing the steps)', async (t) => {
    const { refused } = await withOrders(t);
    for (const args of [
      ['flow', 'list', 'nope'],
      ['flow', 'show', 'nope', 'orders'],
      ['flow', 'create', 'nope', '-n', 'x'],
      ['flow', 'runs', 'nope'],
      ['flow', 'run', 'nope', 'orders'],
      ['flow', 'wait', 'nope', 'r1'],
    ])
      await refused(args, 3, /^mockdev: Project "nope" not found/);
    for (const args of [
      ['flow', 'show', 'shop', 'nope'],
      ['flow', 'update', 'shop', 'nope', '-n', 'x'],
      ['flow', 'delete', 'shop', 'nope', '-f'],
      ['flow', 'enable', 'shop', 'nope'],
      ['flow', 'disable', 'shop', 'nope'],
      ['flow', 'step', 'add', 'shop', 'nope', '--on', 'delay:1', '--callback', 'GET http://h/'],
      ['flow', 'step', 'remove', 'shop', 'nope', 'accept', '-f'],
      ['flow', 'run', 'shop', 'nope'],
      ['flow', 'runs', 'shop', '--flow', 'nope'],
    ])
      await refused(args, 1, /^mockdev: Flow "nope" not found in project "shop"\. Its flows: orders\n$/);
    await refused(
      ['flow', 'step', 'remove', 'shop', 'orders', 'nope', '-f'],
      1,
      /^mockdev: Step "nope" not found in flow "orders"\. Its steps: accept \(\S+\), notify \(\S+\)\n$/,
    );
  });

  it('bad --on, --callback and option combinations say the accepted forms (2)', async (t) => {
    const { refused } = await withOrders(t);
    const forms = /use request:<ENDPOINT>, delay:<MS> or after:<STEP>\[\+<MS>\]/;
    for (const on of ['soon', 'request:', 'delay:', 'after:', 'hook:POST /x', 'after:+5'])
      await refused(
        add('--on', on, '--callback', 'GET http://h/'),
        2,
        new RegExp(`^mockdev: Invalid --on "${on.replace(/[+]/g, '\\+')}": ${forms.source}`),
      );
    await refused(
      add('--on', 'delay:soon', '--callback', 'GET http://h/'),
      2,
      /"soon" is not a whole number of milliseconds\. Use request:<ENDPOINT>/,
    );
    await refused(
      add('--on', 'after:accept+x', '--callback', 'GET http://h/'),
      2,
      /"x" is not a whole number of milliseconds/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'http://h/'),
      2,
      /^mockdev: Invalid --callback "http:\/\/h\/": use "<METHOD> <URL>"\. E\.g\. --callback "POST https/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'FETCH http://h/'),
      2,
      /^mockdev: Invalid steps\.2\.action\.method "FETCH": must be one of GET, POST/,
    );
    await refused(
      add('--callback', 'GET http://h/'),
      2,
      /^mockdev: A step needs a trigger: --on\. Use --on request:<ENDPOINT>/,
    );
    await refused(
      add('--on', 'delay:1', '--on', 'delay:2', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Give one trigger, not 2/,
    );
    await refused(
      add('--on', 'delay:1'),
      2,
      /^mockdev: A step needs an action\. Use one of --respond <ENDPOINT>, --callback "<METHOD> <URL>" or --proxy-through <ENDPOINT>\n$/,
    );
    await refused(
      add('--on', 'request:POST /orders', '--respond', 'POST /orders', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Give one action, not 2/,
    );
    await refused(
      add('--on', 'request:GET /status', '--respond', 'GET /status', '-H', 'X-A: 1', '--retries', '1'),
      2,
      /^mockdev: -H, --retries go with --callback only\n$/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'GET http://h/', '-H', 'no-colon'),
      2,
      /^mockdev: Invalid -H "no-colon": expected "Name: value"/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'GET http://h/', '--retries', 'many'),
      2,
      /^mockdev: Invalid --retries "many": must be a whole number\n$/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'GET http://h/', '--retries', '11'),
      2,
      /^mockdev: Invalid steps\.2\.action\.retries 11: must be at most 10\n$/,
    );
    await refused(
      add('--on', 'delay:90000000', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Invalid steps\.2\.trigger\.ms 90000000: must be at most 86400000 ms/,
    );
    await refused(
      add('--label', 'has space', '--on', 'delay:1', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Invalid steps\.2\.label "has space": must start with a letter/,
    );
    await refused(
      ['flow', 'run', 'shop', 'orders', '--timeout', '5'],
      2,
      /^mockdev: --timeout goes with --wait/,
    );
    await refused(
      ['flow', 'runs', 'shop', '-l', '0'],
      2,
      /^mockdev: Invalid limit 0: must be a whole number from 1 to/,
    );
    await refused(['flow', 'update', 'shop', 'orders'], 2, /^mockdev: Nothing to update/);
    await refused(['flow', 'create', 'shop'], 2, /^mockdev: A flow name is required\. Give -n NAME\n$/);
  });

  it('refuses invalid flows, one line each (2), naming the field at fault', async (t) => {
    const { refused } = await withOrders(t);
    await refused(
      add('--on', 'request:POST /nope', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Step 3: its trigger names endpoint "POST \/nope", which the project does not have\. Name one of its endpoints by id, name or "METHOD \/path" \(run "mockdev endpoint list/,
    );
    await refused(
      add('--on', 'request:GET /status', '--respond', 'gone'),
      2,
      /^mockdev: Step 3: its respond action names endpoint "gone", which the project does not have/,
    );
    await refused(
      add('--on', 'request:GET /status', '--respond', 'GET /up/*'),
      2,
      /^mockdev: Step 3: a "respond" action needs a mock endpoint, and GET \/up\/\* is a proxy endpoint\. Forward through a proxy endpoint/,
    );
    await refused(
      add('--on', 'request:GET /status', '--proxy-through', 'GET /status'),
      2,
      /^mockdev: Step 3: a "proxy" action needs a proxy endpoint, and GET \/status is a mock endpoint/,
    );
    await refused(
      add('--on', 'delay:5', '--respond', 'GET /status'),
      2,
      /^mockdev: Step 3: a "respond" action answers the request that triggered it, so its trigger must be "request", not "delay"/,
    );
    await refused(
      add('--on', 'after:notify', '--proxy-through', 'GET /up/*'),
      2,
      /so its trigger must be "request", not "after"/,
    );
    await refused(
      add('--on', 'after:nope', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Step 3 waits for step "nope", which flow "orders" does not have\. Name a step of the same flow by its id or label \(its labels: accept, notify\)\n$/,
    );
    await refused(
      add('--label', 'ACCEPT', '--on', 'delay:1', '--callback', 'GET http://h/'),
      2,
      /^mockdev: Step 3 has the label "ACCEPT" of step 1: labels must be unique within a flow/,
    );
    await refused(
      add('--on', 'request:POST /orders', '--respond', 'GET /status'),
      2,
      /^mockdev: Step 3 answers requests to POST \/orders, which step 1 \("accept"\) of this flow already answers/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST /relative'),
      2,
      /^mockdev: Step 3: invalid callback URL "\/relative": must be an absolute URL/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST ftp://h/x'),
      2,
      /invalid callback URL "ftp:\/\/h\/x": must be an http: or https: URL, not ftp:/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST /x/{{params.id}}'),
      2,
      /must start with http:\/\/ or https:\/\/ \(or with a template\), not "\/x\/"/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST http://h/{{#if}}'),
      2,
      /invalid callback URL .*: its template does not compile/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST http://h/', '-b', '{{nope 1}}'),
      2,
      // The position once (the helper check says where), not "at line 1, column 1: … at line 1, column 1".
      /^mockdev: Step 3: invalid template in the callback body: Unknown helper "nope" at line 1, column 1; (?!.*column)/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST http://h/', '-b', '{"a": {{#if}}'),
      2,
      /^mockdev: Step 3: invalid template in the callback body at line 1, column \d+: /,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST http://h/', '-H', 'X-A: {{#each}}'),
      2,
      /invalid template in the value of callback header "X-A"/,
    );
    await refused(
      add('--on', 'delay:1', '--callback', 'POST http://h/', '-H', 'Bad Name: x'),
      2,
      /^mockdev: Invalid header name \(steps\.2\.action\.headers\) "Bad Name": may contain only/,
    );
    await refused(
      ['flow', 'create', 'shop', '-n', 'ORDERS'],
      1,
      /^mockdev: A flow named "orders" already exists in project "shop"\. Choose another name\n$/,
    );
    await refused(
      ['flow', 'step', 'remove', 'shop', 'orders', 'accept', '-f'],
      1,
      /^mockdev: Step 1 \("accept"\) of flow "orders" cannot be removed: step 2 \("notify"\) waits for it\. Remove that step first/,
    );
  });

  it('one answering step per endpoint across enabled flows: a second one, or enabling it, names the other', async (t) => {
    const { cli, refused, dir } = await withOrders(t);
    const answer = ['--on', 'request:POST /orders', '--respond', 'GET /status'];
    ok(await cli(['flow', 'create', 'shop', '-n', 'second', '--disabled']));
    await addStep(cli, 'second', ...answer);
    const other =
      /^mockdev: Step 1 answers requests to POST \/orders, which step 1 \("accept"\) of flow "orders" already answers: one enabled step may answer an endpoint/;
    await refused(['flow', 'enable', 'shop', 'second'], 2, other);
    ok(await cli(['flow', 'create', 'shop', '-n', 'third']));
    await refused(['flow', 'step', 'add', 'shop', 'third', ...answer], 2, other);
    writeFileSync(
      join(dir, 'f.json'),
      JSON.stringify({
        name: 'fourth',
        steps: [
          {
            trigger: { type: 'request', endpointId: 'POST /orders' },
            action: { type: 'respond', endpointId: 'POST /orders' },
          },
        ],
      }),
    );
    await refused(['flow', 'create', 'shop', '--file', 'f.json'], 2, other);
    // Once "orders" is disabled, "second" may answer.
    ok(await cli(['flow', 'disable', 'shop', 'orders']));
    ok(await cli(['flow', 'enable', 'shop', 'second']));
  });

  it('a --file that is missing, not JSON, of the wrong shape, without steps or with a cycle (2)', async (t) => {
    const { refused, dir } = await withOrders(t);
    const file = (name: string, text: string) => writeFileSync(join(dir, name), text);
    file('bad.json', '{"name": ');
    file('num.json', '42');
    file('empty.json', '{"name": "e", "steps": []}');
    file('none.json', '[]');
    file(
      'cycle.json',
      JSON.stringify({
        name: 'c',
        steps: [
          {
            label: 'a',
            trigger: { type: 'after', stepId: 'b' },
            action: { type: 'callback', url: 'http://h/a' },
          },
          {
            label: 'b',
            trigger: { type: 'after', stepId: 'a' },
            action: { type: 'callback', url: 'http://h/b' },
          },
        ],
      }),
    );
    file(
      'type.json',
      JSON.stringify({
        name: 't',
        steps: [{ trigger: { type: 'cron' }, action: { type: 'callback', url: 'http://h/' } }],
      }),
    );
    await refused(
      ['flow', 'create', 'shop', '-n', 'x', '--file', 'missing.json'],
      2,
      /^mockdev: .*missing\.json/,
    );
    await refused(
      ['flow', 'create', 'shop', '-n', 'x', '--file', 'bad.json'],
      2,
      /^mockdev: Invalid --file "bad\.json": not JSON \(/,
    );
    await refused(
      ['flow', 'create', 'shop', '-n', 'x', '--file', 'num.json'],
      2,
      /^mockdev: Invalid --file "num\.json": must hold a flow object/,
    );
    await refused(
      ['flow', 'create', 'shop', '--file', 'empty.json'],
      2,
      /^mockdev: Flow "e" has no steps: a flow given whole needs at least one/,
    );
    await refused(
      ['flow', 'create', 'shop', '-n', 'x', '--file', 'none.json'],
      2,
      /^mockdev: Flow "x" has no steps/,
    );
    await refused(
      ['flow', 'update', 'shop', 'orders', '--file', 'none.json'],
      2,
      /^mockdev: Flow "orders" has no steps/,
    );
    await refused(
      ['flow', 'create', 'shop', '--file', 'cycle.json'],
      2,
      /^mockdev: Steps of flow "c" wait for each other in a cycle \(a waits for b waits for a\)/,
    );
    await refused(
      ['flow', 'create', 'shop', '--file', 'type.json'],
      2,
      /^mockdev: Invalid steps\.0\.trigger\.type/,
    );
  });

  it('an endpoint a flow uses is not removed, naming the flow and the step (1)', async (t) => {
    const { cli, refused, stored } = await withOrders(t);
    await refused(
      ['endpoint', 'remove', 'shop', 'POST /orders', '-f'],
      1,
      /^mockdev: Endpoint "POST \/orders" is used by step 1 \("accept"\) of flow "orders"; nothing was removed\. Remove that step or the flow first/,
    );
    ok(await cli(['endpoint', 'remove', 'shop', 'GET /status', '-f']));
    // Once no flow uses it, it goes.
    ok(await cli(['flow', 'delete', 'shop', 'orders', '-f']));
    ok(await cli(['endpoint', 'remove', 'shop', 'POST /orders', '-f']));
    assert.deepEqual(stored(), []);
  });

  it('flow run without a running server: exit 1 saying to start it', async (t) => {
    const { refused, cli } = await withOrders(t);
    await refused(
      ['flow', 'run', 'shop', 'orders'],
      1,
      /^mockdev: No server of project "shop" is running: a run starts on the project's server\. Start it \("mockdev serve shop"/,
    );
    ok(await cli(['flow', 'disable', 'shop', 'orders']));
    assertCliError(
      await cli(['flow', 'run', 'shop', 'orders', '--wait']),
      1,
      /^mockdev: Flow "orders" is disabled: a disabled flow starts no run\. Enable it first\n$/,
    );
  });
});
