import type { Command } from 'commander';
import { examples } from '../help.js';

export interface ServeOptions {
  port?: string;
  host?: string;
  /** `--tunnel` alone: the default provider. */
  tunnel?: string | true;

  tls?: boolean;
  cert?: string;
  key?: string;
  /** `--contract` alone: the project's stored contract. */
  contract?: string | true;
}

const handlers = () => import('../handlers/server.js');

/** `serve`, `status` and `stop`: the mock server's life cycle. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the mock server of a project (foreground; Ctrl+C or "mockdev stop" stops it)')
    .argument('[PROJECT_ID]', 'project id, name or folder (default: the project in the current folder)')
    .option('-p, --port <PORT>', "port, 1024-65535, or 0 for any free port (default: the project's port)")
    .option('--host <HOST>', 'address to bind (default: 127.0.0.1)')
    .option(
      '--tunnel [PROVIDER]',
      '(Pro) also start a public tunnel, cloudflared (default) or ngrok, stopped with the server',
    )

    .option('--tls', 'serve HTTPS (HTTP/1.1 and HTTP/2) with the certificate "mockdev tls generate" made')
    .option('--cert <FILE>', 'serve HTTPS with this PEM certificate (with --key)')
    .option('--key <FILE>', 'the PEM private key of --cert')
    .option(
      '--contract [SPEC]',
      "(Pro) check each request against the project's contract (or SPEC, a file or URL) as it is logged, off the response path",
    )
    .addHelpText(
      'after',
      examples(
        'mockdev serve',
        'mockdev serve my-api -p 4000',
        'mockdev serve ./my-api --host 0.0.0.0',
        'mockdev serve my-api --tunnel',
        'mockdev serve my-api --tunnel ngrok',

        'mockdev serve my-api --tls',
        'mockdev serve my-api --cert cert.pem --key key.pem',
        'mockdev serve my-api --contract',
        'mockdev serve my-api --contract openapi.yaml',
      ),
    )
    .action(async (project: string | undefined, opts: ServeOptions) =>
      (await handlers()).serve(project, opts),
    );
}
