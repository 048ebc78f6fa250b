import type { Command } from 'commander';
import { examples } from '../help.js';

export interface ImportOptions {
  project?: string;
  overwrite?: boolean;
  strict?: boolean;
  json?: boolean;
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; JSON or YAML)')
    .argument('<FILE>', 'the document to import (- reads it from stdin)')
    .option(
      '-p, --project <ID>',
      'import into this project (id, name or folder) instead of creating a new one',
    )
    .option(
      '--overwrite',
      'replace endpoints whose method and path already exist (they keep their id and name)',
    )
    .option(
      '--strict',
      'refuse the document at its first problem (a part that breaks the OpenAPI schema, a $ref that cannot be resolved); by default what can be read is imported and each problem is a warning',
    )
    .option('--json', 'print what was created, replaced and skipped, and the warnings, as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev import petstore.yaml',
        'mockdev import openapi.json -p my-api',
        'mockdev import openapi.json -p my-api --overwrite --json',
        'mockdev import openapi.yaml --strict',
      ),
    )
    .action(async (file: string, opts: ImportOptions) =>
      (await import('../handlers/import.js')).importDocument(file, opts),
    );
}
