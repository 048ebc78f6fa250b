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
  since?: string;
  count?: string;
  timeout?: string;
}

/** The filters of `requests list` (but --limit). */
function listFilters(command: Command): Command {
  return command
    .option('-m, --method <METHOD>', 'only this HTTP method')
    .option(
      '-s, --status <STATUS>',
      'only these statuses: 404, a class such as 4xx, or a list such as 200,201',
    )
    .option('--starred', 'only starred requests')
    .option('--path <TEXT>', 'only requests whose path contains this text (case-sensitive), such as /users')
    .option('--violations', '(live contract checking) only requests the check found violations in');
}

/** The project, the list's filters and --since, as `requests count` and `requests wait` take them. */
const countFilters = (command: Command): Command =>
  listFilters(
    command.argument('[PROJECT]', 'project id, name or folder (default: the project in the current folder)'),
  ).option('--since <ID>', 'only requests logged after the request of this id (as requests list shows)');

const handlers = () => import('../handlers/requests.js');

export function registerRequests(program: Command): void {
  const requests = program
    .command('requests')
    .description('list, count, wait for, show, star, delete and clear logged requests')
    .addHelpText(
      'after',
      examples(
        'mockdev requests list my-api -s 4xx',
        'mockdev requests wait my-api -m POST -c 2',
        'mockdev requests show 42',
      ),
    );

  listFilters(
    requests
      .command('list')
      .description("list a project's logged requests, newest first")
      .argument('[PROJECT]', 'project id, name or folder (default: the project in the current folder)')
      .option('-l, --limit <N>', 'at most N requests (default: 50)'),
  )
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

  countFilters(
    requests.command('count').description('how many logged requests of a project match the filters'),
  )
    .option('--json', 'print { "count": N }')
    .addHelpText(
      'after',
      examples(
        'mockdev requests count my-api',
        'mockdev requests count my-api -m POST --path /users -s 2xx',
        'mockdev requests count my-api --since 42 --json',
      ),
    )
    .action(async (project: string | undefined, opts: RequestsOptions) =>
      (await handlers()).count(project, opts),
    );

  countFilters(
    requests
      .command('wait')
      .description(
        'wait until N logged requests match the filters (after --since, or counting those there), then print them; exit 1 at the timeout',
      ),
  )
    .option('-c, --count <N>', 'how many matching requests to wait for (default: 1)')
    .option('--timeout <MS>', 'give up after this many milliseconds, exit 1 (default: 10000)')
    .option('--json', 'print { done, wanted, count, records }')
    .addHelpText(
      'after',
      examples(
        'mockdev requests wait my-api -m POST --path /orders',
        'mockdev requests wait my-api --since 42 -c 3 --timeout 5000',
        'mockdev requests wait my-api -s 5xx --timeout 2000 --json',
      ),
    )
    .action(async (project: string | undefined, opts: RequestsOptions) =>
      (await handlers()).wait(project, opts),
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
