import type { Command } from 'commander';
import { examples } from '../help.js';

export interface CurlOptions {
  project?: string;
  name?: string;
  preview?: boolean;
  templates?: boolean;
  json?: boolean;
}

export function registerCurl(program: Command): void {
  program
    .command('curl')
    .description('import an endpoint from a cURL command (bash or Windows cmd, browser "Copy as cURL" too)')
    .argument(
      '<CURL_STRING>',
      'the whole cURL command as one argument (quote it), or - to read it from stdin',
    )
    .option(
      '-p, --project <PROJECT>',
      'project id, name or folder to add the endpoint to (required unless --preview)',
    )
    .option('-n, --name <NAME>', 'endpoint name (default: generated from the URL path)')
    .option('--preview', 'only show what would be imported; create nothing')
    .option(
      '--templates',
      'keep {{…}} in the request body as templates (a command you trust); by default it is sent as written',
    )
    .option('--json', 'print JSON: the preview object with --preview, else the created endpoint')
    .addHelpText(
      'after',
      examples(
        `mockdev curl "curl -X POST https://api.example.com/v1/users -H 'Content-Type: application/json' -d '{\\"name\\":\\"Ada\\"}'" -p my-api`,
        `mockdev curl "curl https://api.example.com/v1/users/42 -H 'Authorization: Bearer abc'" -p my-api --preview`,
        'pbpaste | mockdev curl - -p my-api -n "Get user"',
        `mockdev curl "curl -X POST https://api.example.com/v1/echo -d '{\\"id\\":\\"{{uuid}}\\"}'" -p my-api --templates`,
      ),
    )
    .action(async (text: string, opts: CurlOptions) =>
      (await import('../handlers/curl.js')).curl(text, opts),
    );
}
