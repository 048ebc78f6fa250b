import type { Command } from 'commander';
import { examples } from '../help.js';
import { printJson, printLine } from '../output.js';
import { packageVersion } from '../../core/version.js';

export function registerVersion(program: Command): void {
  program
    .command('version')
    .description('show version information')
    .option('--json', 'print JSON')
    .addHelpText('after', examples('mockdev version', 'mockdev version --json'))
    .action((opts: { json?: boolean }) => {
      const info = {
        name: 'mockdev',
        version: packageVersion(),
        node: process.versions.node,
        platform: `${process.platform}-${process.arch}`,
      };
      if (opts.json) printJson(info);
      else printLine(`mockdev ${info.version} (node ${info.node}, ${info.platform})`);
    });
}
