import { MockdevError } from './errors.js';

/**
 * Where a server of mockdev may listen: one rule for `mockdev ui` and `mockdev mcp --http`.
 * A loopback address reaches this machine only; any other (0.0.0.0, a LAN address) lets other
 * machines in, and then every request must carry the token the server was started with.
 */

/** The environment variables that give `mockdev ui` and `mockdev mcp --http` their token. */
export const TOKEN_ENV = { ui: 'MOCKDEV_UI_TOKEN', mcp: 'MOCKDEV_MCP_TOKEN' } as const;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether a host name (no port) names this machine's loopback. */
export function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether a bind host only accepts connections from this machine. */
export const isLoopbackHost = (host: string): boolean => isLoopbackName(host.trim());

export interface BindingInput {
  host: string;
  /** The token every request must carry; undefined: none. */
  token: string | undefined;
  /** What listens, for the message: "the admin API", "the MCP server". */
  what: string;
  /** The environment variable that gives the token (MOCKDEV_UI_TOKEN). */
  tokenEnv: string;
}

/**
 * Refuses a binding beyond loopback without a token, and an empty token (INVALID_ARGUMENT,
 * exit 2), saying how to give one. The token is never quoted.
 */
export function checkBinding({ host, token, what, tokenEnv }: BindingInput): void {
  if (token !== undefined && token.trim() === '')
    throw new MockdevError('INVALID_ARGUMENT', 'The token is empty', {
      hint: (say) => `Give a token of at least one character (${tokenEnv}, or ${say.option('token')})`,
    });
  if (token === undefined && !isLoopbackHost(host))
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Listening on ${host} makes ${what} reachable from other machines, so it needs a token`,
      {
        hint: (say) =>
          `Set ${tokenEnv}, or give ${say.option('token')}; or listen on 127.0.0.1 (${say.option('host')} 127.0.0.1)`,
        details: { field: 'host', value: host },
      },
    );
}
