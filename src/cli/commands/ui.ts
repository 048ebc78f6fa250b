import type { Command } from 'commander';
import { TOKEN_ENV } from '../../core/binding.js';
import { examples, tokenOptions } from '../help.js';

export interface UiOptions {
  port?: string;
  host?: string;
  open?: boolean;
  app?: boolean;
  token?: string;
  tokenFile?: string;
  tls?: boolean;
  cert?: string;
  key?: string;
}

/** Names the browser `ui --app` uses before any lookup (a path, or a name in PATH). */
export const APP_BROWSER_ENV = 'MOCKDEV_APP_BROWSER';

const [TOKEN, TOKEN_FILE] = tokenOptions(TOKEN_ENV.ui);

const handlers = () => import('../handlers/ui.js');

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('serve the admin HTTP API (/api/v1) and the web UI')
    .option(
      '-p, --port <PORT>',
      'port, 1024-65535, or 0 for any free port (default: the uiPort setting, 3200)',
    )
    .option('--host <HOST>', 'bind address (default 127.0.0.1); any other address needs a token')
    .option('--open', 'open the UI in the default browser')
    .option(
      '--app',
      `open the UI in a window of its own (Chromium, Chrome or Edge in app mode; ${APP_BROWSER_ENV} names another), else in the default browser`,
    )
    .option(...TOKEN)
    .option(...TOKEN_FILE)
    .option('--tls', 'serve HTTPS (HTTP/1.1 and HTTP/2) with the certificate "mockdev tls generate" made')
    .option('--cert <FILE>', 'serve HTTPS with this PEM certificate (with --key)')
    .option('--key <FILE>', 'the PEM private key of --cert')
    .addHelpText(
      'after',
      `${examples(
        'mockdev ui',
        'mockdev ui -p 3300 --open',
        'mockdev ui --app',
        'mockdev ui --tls',
        'MOCKDEV_UI_TOKEN=s3cret mockdev ui --host 0.0.0.0',
        'mockdev ui --host 0.0.0.0 --token-file ~/.config/mockdev/ui-token',
        'pass show mockdev/ui | mockdev ui --host 0.0.0.0 --token -',
      )}

Runs in the foreground until Ctrl+C (SIGINT) or SIGTERM; mock servers started through it stop
with it. The API is described by GET /api/v1/openapi.json (docs/admin-api.md).`,
    )
    .action(async (opts: UiOptions) => (await handlers()).ui(opts));
}
