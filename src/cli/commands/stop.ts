import type { Command } from 'commander';
import { examples } from '../help.js';

const handlers = () => import('../handlers/server.js');

export function registerStop(program: Command): void {
  program
    .command('stop')
    .description('stop running mock servers (all, or those of one project)')
    .argument('[PROJECT]', 'project id, name or folder (default: every running server)')
    .option('--json', 'print the stopped servers as JSON')
    .addHelpText('after', examples('mockdev stop', 'mockdev stop my-api'))
    .action(async (project: string | undefined, opts: { json?: boolean }) =>
      (await handlers()).stop(project, opts),
    );
}
