import type { Command } from 'commander';
import { examples, FORCE_OPTION, JSON_OPTION } from '../help.js';

export interface RequestsOptions {
  limit?: string;
  method?: string;
  status?: string;
  starred?: boolean;
  path?: string;
  violations?: boolean;
  json?: boolean;
  force?: boolean;
  unstar?: boolean;
}

const handlers = () => import('../handlers/requests.js');

export function registerRequests(program: Command): void {
  const requests = program
    .command('requests')
    .description('list, show, star, delete and clear logged requests')
    .addHelpText('after', examples('mockdev requests list my-api -s 4xx', 'mockdev requests show 42'));

  requests
    .command('list')
    .description("list a project's logged requests, newest first")
    .argument('[PROJECT]', 'project id, name or folder (default: the project in the current folder)')
    .option('-l, --limit <N>', 'at most N requests (default: 50)')
    .option('-m, --method <METHOD>', 'only this HTTP method')
    .option(
      '-s, --status <STATUS>',
      'only these statuses: 404, a class such as 4xx, or a list such as 200,201',
    )
    .option('--starred', 'only starred requests')
    .option('--path <TEXT>', 'only requests whose path contains this text (case-sensitive), such as /users')
    .option('--violations', '(live contract checking) only requests the check found violations in')
    .option(...JSON_OPTION)
    .addHelpText(
      'after',
      examples(
        'mockdev requests list my-api',
        'mockdev requests list my-api -m POST -s 5xx -l 10',
        'mockdev requests list my-api --starred --json',
        'mockdev requests list my-api --path /users -s 4xx',
        'mockdev requests list my-api --violations',
      ),
    )
    .action(async (project: string | undefined, opts: RequestsOptions) =>
      (await handlers()).list(project, opts),
    );

  requests
    .command('show')
    .description('show one request and its response')
    .argument('<ID>', 'request id')
    .option('--json', 'print JSON')
    .addHelpText('after', examples('mockdev requests show 42', 'mockdev requests show 42 --json'))
    .action(async (id: string, opts: RequestsOptions) => (await handlers()).show(id, opts));

  requests
    .command('delete')
    .description('delete requests by id (all or none: unknown ids are an error)')
    .argument('<ID...>', 'request ids')
    .option(...FORCE_OPTION)
    .option('--json', 'print the deleted ids as JSON')
    .addHelpText('after', examples('mockdev requests delete 42 43 --force'))
    .action(async (ids: string[], opts: RequestsOptions) => (await handlers()).remove(ids, opts));

  requests
    .command('clear')
    .description('delete every logged request of a project (starred ones too)')
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...FORCE_OPTION)
    .option('--json', 'print the number deleted as JSON')
    .addHelpText('after', examples('mockdev requests clear my-api --force'))
    .action(async (project: string, opts: RequestsOptions) => (await handlers()).clear(project, opts));

  requests
    .command('star')
    .description('star a request (kept when old requests are dropped), or unstar it')
    .argument('<ID>', 'request id')
    .option('--unstar', 'remove the star')
    .option('--json', 'print the request as JSON')
    .addHelpText('after', examples('mockdev requests star 42', 'mockdev requests star 42 --unstar'))
    .action(async (id: string, opts: RequestsOptions) => (await handlers()).star(id, opts));
}
