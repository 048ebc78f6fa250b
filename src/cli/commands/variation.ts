import type { Command } from 'commander';
import { collect } from '../args.js';
import {
  RULE_TEXT_DOC,
  VARIATION_DOCS,
  VARIATION_INPUT_DOCS,
  VARIATION_PATCH_DOCS,
  type FieldDoc,
} from '../../core/model/descriptions.js';
import { examples, fieldHelp, FORCE_OPTION, JSON_OPTION, TEMPLATING_OPTIONS } from '../help.js';
import { timingOptions, type TimingOptions } from '../timing-options.js';

export interface VariationOptions extends TimingOptions {
  name?: string;
  status?: string;
  statusText?: string;
  body?: string;
  contentType?: string;
  templating?: boolean;
  header?: string[];
  removeHeader?: string[];
  when?: string[];
  clearRules?: boolean;
  inherit?: string[];
  json?: boolean;
  force?: boolean;
}

const handlers = () => import('../handlers/variation.js');

const RULE_HELP = fieldHelp(RULE_TEXT_DOC, { more: 'all rules must match (repeatable)' });

/** The options `variation add` and `variation update` share, in the core's words for the fields. */
function variationOptions(cmd: Command, forUpdate: boolean): Command {
  const docs = forUpdate ? VARIATION_PATCH_DOCS : VARIATION_INPUT_DOCS;
  const help = (doc: FieldDoc) => fieldHelp(doc, { default: !forUpdate });
  return timingOptions(cmd, docs, forUpdate)
    .option('-s, --status <STATUS>', help(docs.status))
    .option('--status-text <TEXT>', help(docs.statusText))
    .option('-b, --body <BODY>', help(docs.body))
    .option('--content-type <TYPE>', help(docs.contentType))
    .option(...TEMPLATING_OPTIONS[0])
    .option(...TEMPLATING_OPTIONS[1])
    .option(
      '-H, --header <HEADER>',
      forUpdate
        ? 'set a response header "Name: value", sent over the endpoint\'s headers (repeatable)'
        : 'response header "Name: value", sent over the endpoint\'s headers (repeatable; default: the endpoint\'s alone)',
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
A variation sends its own status, status text and delay; the body and content type it does not
set are the endpoint's, and its headers are sent over the endpoint's (same name: the variation's).

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
      .requiredOption('-n, --name <NAME>', fieldHelp(VARIATION_DOCS.name)),
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
    .option(
      '--inherit <FIELD>',
      "take a field from the endpoint again, dropping the variation's own: body, content-type or headers (repeatable)",
      collect,
    )
    .addHelpText(
      'after',
      examples(
        'mockdev endpoint variation update my-api "GET /api/users" page2 -s 206 --when query.page~^[2-9]$',
        'mockdev endpoint variation update my-api "GET /api/users" page2 --clear-rules',
        'mockdev endpoint variation update my-api "GET /api/users" slow --inherit body --inherit content-type',
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
