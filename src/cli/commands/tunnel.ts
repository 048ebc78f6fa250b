import type { Command } from 'commander';
import { TUNNEL_PROVIDERS } from '../../core/model/tunnel.js';
import { examples, JSON_OPTION } from '../help.js';

export interface TunnelStartOptions {
  provider?: string;
  port?: string;
  json?: boolean;
}

const handlers = () => import('../handlers/tunnel.js');

export function registerTunnel(program: Command): void {
  const tunnel = program
    .command('tunnel')
    .description('give a mock server a public URL through cloudflared or ngrok (Pro)')
    .addHelpText(
      'after',
      `
A tunnel runs in the background and outlives the command; one per project. The admin API
(mockdev ui) and the MCP server are never tunnelled. See docs/tunnels.md.

Environment:
  MOCKDEV_CLOUDFLARED_PATH    the cloudflared program (default: cloudflared on PATH)
  NGROK_AUTHTOKEN             the ngrok auth token (else: mockdev settings update --ngrok-authtoken)
  MOCKDEV_TUNNEL_TIMEOUT_MS   how long start waits for the public URL (default 30000)`,
    );

  tunnel
    .command('start')
    .description(
      "start a tunnel to the project's running mock server (or to -P PORT) and print its public URL",
    )
    .argument('<PROJECT>', 'project id, name or folder')
    .option('-p, --provider <PROVIDER>', `${TUNNEL_PROVIDERS.join(' | ')} (default: cloudflared)`)
    .option('-P, --port <PORT>', "the local port to tunnel to (default: the project's running server)")
    .option('--json', 'print the tunnel as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev tunnel start my-api',
        'mockdev tunnel start my-api -p ngrok',
        'mockdev tunnel start my-api -P 8080',
      ),
    )
    .action(async (project: string, opts: TunnelStartOptions) => (await handlers()).start(project, opts));

  tunnel
    .command('status')
    .description("show the project's tunnel: provider, public URL, local port, pid, start time")
    .argument('<PROJECT>', 'project id, name or folder')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev tunnel status my-api', 'mockdev tunnel status my-api --json'))
    .action(async (project: string, opts: { json?: boolean }) => (await handlers()).status(project, opts));

  tunnel
    .command('stop')
    .description("stop the project's tunnel (SIGTERM, then SIGKILL after 5 s)")
    .argument('<PROJECT>', 'project id, name or folder')
    .option('--json', 'print the stopped tunnel as JSON')
    .addHelpText('after', examples('mockdev tunnel stop my-api'))
    .action(async (project: string, opts: { json?: boolean }) => (await handlers()).stop(project, opts));

  tunnel
    .command('install')
    .description('check the tunnel providers: installed (and their version), or how to install them here')
    .option(...JSON_OPTION)
    .addHelpText('after', examples('mockdev tunnel install', 'mockdev tunnel install --json'))
    .action(async (opts: { json?: boolean }) => (await handlers()).install(opts));
}
