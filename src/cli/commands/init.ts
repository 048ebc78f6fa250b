import type { Command } from 'commander';
import { examples } from '../help.js';

export interface InitOptions {
  name?: string;
  port?: string;
  withExamples?: boolean;
  force?: boolean;
  json?: boolean;
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create project.json and endpoints.json in a folder')
    .argument('[PATH]', 'folder to write into (created if missing)', '.')
    .option('-n, --name <NAME>', 'project name (default: the folder name)')
    .option(
      '-p, --port <PORT>',
      'port the project is served on, 1024-65535 (default: the next one from 3001 no project uses)',
    )
    .option('--with-examples', 'add example endpoints: GET/POST /api/users, GET /api/users/:id, GET /health')
    .option('--force', 'overwrite project.json and endpoints.json if they exist')
    .option('--json', 'print the created project as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev init',
        'mockdev init ./my-api -n "My API" -p 4000 --with-examples',
        'mockdev init . --force',
      ),
    )
    .action(async (path: string, opts: InitOptions) =>
      (await import('../handlers/project.js')).init(path, opts),
    );
}
