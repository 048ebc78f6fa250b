import type { Command } from 'commander';
import { collect } from '../args.js';
import { SNIPPET_LANGUAGES } from '../../core/snippet-languages.js';
import {
  ENDPOINT_DOCS,
  ENDPOINT_PATCH_DOCS,
  PROXY_DOCS,
  type FieldDoc,
} from '../../core/model/descriptions.js';
import { examples, fieldHelp, FORCE_OPTION, JSON_OPTION, TEMPLATING_OPTIONS } from '../help.js';
import { registerVariation } from './variation.js';
import { timingOptions, type TimingOptions } from '../timing-options.js';

export interface EndpointOptions extends TimingOptions {
  name?: string;
  path?: string;
  method?: string;
  status?: string;
  statusText?: string;
  body?: string;
  bodyFile?: string;
  templating?: boolean;
  contentType?: string;
  header?: string[];
  removeHeader?: string[];
  disabled?: boolean;
  json?: boolean;
  enabledOnly?: boolean;
  force?: boolean;
  mode?: string;
  proxy?: string;
  mock?: boolean;
  record?: boolean;
  proxyTimeout?: string;
}

const handlers = () => import('../handlers/endpoint.js');

/**
 * The options `endpoint add` and `endpoint update` share, in the core's words for the fields
 * (core/model/descriptions.ts); `add` names the defaults.
 */
function responseOptions(cmd: Command, forUpdate: boolean): Command {
  const help = (doc: FieldDoc, more?: string) => fieldHelp(doc, { default: !forUpdate, more });
  return timingOptions(cmd, forUpdate ? ENDPOINT_PATCH_DOCS : ENDPOINT_DOCS, forUpdate)
    .option('-n, --name <NAME>', help(ENDPOINT_DOCS.name))
    .option('-p, --path <PATH>', help(ENDPOINT_DOCS.path))
    .option('-m, --method <METHOD>', help(ENDPOINT_DOCS.method))
    .option('-s, --status <STATUS>', help(ENDPOINT_DOCS.status))
    .option(
      '--status-text <TEXT>',
      help(ENDPOINT_DOCS.statusText, forUpdate ? '"" restores the standard one' : undefined),
    )
    .option('-b, --body <BODY>', help(ENDPOINT_DOCS.body))
    .option('--body-file <FILE>', 'read the response body from a file')
    .option('--content-type <TYPE>', help(ENDPOINT_DOCS.contentType))
    .option(...TEMPLATING_OPTIONS[0])
    .option(...TEMPLATING_OPTIONS[1])
    .option(
      '-H, --header <HEADER>',
      forUpdate
        ? 'set a response header "Name: value": adds it, or replaces the one of that name (repeatable)'
        : 'response header "Name: value" (repeatable)',
      collect,
    )
    .option(
      '--proxy <URL>',
      fieldHelp(PROXY_DOCS.target, { more: 'makes the endpoint a proxy (its path may end in /*)' }),
    )
    .option('--record', fieldHelp(PROXY_DOCS.record, { prefix: 'proxy: ' }))
    .option('--no-record', 'proxy: stop recording')
    .option('--proxy-timeout <MS>', fieldHelp(PROXY_DOCS.timeoutMs, { prefix: 'proxy: ', default: true }))
    .option('--json', 'print the endpoint as JSON');
}

export function registerEndpoint(program: Command): void {
  const endpoint = program
    .command('endpoint')
    .description('manage the endpoints of a project')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint add my-api -m GET -p /api/orders/:id -b \'{"id":1}\'',
        'mockdev endpoint list my-api',
        'mockdev endpoint code my-api "GET /api/orders/:id" --lang fetch',
      ),
    );

  endpoint
    .command('list')
    .description("list a project's endpoints")
    .argument('[PROJECT]', 'project id, name or folder (default: the project in the current folder)')
    .option(...JSON_OPTION)
    .option('--enabled-only', 'leave out disabled endpoints')
    .addHelpText(
      'after',
      examples('mockdev endpoint list my-api', 'mockdev endpoint list my-api --enabled-only --json'),
    )
    .action(async (project: string | undefined, opts: EndpointOptions) =>
      (await handlers()).list(project, opts),
    );

  responseOptions(
    endpoint
      .command('add')
      .description('add a mock endpoint')
      .argument('<PROJECT>', 'project id, name or folder'),
    false,
  )
    .option('--disabled', 'create it disabled')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint add my-api -p /api/orders',
        'mockdev endpoint add my-api -m POST -p /api/orders -s 201 -b \'{"id":7}\' --delay 250',
        'mockdev endpoint add my-api -m PUT -p /api/orders/:id -s 201 --status-text "Created {{params.id}}"',
        'mockdev endpoint add my-api -p /report.csv --content-type text/csv --body-file report.csv',
        'mockdev endpoint add my-api -m GET -p "/github/*" --proxy https://api.github.com --record',
      ),
    )
    .action(async (project: string, opts: EndpointOptions) => (await handlers()).add(project, opts));

  endpoint
    .command('show')
    .description('show one endpoint')
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint show my-api "Get user"',
        'mockdev endpoint show my-api "GET /api/users/:id" --json',
      ),
    )
    .action(async (project: string, ref: string, opts: EndpointOptions) =>
      (await handlers()).show(project, ref, opts),
    );

  responseOptions(
    endpoint
      .command('update')
      .description('change an endpoint (only the options given change)')
      .argument('<PROJECT>', 'project id, name or folder')
      .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"'),
    true,
  )
    .option('--remove-header <NAME>', 'remove the response header of that name (repeatable)', collect)
    .option(
      '--mock',
      'make a proxy endpoint answer with its own response again (its proxy settings are kept for a later --proxy)',
    )
    .option('--mode <MODE>', fieldHelp(ENDPOINT_DOCS.mode, { default: true }))
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint update my-api "Get user" -s 404 -b \'{"error":"not found"}\'',
        'mockdev endpoint update my-api "Get user" --mode sequential',
        'mockdev endpoint update my-api "Get user" -H "Cache-Control: no-store" --remove-header X-Old',
        'mockdev endpoint update my-api "GET /users/:id" --mock   # a proxy endpoint answers itself again',
      ),
    )
    .action(async (project: string, ref: string, opts: EndpointOptions) =>
      (await handlers()).update(project, ref, opts),
    );

  endpoint
    .command('remove')
    .description('remove an endpoint')
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .option(...FORCE_OPTION)
    .option('--json', 'print the removed endpoint as JSON')
    .addHelpText('after', examples('mockdev endpoint remove my-api "Get user" --force'))
    .action(async (project: string, ref: string, opts: EndpointOptions) =>
      (await handlers()).remove(project, ref, opts),
    );

  for (const [name, on] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    endpoint
      .command(name)
      .description(`${name} an endpoint (${on ? 'served again' : 'no longer served'})`)
      .argument('<PROJECT>', 'project id, name or folder')
      .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
      .option('--json', 'print the endpoint as JSON')
      .addHelpText('after', examples(`mockdev endpoint ${name} my-api "GET /health"`))
      .action(async (project: string, ref: string, opts: EndpointOptions) =>
        (await handlers()).setEnabled(project, ref, on, opts),
      );
  }

  endpoint
    .command('code')
    .description("print code that calls an endpoint on its project's server (copy as code)")
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .option('--lang <LANG>', `language: ${SNIPPET_LANGUAGES.join(', ')}`, 'curl')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint code my-api "GET /api/users/:id"',
        'mockdev endpoint code my-api "Create user" --lang python > create_user.py',
      ),
    )
    .action(async (project: string, ref: string, opts: { lang: string }) =>
      (await handlers()).code(project, ref, opts),
    );

  registerVariation(endpoint);
}
