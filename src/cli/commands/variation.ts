import type { Command } from 'commander';
import { collect } from '../args.js';
import { examples, FORCE_OPTION, JSON_OPTION, TEMPLATING_OPTIONS } from '../help.js';

export interface VariationOptions {
  name?: string;
  status?: string;
  statusText?: string;
  body?: string;
  contentType?: string;
  delay?: string;
  templating?: boolean;
  header?: string[];
  removeHeader?: string[];
  when?: string[];
  clearRules?: boolean;
  json?: boolean;
  force?: boolean;
}

const handlers = () => import('../handlers/variation.js');

const RULE_HELP =
  'rule RULE = <source>.<key><op><value>: source query, header, param or body (dotted path into a JSON body); op = (equals), ~ (regex) or ? (exists, no value). All rules must match (repeatable)';

function variationOptions(cmd: Command, forUpdate: boolean): Command {
  const dflt = (text: string) => (forUpdate ? '' : ` (default: ${text})`);
  return cmd
    .option('-s, --status <STATUS>', `response status, 200-599${dflt("the endpoint's")}`)
    .option(
      '--status-text <TEXT>',
      forUpdate
        ? 'reason phrase sent with the status, may be a template ("" restores the standard one)'
        : 'reason phrase sent with the status, may be a template (default: the standard one)',
    )
    .option('-b, --body <BODY>', `response body text${dflt('empty')}`)
    .option('--content-type <TYPE>', `response Content-Type${dflt("the endpoint's")}`)
    .option('--delay <MS>', `delay before responding, in milliseconds${dflt('0')}`)
    .option(...TEMPLATING_OPTIONS[0])
    .option(...TEMPLATING_OPTIONS[1])
    .option(
      '-H, --header <HEADER>',
      forUpdate
        ? 'set a response header "Name: value" (repeatable)'
        : 'response header "Name: value" (repeatable)',
      collect,
    )
    .option('--when <RULE>', forUpdate ? `${RULE_HELP}; replaces the rules` : RULE_HELP, collect)
    .option('--json', 'print the variation as JSON');
}

/** `endpoint variation …`: the response variations of an endpoint. */
export function registerVariation(endpoint: Command): void {
  const variation = endpoint
    .command('variation')
    .description("manage an endpoint's response variations (alternative responses)")
    .addHelpText(
      'after',
      `
Which response answers a request: the variation named by the request header
"X-Mockdev-Variation: <name or id>" (unknown names are ignored); else the active variation;
else by the endpoint's mode (endpoint update --mode): rules (default) the first variation whose
rules all match, else the default response; sequential the default, then each variation in
turn; random any of them.
${examples(
  'mockdev endpoint variation add my-api "GET /api/users/:id" -n missing -s 404 --when param.id=0',
  'mockdev endpoint variation list my-api "GET /api/users/:id"',
  'mockdev endpoint variation activate my-api "GET /api/users/:id" missing',
)}`,
    );

  variation
    .command('list')
    .description("list an endpoint's variations")
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev endpoint variation list my-api "GET /api/users/:id" --json'))
    .action(async (project: string, ref: string, opts: VariationOptions) =>
      (await handlers()).list(project, ref, opts),
    );

  variationOptions(
    variation
      .command('add')
      .description('add a response variation to an endpoint')
      .argument('<PROJECT>', 'project id, name or folder')
      .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
      .requiredOption('-n, --name <NAME>', 'variation name, unique within the endpoint'),
    false,
  )
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint variation add my-api "GET /api/users" -n page2 -b \'[{"id":3}]\' --when query.page=2',
        'mockdev endpoint variation add my-api "GET /api/users" -n admins --when header.x-role~^adm',
        'mockdev endpoint variation add my-api "POST /api/users" -n invalid -s 422 --when body.user.email?',
        'mockdev endpoint variation add my-api "GET /api/users" -n slow --delay 3000',
        'mockdev endpoint variation add my-api "GET /api/users" -n gone -s 410 --status-text "Gone Fishing"',
      ),
    )
    .action(async (project: string, ref: string, opts: VariationOptions) =>
      (await handlers()).add(project, ref, opts),
    );

  variationOptions(
    variation
      .command('update')
      .description('change a variation (only the options given change)')
      .argument('<PROJECT>', 'project id, name or folder')
      .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
      .argument('<VARIATION>', 'variation id or name')
      .option('-n, --name <NAME>', 'new variation name'),
    true,
  )
    .option('--remove-header <NAME>', 'remove the response header of that name (repeatable)', collect)
    .option('--clear-rules', 'remove every rule (the variation then answers only when activated or named)')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint variation update my-api "GET /api/users" page2 -s 206 --when query.page~^[2-9]$',
        'mockdev endpoint variation update my-api "GET /api/users" page2 --clear-rules',
      ),
    )
    .action(async (project: string, ref: string, variationRef: string, opts: VariationOptions) =>
      (await handlers()).update(project, ref, variationRef, opts),
    );

  variation
    .command('remove')
    .description('remove a variation')
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .argument('<VARIATION>', 'variation id or name')
    .option(...FORCE_OPTION)
    .option('--json', 'print the removed variation as JSON')
    .addHelpText('after', examples('mockdev endpoint variation remove my-api "GET /api/users" page2 --force'))
    .action(async (project: string, ref: string, variationRef: string, opts: VariationOptions) =>
      (await handlers()).remove(project, ref, variationRef, opts),
    );

  variation
    .command('activate')
    .description('make a variation answer every request; without VARIATION, back to selection by mode')
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<ENDPOINT>', 'endpoint id, name, or "METHOD /path"')
    .argument('[VARIATION]', 'variation id or name (omit to deactivate)')
    .option('--json', 'print the endpoint as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint variation activate my-api "GET /api/users" slow',
        'mockdev endpoint variation activate my-api "GET /api/users"',
      ),
    )
    .action(async (project: string, ref: string, variationRef: string | undefined, opts: VariationOptions) =>
      (await handlers()).activate(project, ref, variationRef, opts),
    );
}
