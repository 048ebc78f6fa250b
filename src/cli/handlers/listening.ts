import { checkBinding } from '../../core/binding.js';
import { MockdevError } from '../../core/errors.js';
import { PortSchema } from '../../core/model/fields.js';
import { parseInput } from '../../core/validate.js';
import { toInt } from '../args.js';
import { currentIo } from '../io.js';
import { log } from '../log.js';
import { readStdin } from '../stdin.js';
import { cliContext } from './context.js';

/** What `ui` and `mcp --http` take from their options: the port and the token. */

/** A port given as -p: 0 (any free port) or 1024-65535; the fallback when not given. */
export function listenPort(value: string | undefined, fallback: number): number {
  const n = toInt(value, '--port');
  if (n === undefined) return fallback;
  if (n === 0) return 0;
  return parseInput(PortSchema, n, '--port');
}

export interface TokenOptions {
  token?: string;
  tokenFile?: string;
}

/** The first line of a token's text, without the line break a file or a pipe ends with. */
const firstLine = (text: string): string => text.split(/\r?\n/)[0]!.trim();

/**
 * The token a server started by `ui` or `mcp --http` requires: `--token-file <FILE>`,
 * `--token -` (stdin), `--token <TOKEN>` or the environment variable `env`; undefined for none.
 * Then the binding rule (core/binding.ts): beyond loopback a token is required. No message
 * quotes the token.
 */
export async function serverToken(
  opts: TokenOptions,
  binding: { host: string; what: string; env: string },
): Promise<string | undefined> {
  if (opts.token !== undefined && opts.tokenFile !== undefined)
    throw new MockdevError('INVALID_ARGUMENT', '--token and --token-file both give the token', {
      hint: 'Give one of them',
    });
  let token: string | undefined;
  if (opts.tokenFile !== undefined)
    token = firstLine((await cliContext().files.read(opts.tokenFile)).toString('utf8'));
  else if (opts.token === '-')
    token = firstLine(await readStdin('--token', `cat token.txt | mockdev … --token -`));
  else if (opts.token !== undefined) {
    token = opts.token;
    log.warn(
      `A token given as --token is visible in the process list: prefer ${binding.env}, --token-file <FILE> or --token - (stdin)`,
    );
  } else token = currentIo().env[binding.env] || undefined;
  checkBinding({ host: binding.host, token, what: binding.what, tokenEnv: binding.env });
  return token;
}
