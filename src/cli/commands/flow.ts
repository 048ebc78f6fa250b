import type { Command } from 'commander';
import { collect } from '../args.js';
import { examples, FORCE_OPTION, JSON_OPTION } from '../help.js';

export interface FlowOptions {
  name?: string;
  description?: string;
  disabled?: boolean;
  file?: string;
  json?: boolean;
  force?: boolean;
  flow?: string;
  limit?: string;
  wait?: boolean;
  timeout?: string;
}

export interface FlowStepOptions {
  label?: string;
  on?: string[];
  respond?: string[];
  callback?: string[];
  proxyThrough?: string[];
  header?: string[];
  body?: string;
  retries?: string;
  timeout?: string;
  json?: boolean;
  force?: boolean;
}

const handlers = () => import('../handlers/flow.js');
const stepHandlers = () => import('../handlers/flow-step.js');

const PROJECT = ['<PROJECT>', 'project id, name or folder'] as const;
const FLOW = ['<FLOW>', 'flow id or name'] as const;
const WAIT_HELP = 'how long to wait for the run to end, in milliseconds (default: 30000)';

/** `flow …`: flows of trigger → action steps (docs/flows.md). */
export function registerFlow(program: Command): void {
  const flow = program
    .command('flow')
    .description(
      'manage flows: steps of a trigger and an action (answer, call back, forward), and their runs',
    )
    .addHelpText(
      'after',
      `
A step fires on a request to an endpoint (request:<ENDPOINT>), a delay after the run started
(delay:<MS>) or another step's completion (after:<STEP>[+<MS>]); it answers the request with a
mock endpoint's response (--respond), calls a URL (--callback, a template) or forwards the
request through a proxy endpoint (--proxy-through). ENDPOINT: id, name or "METHOD /path";
STEP: id or label. See docs/flows.md.
${examples(
  'mockdev flow create my-api -n order-webhook',
  'mockdev flow step add my-api order-webhook --label accept --on "request:POST /orders" --respond "POST /orders"',
  'mockdev flow step add my-api order-webhook --on delay:2000 --callback "POST {{env.HOOK}}/orders" -b \'{"id":"{{body.id}}"}\'',
  'mockdev flow runs my-api',
)}`,
    );

  flow
    .command('list')
    .description("list a project's flows")
    .argument(...PROJECT)
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev flow list my-api', 'mockdev flow list my-api --json'))
    .action(async (project: string, opts: FlowOptions) => (await handlers()).list(project, opts));

  flow
    .command('show')
    .description('show a flow and its steps')
    .argument(...PROJECT)
    .argument(...FLOW)
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev flow show my-api order-webhook --json'))
    .action(async (project: string, ref: string, opts: FlowOptions) =>
      (await handlers()).show(project, ref, opts),
    );

  flow
    .command('create')
    .description('create a flow, empty (add its steps with "flow step add") or whole from a file')
    .argument(...PROJECT)
    .option('-n, --name <NAME>', 'the flow name (required unless the file gives one; overrides it)')
    .option('-d, --description <TEXT>', 'what the flow does')
    .option('--disabled', 'create it disabled (it starts no run until enabled)')
    .option(
      '--file <FLOW.json>',
      'a flow in the model\'s shape ({ name, description, enabled, steps }) or a bare array of steps; endpoints by id, name or "METHOD /path", after steps by id or label',
    )
    .option('--json', 'print the flow as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev flow create my-api -n order-webhook -d "202, then the webhook"',
        'mockdev flow create my-api -n order-webhook --file order-webhook.json',
      ),
    )
    .action(async (project: string, opts: FlowOptions) => (await handlers()).create(project, opts));

  flow
    .command('update')
    .description(
      'rename a flow, change its description, or replace it from a file (only what is given changes)',
    )
    .argument(...PROJECT)
    .argument(...FLOW)
    .option('-n, --name <NAME>', 'new name')
    .option('-d, --description <TEXT>', 'new description')
    .option(
      '--file <FLOW.json>',
      "a flow object (its fields replace the flow's) or a bare array of steps (they replace every step)",
    )
    .option('--json', 'print the flow as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev flow update my-api order-webhook -n orders',
        'mockdev flow update my-api orders --file steps.json',
      ),
    )
    .action(async (project: string, ref: string, opts: FlowOptions) =>
      (await handlers()).update(project, ref, opts),
    );

  flow
    .command('delete')
    .description('delete a flow (its runs are kept until the request log drops them)')
    .argument(...PROJECT)
    .argument(...FLOW)
    .option(...FORCE_OPTION)
    .addHelpText('after', examples('mockdev flow delete my-api orders --force'))
    .action(async (project: string, ref: string, opts: FlowOptions) =>
      (await handlers()).remove(project, ref, opts),
    );

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    flow
      .command(name)
      .description(
        enabled
          ? 'enable a flow: its triggers start runs again'
          : 'disable a flow: it starts no run, and its pending steps are cancelled',
      )
      .argument(...PROJECT)
      .argument(...FLOW)
      .option('--json', 'print the flow as JSON')
      .addHelpText('after', examples(`mockdev flow ${name} my-api orders`))
      .action(async (project: string, ref: string, opts: FlowOptions) =>
        (await handlers()).setEnabled(project, ref, enabled, opts),
      );

  registerStep(flow);

  flow
    .command('runs')
    .description("list a project's recent flow runs, newest first, with each step's outcome")
    .argument(...PROJECT)
    .option('--flow <FLOW>', 'only the runs of this flow (id or name)')
    .option('-l, --limit <N>', 'at most N runs (default: 20)')
    .option(...JSON_OPTION)
    .addHelpText(
      'after',
      examples('mockdev flow runs my-api', 'mockdev flow runs my-api --flow orders -l 5 --json'),
    )
    .action(async (project: string, opts: FlowOptions) => (await handlers()).runs(project, opts));

  flow
    .command('run')
    .description(
      "start a run of a flow by hand on the project's running server (request triggers are skipped)",
    )
    .argument(...PROJECT)
    .argument(...FLOW)
    .option('--wait', 'wait until the run ends and print it (exit 0 completed, 1 otherwise)')
    .option('--timeout <MS>', `with --wait: ${WAIT_HELP}`)
    .option('--json', 'print the run as JSON')
    .addHelpText('after', examples('mockdev flow run my-api orders', 'mockdev flow run my-api orders --wait'))
    .action(async (project: string, ref: string, opts: FlowOptions) =>
      (await handlers()).run(project, ref, opts),
    );

  flow
    .command('wait')
    .description(
      'wait until a run ends and print it: exit 0 completed, 1 failed, cancelled or not ended in time',
    )
    .argument(...PROJECT)
    .argument('<RUN>', 'run id (flow runs lists them)')
    .option('--timeout <MS>', WAIT_HELP)
    .option('--json', 'print the run as JSON')
    .addHelpText('after', examples('mockdev flow wait my-api Xb3kq9ZpLm --timeout 10000'))
    .action(async (project: string, run: string, opts: FlowOptions) =>
      (await handlers()).wait(project, run, opts),
    );
}

/** `flow step add | remove`. */
function registerStep(flow: Command): void {
  const step = flow.command('step').description("add or remove a flow's steps");

  step
    .command('add')
    .description('add a step at the end of a flow: one trigger (--on) and one action')
    .argument(...PROJECT)
    .argument(...FLOW)
    .option('--label <LABEL>', 'names the step in after: triggers and templates ({{steps.<LABEL>.body}})')
    .option('--on <TRIGGER>', 'request:<ENDPOINT> | delay:<MS> | after:<STEP>[+<MS>]', collect)
    .option(
      '--respond <ENDPOINT>',
      "answer the triggering request with this mock endpoint's response",
      collect,
    )
    .option(
      '--callback <"METHOD URL">',
      'call this URL (a template), e.g. "POST https://example.com/hook"',
      collect,
    )
    .option(
      '--proxy-through <ENDPOINT>',
      'forward the triggering request through this proxy endpoint',
      collect,
    )
    .option('-H, --header <HEADER>', 'callback header "Name: value", a template (repeatable)', collect)
    .option('-b, --body <BODY>', 'callback body, a template')
    .option(
      '--retries <N>',
      'callback retries after a failed attempt (default: 0; waits 500 ms, 1 s, 2 s, ...)',
    )
    .option('--timeout <MS>', 'callback timeout per attempt, in milliseconds (default: 10000)')
    .option('--json', 'print the step as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev flow step add my-api orders --label accept --on "request:POST /orders" --respond "POST /orders"',
        'mockdev flow step add my-api orders --label notify --on after:accept+2000 --callback "POST http://127.0.0.1:9000/hook" -H "X-Order: {{body.id}}" --retries 2',
        'mockdev flow step add my-api orders --on "request:GET /legacy" --proxy-through "GET /upstream/*"',
      ),
    )
    .action(async (project: string, ref: string, opts: FlowStepOptions) =>
      (await stepHandlers()).add(project, ref, opts),
    );

  step
    .command('remove')
    .description('remove a step (refused while another step waits for it)')
    .argument(...PROJECT)
    .argument(...FLOW)
    .argument('<STEP>', 'step id or label')
    .option(...FORCE_OPTION)
    .option('--json', 'print the removed step as JSON')
    .addHelpText('after', examples('mockdev flow step remove my-api orders notify --force'))
    .action(async (project: string, ref: string, stepRef: string, opts: FlowStepOptions) =>
      (await stepHandlers()).remove(project, ref, stepRef, opts),
    );
}
