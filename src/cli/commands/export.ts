import { Option, type Command } from 'commander';
import { examples } from '../help.js';

export interface ExportOptions {
  output?: string;
  format?: string;
  openapi?: string;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export a project as an OpenAPI document')
    .argument('<PROJECT_ID>', 'project id, name or folder')
    .option('-o, --output <FILE>', 'write to this file instead of stdout')
    .addOption(new Option('-f, --format <FORMAT>', 'json or yaml (default: yaml)'))
    .addOption(
      new Option(
        '--openapi <VERSION>',
        'OpenAPI version to write: 3.0 (3.0.3) or 3.1 (3.1.0) (default: 3.0)',
      ),
    )
    .addHelpText(
      'after',
      examples(
        'mockdev export my-api',
        'mockdev export my-api -f json -o openapi.json',
        'mockdev export my-api --openapi 3.1 -o openapi.yaml',
      ),
    )
    .action(async (project: string, opts: ExportOptions) =>
      (await import('../handlers/export.js')).exportProject(project, opts),
    );
}
