import type { Command } from 'commander';
import { examples } from '../help.js';

export interface ImportOptions {
  project?: string;
  overwrite?: boolean;
  replace?: boolean;
  templates?: boolean;
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
      'update endpoints whose method and path already exist from the document, keeping what only mockdev has (their id, name, hand-made variations and headers, delay, mode, proxy settings, …; the report lists it)',
    )
    .option(
      '--replace',
      'replace endpoints whose method and path already exist whole (they keep only their id and name; the report lists what was dropped)',
    )
    .option(
      '--templates',
      'keep {{…}} in the document as templates (a document you trust); by default imported text is sent as written',
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
        'mockdev import openapi.json -p my-api --replace',
        'mockdev import trusted.yaml --templates',
        'mockdev import openapi.yaml --strict',
      ),
    )
    .action(async (file: string, opts: ImportOptions) =>
      (await import('../handlers/import.js')).importDocument(file, opts),
    );
}
