import { Command, CommanderError } from 'commander';
import { ERROR_CATALOGUE, MockdevError, toMockdevError } from '../core/errors.js';
import { DEFAULT_LICENSE_URL } from '../core/license-defaults.js';
import { currentIo, currentRun, runWithIo, type CliIo, type CliOutput } from './io.js';
import { enabled, initLogLevel } from './log.js';
import { errorReport } from './report.js';
import { CLI_WORDING } from './wording.js';
import { registerCompletion } from './commands/completion.js';
import { registerContract } from './commands/contract.js';
import { registerCurl } from './commands/curl.js';
import { registerExport } from './commands/export.js';
import { registerFlow } from './commands/flow.js';
import { registerResource } from './commands/resource.js';
import { registerImport } from './commands/import.js';
import { registerEndpoint } from './commands/endpoint.js';
import { registerEnvironment } from './commands/environment.js';
import { registerInit } from './commands/init.js';
import { registerLicense } from './commands/license.js';
import { registerList } from './commands/list.js';
import { registerMcp } from './commands/mcp.js';
import { registerUi } from './commands/ui.js';
import { registerTls } from './commands/tls.js';
import { registerTunnel } from './commands/tunnel.js';
import { registerProject } from './commands/project.js';
import { registerRecording } from './commands/recording.js';
import { registerRequests } from './commands/requests.js';
import { registerSettings } from './commands/settings.js';
import { registerServe } from './commands/serve.js';
import { registerStatus } from './commands/status.js';
import { registerStop } from './commands/stop.js';
import { registerVersion } from './commands/version.js';
import { packageVersion } from '../core/version.js';

/**
 * Every command group registers itself here, under the name of the top-level command it adds
 * (in the order the help lists them); each loads its implementation lazily.
 */
const REGISTRARS: [name: string, register: (program: Command) => void][] = [
  ['version', registerVersion],
  ['init', registerInit],
  ['list', registerList],
  ['project', registerProject],
  ['endpoint', registerEndpoint],
  ['import', registerImport],
  ['export', registerExport],
  ['curl', registerCurl],
  ['serve', registerServe],
  ['status', registerStatus],
  ['stop', registerStop],
  ['requests', registerRequests],
  ['recording', registerRecording],
  ['flow', registerFlow],
  ['resource', registerResource],
  ['mcp', registerMcp],
  ['ui', registerUi],
  ['tls', registerTls],
  ['environment', registerEnvironment],
  ['tunnel', registerTunnel],
  ['contract', registerContract],
  ['license', registerLicense],
  ['settings', registerSettings],
  ['completion', registerCompletion],
];

/** Commands that need every other one registered: `completion` prints them all. */
const NEEDS_ALL = new Set(['completion']);

/**
 * The program with every command; with `command`, the top-level command a run names, and that
 * command alone when it is one of ours: it parses, helps and fails the same, and a start (`serve`
 * above all) does not build the other twenty command trees first.
 */
export function buildProgram(command?: string): Command {
  const program = new Command('mockdev')
    .description('Local mock API server: define mock HTTP endpoints, serve them, log every request.')
    .usage('<command> [args] [options]')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: false })
    .addHelpText(
      'after',
      `
Examples:
  $ mockdev init my-api --with-examples     create a project folder with example endpoints
  $ mockdev project create "Payments" -p 4000
  $ mockdev endpoint add Payments -m POST -p /charges -s 201 -b '{"id":"ch_1"}'
  $ mockdev endpoint list Payments --json

Environment:
  MOCKDEV_DATA_DIR    where projects, settings and the request log live
  MOCKDEV_LOG_LEVEL   error | warn | info (default) | debug | trace
  MOCKDEV_LICENSE_URL the license service for "license activate-email", "trial" and "check"
                      (default: ${DEFAULT_LICENSE_URL})
  MOCKDEV_LICENSE_PUBLIC_KEY  PEM public key to check license keys against (default: built in)
  MOCKDEV_UI_TOKEN    the token mockdev ui requires (Authorization: Bearer <token>); set it
                      rather than --token, which anyone on the machine sees in the process list
  MOCKDEV_MCP_TOKEN   the token mockdev mcp --http requires, the same way

Exit codes: 0 ok, 1 error, 2 invalid arguments, 3 project not found, 4 port in use.
Run "mockdev <command> --help" for a command's options and examples.`,
    );
  const only =
    command === undefined || NEEDS_ALL.has(command)
      ? undefined
      : REGISTRARS.find(([name]) => name === command);
  for (const [, register] of only ? [only] : REGISTRARS) register(program);
  applyToAll(program);
  program.hook('preAction', applyDeveloperMode);
  return program;
}

/** Commands that read no data: they start without opening the settings. */
const NO_SETTINGS = new Set(['version', 'completion']);

/**
 * The setting `developerMode` turns on debug logs and stack traces when MOCKDEV_LOG_LEVEL is
 * not set (the variable always wins). A settings file that cannot be read is left to the
 * command to report, if it needs it.
 */
async function applyDeveloperMode(_program: Command, action: Command): Promise<void> {
  const run = currentRun();
  if (run.io.env.MOCKDEV_LOG_LEVEL || NO_SETTINGS.has(action.name())) return;
  try {
    const { cliContext } = await import('./handlers/context.js');
    if ((await cliContext().settings.read()).developerMode) run.logLevel = 'debug';
  } catch {
    // the command reports it when it reads the settings itself
  }
}

const helpWidth = (stream: CliOutput): number => (stream.isTTY ? stream.columns : undefined) as number;

/**
 * Shared behaviour for every (sub)command: errors thrown back to us instead of exiting; help
 * and errors written to the current run's streams (commander's defaults, but not hard-wired
 * to the process).
 */
function applyToAll(command: Command): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (s) => currentIo().stdout.write(s),
    writeErr: (s) => currentIo().stderr.write(s),
    // As commander's own: the terminal's width, or undefined (its default of 80) when not a TTY.
    getOutHelpWidth: () => helpWidth(currentIo().stdout),
    getErrHelpWidth: () => helpWidth(currentIo().stderr),
    outputError: () => undefined, // we print commander's errors ourselves, as one line
  });
  for (const sub of command.commands) applyToAll(sub);
}

const CLEAN_COMMANDER_MESSAGE = /^error: /;

/** Points at the help of the deepest command that exists on the command line. */
function commanderHint(program: Command, argv: string[]): string {
  const path: string[] = [];
  let cmd: Command = program;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    path.push(word);
    cmd = sub;
  }
  return `Run "mockdev ${path.length ? `${path.join(' ')} ` : ''}--help" to see the usage`;
}

/** Writes to the current run's stderr (looked up only when there is something to write). */
const writeErr = (s: string) => currentIo().stderr.write(s);

/**
 * Runs the CLI and resolves with the exit code (it never exits the process: main.ts does).
 * Without `io` it uses the process's streams, folder and environment, as the binary does; with
 * `io` it runs in-process on those alone (a test's buffers, data dir and stdin), isolated from
 * other runs, and closes the AppContext it opened when it ends.
 */
export function runCli(argv: string[], io?: CliIo): Promise<number> {
  return io ? runWithIo(io, () => run(argv, false)) : run(argv, true);
}

async function run(argv: string[], ownProcess: boolean): Promise<number> {
  const logError = initLogLevel();
  if (logError) {
    writeErr(`mockdev: ${logError}. Unset it or pick a valid level\n`);
    return ERROR_CATALOGUE.INVALID_ARGUMENT.exitCode;
  }
  const program = buildProgram(argv[0]);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
    const status = currentRun().exitCode;
    if (status !== undefined) return status;
    // An in-process run must not pick up the exit code its host process (a test runner) set.
    return ownProcess && typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      // A command group without its subcommand (`mockdev project`): the help went to stderr, and
      // the call was incomplete, an invalid argument (exit 2), not a success.
      if (e.code === 'commander.help')
        return e.exitCode === 0 ? 0 : ERROR_CATALOGUE.INVALID_ARGUMENT.exitCode;
      const message = e.message
        .replace(CLEAN_COMMANDER_MESSAGE, '')
        .replace(/\s*\n\s*/g, ' ')
        .trim();
      writeErr(`mockdev: ${message.replace(/\.$/, '')}. ${commanderHint(program, argv)}\n`);
      return ERROR_CATALOGUE.INVALID_ARGUMENT.exitCode;
    }
    const err = toMockdevError(e);
    writeErr(errorReport(err, CLI_WORDING, enabled('debug')));
    return err.exitCode;
  }
}

export { MockdevError };
