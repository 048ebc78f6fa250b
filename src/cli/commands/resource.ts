import type { Command } from 'commander';
import { RESOURCE_DOCS } from '../../core/model/resource.js';
import { examples, FORCE_OPTION, JSON_OPTION, fieldHelp } from '../help.js';

export interface ResourceOptions {
  name?: string;
  idField?: string;
  seed?: string;
  path?: string;
  set?: string;
  json?: boolean;
  force?: boolean;
}

const handlers = () => import('../handlers/resource.js');

const PROJECT = ['<PROJECT>', 'project id, name or folder'] as const;
const RESOURCE = ['<RESOURCE>', 'resource id or name'] as const;
const SEED_HELP =
  'a JSON file holding an array of objects, each with its id in the id field: the items a new or reset resource holds';

/** `resource …`: collections a running server answers with CRUD and state (docs/resources.md). */
export function registerResource(program: Command): void {
  const resource = program
    .command('resource')
    .description('manage resources: collections a running server answers with CRUD, keeping their state')
    .addHelpText(
      'after',
      `
A resource at /api/users answers GET /api/users (the items; filter with ?field=value, page
with limit and offset), POST /api/users, and GET, PUT, PATCH and DELETE /api/users/{id}. Its
state survives a restart; "resource reset" takes it back to its seed. An endpoint with the same
method and path answers instead. See docs/resources.md.
${examples(
  'mockdev resource add my-api /api/users --seed users.json',
  'mockdev resource data my-api users',
  'mockdev resource reset my-api users',
)}`,
    );

  resource
    .command('list')
    .description("list a project's resources")
    .argument(...PROJECT)
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev resource list my-api', 'mockdev resource list my-api --json'))
    .action(async (project: string, opts: ResourceOptions) => (await handlers()).list(project, opts));

  resource
    .command('show')
    .description('show a resource: its path, id field, seed and how many items it holds')
    .argument(...PROJECT)
    .argument(...RESOURCE)
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev resource show my-api users --json'))
    .action(async (project: string, ref: string, opts: ResourceOptions) =>
      (await handlers()).show(project, ref, opts),
    );

  resource
    .command('add')
    .description('add a resource at a collection path')
    .argument(...PROJECT)
    .argument('<PATH>', fieldHelp(RESOURCE_DOCS.path))
    .option('-n, --name <NAME>', fieldHelp(RESOURCE_DOCS.name))
    .option('--id-field <FIELD>', fieldHelp(RESOURCE_DOCS.idField))
    .option('--seed <FILE.json>', `${SEED_HELP} (default: none)`)
    .option('--json', 'print the resource as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev resource add my-api /api/users',
        'mockdev resource add my-api /api/orgs/{org}/members -n members --id-field login --seed members.json',
      ),
    )
    .action(async (project: string, path: string, opts: ResourceOptions) =>
      (await handlers()).add(project, path, opts),
    );

  resource
    .command('update')
    .description(
      'change a resource (only what is given changes); a new seed or id field also resets its data to the seed',
    )
    .argument(...PROJECT)
    .argument(...RESOURCE)
    .option('-n, --name <NAME>', 'new name')
    .option('--path <PATH>', 'new collection path')
    .option('--id-field <FIELD>', 'new id field')
    .option('--seed <FILE.json>', SEED_HELP)
    .option('--json', 'print the resource as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev resource update my-api users -n people',
        'mockdev resource update my-api users --seed users.json',
      ),
    )
    .action(async (project: string, ref: string, opts: ResourceOptions) =>
      (await handlers()).update(project, ref, opts),
    );

  resource
    .command('remove')
    .description('remove a resource and its state')
    .argument(...PROJECT)
    .argument(...RESOURCE)
    .option(...FORCE_OPTION)
    .addHelpText('after', examples('mockdev resource remove my-api users --force'))
    .action(async (project: string, ref: string, opts: ResourceOptions) =>
      (await handlers()).remove(project, ref, opts),
    );

  resource
    .command('data')
    .description('print the items a resource holds now, or replace them (--set; a running server too)')
    .argument(...PROJECT)
    .argument(...RESOURCE)
    .option(
      '--set <FILE.json>',
      'replace the items with those of a JSON file (an array of objects, each with its id)',
    )
    .option('--json', 'print the items as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev resource data my-api users --json',
        'mockdev resource data my-api users --set users.json',
      ),
    )
    .action(async (project: string, ref: string, opts: ResourceOptions) =>
      (await handlers()).data(project, ref, opts),
    );

  resource
    .command('reset')
    .description('take a resource back to its seed (a running server too)')
    .argument(...PROJECT)
    .argument(...RESOURCE)
    .option('--json', 'print the items as JSON')
    .addHelpText('after', examples('mockdev resource reset my-api users'))
    .action(async (project: string, ref: string, opts: ResourceOptions) =>
      (await handlers()).reset(project, ref, opts),
    );
}
