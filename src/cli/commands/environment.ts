import type { Command } from 'commander';
import { collect } from '../args.js';
import { ENVIRONMENT_DOCS } from '../../core/model/descriptions.js';
import { examples, fieldHelp, FORCE_OPTION, JSON_OPTION } from '../help.js';

export interface EnvironmentOptions {
  json?: boolean;
  force?: boolean;
  reveal?: boolean;
  name?: string;
  project?: string;
  var?: string[];
  secret?: string[];
  unset?: string[];
}

const handlers = () => import('../handlers/environment.js');

const VAR_OPTION = [
  '--var <KEY=VALUE,...>',
  'plain variables (repeatable; "\\," is a literal comma, the first "=" ends the key)',
  collect,
] as const;
const SECRET_OPTION = [
  '--secret <KEY[=VALUE],...>',
  'secrets: KEY=VALUE sets one, a bare KEY makes a variable given with --var (or already there) a secret (repeatable)',
  collect,
] as const;

export function registerEnvironment(program: Command): void {
  const environment = program
    .command('environment')
    .description('manage environments: variables and secrets for templates, per project or global (Pro)')
    .addHelpText(
      'after',
      `
Values may hold "=" and ","; write a comma as "\\," (and a backslash before a comma as "\\\\").
Secrets are shown as ******** except by "show --reveal". See README "Environments".`,
    );

  environment
    .command('list')
    .description("list the project's environments and the global ones, marking the active ones")
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev environment list my-api'))
    .action(async (project: string, opts: EnvironmentOptions) => (await handlers()).list(project, opts));

  environment
    .command('create')
    .description('create an environment (global unless -p is given)')
    .option('-n, --name <NAME>', fieldHelp(ENVIRONMENT_DOCS.name, { prefix: '(required) ' }))
    .option('-p, --project <PROJECT>', fieldHelp(ENVIRONMENT_DOCS.project, { default: true }))
    .option(...VAR_OPTION)
    .option(...SECRET_OPTION)
    .option('--json', 'print the environment as JSON (secrets masked)')
    .addHelpText(
      'after',
      examples(
        'mockdev environment create -n dev -p my-api --var API_URL=http://localhost:4000,USER=ann',
        'mockdev environment create -n shared --var "GREETING=hello\\, world" --secret TOKEN=s3cr3t',
      ),
    )
    .action(async (opts: EnvironmentOptions) => (await handlers()).create(opts));

  environment
    .command('show')
    .description('show an environment (secrets masked unless --reveal)')
    .argument('<ID>', 'environment id or name')
    .option('--reveal', "print the secrets' values")
    .option(...JSON_OPTION)
    .addHelpText(
      'after',
      examples('mockdev environment show dev', 'mockdev environment show dev --reveal --json'),
    )
    .action(async (id: string, opts: EnvironmentOptions) => (await handlers()).show(id, opts));

  environment
    .command('update')
    .description('rename an environment, set, unset or protect its variables')
    .argument('<ID>', 'environment id or name')
    .option('-n, --name <NAME>', 'new name')
    .option(...VAR_OPTION)
    .option(...SECRET_OPTION)
    .option(
      '--unset <KEY,...>',
      'remove variables (applied first: "--unset K --var K=v" makes a secret plain)',
      collect,
    )
    .option('--json', 'print the environment as JSON (secrets masked)')
    .addHelpText(
      'after',
      examples(
        'mockdev environment update dev --var API_URL=http://localhost:5000 --unset USER',
        'mockdev environment update dev --secret TOKEN',
      ),
    )
    .action(async (id: string, opts: EnvironmentOptions) => (await handlers()).update(id, opts));

  environment
    .command('delete')
    .description('delete an environment')
    .argument('<ID>', 'environment id or name')
    .option(...FORCE_OPTION)
    .addHelpText('after', examples('mockdev environment delete dev --force'))
    .action(async (id: string, opts: EnvironmentOptions) => (await handlers()).remove(id, opts));

  environment
    .command('activate')
    .description(
      'make an environment active for a project (one of its own, or a global one under it); omit ENV to deactivate',
    )
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('[ENV]', 'environment id or name; omitted: no environment active for the project')
    .addHelpText(
      'after',
      examples(
        'mockdev environment activate my-api dev',
        'mockdev environment activate my-api shared',
        'mockdev environment activate my-api',
      ),
    )
    .action(async (project: string, env: string | undefined) => (await handlers()).activate(project, env));

  environment
    .command('duplicate')
    .description('copy an environment (secrets included) in the same scope')
    .argument('<ID>', 'environment id or name')
    .option('-n, --name <NAME>', 'name of the copy (default: "<name> copy")')
    .option('--json', 'print the copy as JSON (secrets masked)')
    .addHelpText('after', examples('mockdev environment duplicate dev -n staging'))
    .action(async (id: string, opts: EnvironmentOptions) => (await handlers()).duplicate(id, opts));
}
