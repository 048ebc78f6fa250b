import type { Command } from 'commander';
import { examples, JSON_OPTION } from '../help.js';

export interface ContractOptions {
  spec?: string;
  limit?: string;
  json?: boolean;
  junit?: string;
  output?: string;
}

const handlers = () => import('../handlers/contract.js');

const SPEC_OPTION = [
  '-s, --spec <SPEC>',
  "check against this OpenAPI document, a file or an http(s) URL (default: the project's contract)",
] as const;

export function registerContract(program: Command): void {
  const contract = program
    .command('contract')
    .description("check the request log against an OpenAPI document, the project's contract (Pro)")
    .addHelpText(
      'after',
      `
The contract is a Swagger 2.0, OpenAPI 3.0 or 3.1 document, stored in the project's folder
(contract.yaml or contract.json) by "contract import". "validate" exits 1 when any logged request
or response breaks it (a CI gate). See docs/contract.md.

Environment:
  MOCKDEV_CONTRACT_FETCH_TIMEOUT_MS   how long a fetch of the document may take (default 30000)
  MOCKDEV_CONTRACT_MAX_BYTES          the largest document fetched (default 52428800, 50 MiB)`,
    );

  contract
    .command('import')
    .description("fetch an OpenAPI document over http(s), check it, and store it as the project's contract")
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<URL>', 'http(s) URL of the document (redirects followed)')
    .option('-o, --output <FILE>', 'write the document to this file instead of storing it')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev contract import my-api https://api.example.com/openapi.yaml',
        'mockdev contract import my-api https://api.example.com/openapi.json -o openapi.json',
      ),
    )
    .action(async (project: string, url: string, opts: ContractOptions) =>
      (await handlers()).importDocument(project, url, opts),
    );

  contract
    .command('validate')
    .description('check logged requests and their responses against the contract; exit 1 when any breaks it')
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...SPEC_OPTION)
    .option('-l, --limit <N>', 'only the last N logged requests (default: every one kept)')
    .option('--json', 'print the report as JSON: { spec, checked, passed, failed, skipped, violations }')
    .option('--junit <FILE>', 'also write the results as JUnit XML (one testsuite per operation)')
    .addHelpText(
      'after',
      examples(
        'mockdev contract validate my-api',
        'mockdev contract validate my-api -s openapi.yaml -l 100',
        'mockdev contract validate my-api --json',
        'mockdev contract validate my-api --junit contract-report.xml',
      ),
    )
    .action(async (project: string, opts: ContractOptions) => (await handlers()).validate(project, opts));

  contract
    .command('status')
    .description("coverage: each operation's logged requests, passed and failed, and those never exercised")
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...SPEC_OPTION)
    .option(...JSON_OPTION)
    .addHelpText(
      'after',
      examples('mockdev contract status my-api', 'mockdev contract status my-api -s openapi.yaml --json'),
    )
    .action(async (project: string, opts: ContractOptions) => (await handlers()).status(project, opts));

  contract
    .command('show')
    .description("show the project's contract: where it came from, its version and operations")
    .argument('<PROJECT>', 'project id, name or folder')
    .option('--json', 'print the contract as JSON')
    .addHelpText('after', examples('mockdev contract show my-api', 'mockdev contract show my-api --json'))
    .action(async (project: string, opts: ContractOptions) => (await handlers()).show(project, opts));

  contract
    .command('live')
    .description('turn live checking on or off: "mockdev serve" then checks each request as it is logged')
    .argument('<PROJECT>', 'project id, name or folder')
    .argument('<on|off>', 'on or off')
    .option('--json', 'print the contract as JSON')
    .addHelpText('after', examples('mockdev contract live my-api on', 'mockdev contract live my-api off'))
    .action(async (project: string, state: string, opts: ContractOptions) =>
      (await handlers()).live(project, state, opts),
    );
}
