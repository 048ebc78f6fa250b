import type { Command } from 'commander';
import { examples, FORCE_OPTION, JSON_OPTION } from '../help.js';

export interface RecordingOptions {
  json?: boolean;
  force?: boolean;
  limit?: string;
  asVariation?: boolean;
  name?: string;
}

const handlers = () => import('../handlers/recording.js');
const ENDPOINT_ARG = ['<ENDPOINT>', 'endpoint id, or PROJECT/ENDPOINT (endpoint id or name)'] as const;

export function registerRecording(program: Command): void {
  const recording = program
    .command('recording')
    .description('manage the recordings of proxy endpoints')
    .addHelpText('after', examples('mockdev recording list my-api/github', 'mockdev recording to-mock 12'));

  recording
    .command('list')
    .description("list an endpoint's recordings, newest first")
    .argument(...ENDPOINT_ARG)
    .option('-l, --limit <N>', 'at most N recordings')
    .option(...JSON_OPTION)
    .addHelpText(
      'after',
      examples('mockdev recording list my-api/github', 'mockdev recording list k3J9x --json'),
    )
    .action(async (ref: string, opts: RecordingOptions) => (await handlers()).list(ref, opts));

  recording
    .command('delete')
    .description('delete one recording')
    .argument('<ID>', 'recording id')
    .addHelpText('after', examples('mockdev recording delete 12'))
    .action(async (id: string) => (await handlers()).remove(id));

  recording
    .command('clear')
    .description('delete every recording of an endpoint')
    .argument(...ENDPOINT_ARG)
    .option(...FORCE_OPTION)
    .addHelpText('after', examples('mockdev recording clear my-api/github --force'))
    .action(async (ref: string, opts: RecordingOptions) => (await handlers()).clear(ref, opts));

  recording
    .command('count')
    .description('count the recordings of each endpoint of a project, and in total')
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev recording count my-api'))
    .action(async (project: string, opts: RecordingOptions) => (await handlers()).count(project, opts));

  recording
    .command('to-mock')
    .description('turn a recording into a mock endpoint (its method, path, status, headers and body)')
    .argument('<ID>', 'recording id')
    .option('--as-variation', 'add it as a variation of the mock endpoint with the same method and path')
    .option('-n, --name <NAME>', 'name of the new endpoint or variation')
    .option('--json', 'print the endpoint as JSON')
    .addHelpText(
      'after',
      examples('mockdev recording to-mock 12', 'mockdev recording to-mock 13 --as-variation -n "slow day"'),
    )
    .action(async (id: string, opts: RecordingOptions) => (await handlers()).toMock(id, opts));
}
