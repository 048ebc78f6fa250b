import type { Command } from 'commander';
import { examples, JSON_OPTION } from '../help.js';

const handlers = () => import('../handlers/server.js');

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the running mock servers (project, URL, pid, uptime)')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev status', 'mockdev status --json'))
    .action(async (opts: { json?: boolean }) => (await handlers()).status(opts));
}
