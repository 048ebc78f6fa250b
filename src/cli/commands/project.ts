import type { Command } from 'commander';
import { PROJECT_DOCS } from '../../core/model/descriptions.js';
import { examples, fieldHelp, FORCE_OPTION, JSON_OPTION } from '../help.js';

export interface ProjectOptions {
  port?: string;
  /** project update --tls / --no-tls */
  tls?: boolean;
  description?: string;
  newName?: string;
  force?: boolean;
  json?: boolean;
}

const handlers = () => import('../handlers/project.js');

export function registerProject(program: Command): void {
  const project = program
    .command('project')
    .description('manage projects')
    .addHelpText(
      'after',
      examples('mockdev project create "Payments" -p 4000', 'mockdev project list --json'),
    );

  project
    .command('list')
    .description('list the projects in the data directory')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev project list', 'mockdev project list --json'))
    .action(async (opts: ProjectOptions) => (await handlers()).list(opts));

  project
    .command('create')
    .description('create a project in the data directory')
    .argument('<NAME>', fieldHelp(PROJECT_DOCS.name))
    .option('-p, --port <PORT>', fieldHelp(PROJECT_DOCS.port, { default: true }))
    .option('-d, --description <TEXT>', fieldHelp(PROJECT_DOCS.description))
    .option('--json', 'print the created project as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev project create "Payments"',
        'mockdev project create "Payments" -p 4000 -d "Stripe-like API"',
      ),
    )
    .action(async (name: string, opts: ProjectOptions) => (await handlers()).create(name, opts));

  project
    .command('show')
    .description('show a project and its endpoints')
    .argument('<NAME>', 'project id, name or folder')
    .option('--json', 'print JSON (the project with its endpoints)')
    .addHelpText('after', examples('mockdev project show Payments', 'mockdev project show ./my-api --json'))
    .action(async (ref: string, opts: ProjectOptions) => (await handlers()).show(ref, opts));

  project
    .command('update')
    .description("change a project's name, port, description or HTTPS")
    .argument('<NAME>', 'project id, name or folder')
    .option('--new-name <NAME>', fieldHelp(PROJECT_DOCS.name, { prefix: 'rename the project: ' }))
    .option('-p, --port <PORT>', fieldHelp(PROJECT_DOCS.port, { prefix: 'new port: ' }))
    .option('-d, --description <TEXT>', fieldHelp(PROJECT_DOCS.description, { prefix: 'new description: ' }))
    .option('--tls', 'serve it over HTTPS with the generated certificate (mockdev tls generate) from now on')
    .option('--no-tls', 'serve it over plain HTTP again (the default)')
    .option('--json', 'print the updated project as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev project update Payments --new-name "Payments v2" -p 4100',
        'mockdev project update Payments --tls',
      ),
    )
    .action(async (ref: string, opts: ProjectOptions) => (await handlers()).update(ref, opts));

  project
    .command('delete')
    .description('delete a project and its endpoints')
    .argument('<NAME>', 'project id, name or folder')
    .option(...FORCE_OPTION)
    .option('--json', 'print the deleted project as JSON')
    .addHelpText(
      'after',
      examples('mockdev project delete Payments', 'mockdev project delete Payments --force'),
    )
    .action(async (ref: string, opts: ProjectOptions) => (await handlers()).remove(ref, opts));
}
