import type { Command } from 'commander';
import { examples } from '../help.js';

export interface SettingsUpdateOptions {
  theme?: string;
  defaultPort?: string;
  mcpPort?: string;
  uiPort?: string;
  mcpAutoStart?: string;
  mcpLoggingMode?: string;
  confirmBeforeDelete?: string;
  developerMode?: string;
  errorReporting?: string;
  errorReportingUrl?: string;
  requestLogLimit?: string;
  requestBodyLimit?: string;
  requestSizeLimit?: string;
  ngrokAuthtoken?: string;
}

const handlers = () => import('../handlers/settings.js');

export function registerSettings(program: Command): void {
  const settings = program
    .command('settings')
    .description('view and change the settings (settings.json in the data directory)');

  settings
    .command('show')
    .description('show every setting')
    .option('--json', 'print the settings as JSON')
    .addHelpText('after', examples('mockdev settings show', 'mockdev settings show --json'))
    .action(async (opts: { json?: boolean }) => (await handlers()).show(opts));

  settings
    .command('update')
    .description('change one or more settings; the others stay as they are')
    .option('--theme <THEME>', 'light | dark | system (default system; used by the desktop UI)')
    .option('--default-port <PORT>', 'port of new projects, 1024-65535 (default 3001)')
    .option(
      '--mcp-port <PORT>',
      'port of "mockdev mcp --http" when -p is not given, 1024-65535 (default 3100)',
    )
    .option('--ui-port <PORT>', 'port of "mockdev ui" when -p is not given, 1024-65535 (default 3200)')
    .option(
      '--mcp-auto-start <BOOL>',
      'true | false: the desktop UI starts the MCP server on launch (default false)',
    )
    .option('--mcp-logging-mode <MODE>', 'off | errors | all: which MCP calls are logged (default all)')
    .option(
      '--confirm-before-delete <BOOL>',
      'true | false: delete, remove and clear ask first (default true); false: they never ask and need no --force',
    )
    .option(
      '--developer-mode <BOOL>',
      'true | false: debug logs, and the stack of an internal error, when MOCKDEV_LOG_LEVEL is not set (default false)',
    )
    .option('--error-reporting <BOOL>', 'true | false (default false); nothing is reported today, see docs')
    .option(
      '--error-reporting-url <URL>',
      'the only place error reports may go (http or https URL); "none" clears it',
    )
    .option('--request-log-limit <N>', 'logged requests kept per project, at least 1 (default 10000)')
    .option(
      '--request-body-limit <BYTES>',
      'bodies logged up to this many bytes, the rest cut (default 1048576)',
    )
    .option(
      '--request-size-limit <BYTES>',
      'largest request body a mock server takes, whole, for templates and rules; larger: 413 (default 10485760)',
    )
    .option(
      '--ngrok-authtoken <TOKEN>',
      'the ngrok auth token for "tunnel start -p ngrok" (a secret, shown masked); "-" reads it from stdin, "none" clears it',
    )
    .option('--json', 'print the settings as JSON')
    .addHelpText(
      'after',
      examples(
        'mockdev settings update --theme dark --default-port 4000',
        'echo "$MY_NGROK_TOKEN" | mockdev settings update --ngrok-authtoken -',
        'mockdev settings update --confirm-before-delete false',
        'mockdev settings update --mcp-port 3200 --mcp-logging-mode errors',
        'mockdev settings update --request-size-limit 52428800',
      ),
    )
    .action(async (opts: SettingsUpdateOptions & { json?: boolean }) => (await handlers()).update(opts));
}
