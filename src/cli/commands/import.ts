import type { Command } from 'commander';
import { examples } from '../help.js';

export interface ImportOptions {
  project?: string;
  overwrite?: boolean;
  replace?: boolean;
  templates?: boolean;
  strict?: boolean;
  json?: boolean;
  format?: string;
  dryRun?: boolean;
  includeHost?: string;
  all?: boolean;
  env?: boolean;
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description(
      'import an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; JSON or YAML), a HAR file, a Postman collection, a Mockoon environment or WireMock mappings',
    )
    .argument(
      '<FILE>',
      'the file to import (- reads it from stdin; a WireMock mappings folder may be given as a folder)',
    )
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
    .option(
      '-f, --format <FORMAT>',
      'openapi, har, postman, mockoon or wiremock (default: detected from the content)',
    )
    .option('--dry-run', 'print the report and change nothing')
    .option(
      '--include-host <HOST>',
      'HAR: only the entries of this host (default: the host with most entries)',
    )
    .option('--all', 'HAR: static assets (images, scripts, styles, fonts) too')
    .option('--env', "Postman: the collection's variables as an environment of the project (Pro)")
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
        'mockdev import session.har --include-host api.example.com',
        'mockdev import collection.postman_collection.json --env',
        'mockdev import mockoon-environment.json --dry-run',
        'mockdev import wiremock/ -p my-api',
        'mockdev import mapping.json --format wiremock --json',
      ),
    )
    .action(async (file: string, opts: ImportOptions) =>
      (await import('../handlers/import.js')).importDocument(file, opts),
    );
}
