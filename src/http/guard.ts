import { timingSafeEqual } from 'node:crypto';
import { isLoopbackHost, isLoopbackName } from '../core/binding.js';
import { MockdevError } from '../core/errors.js';
import { hostForUrl } from './listen.js';

/**
 * The guard every request of the admin API and of MCP over HTTP passes first, in this order:
 *
 *   Host   -> on a loopback bind, a Host that is not a loopback name: FORBIDDEN_HOST (DNS rebinding)
 *   Origin -> a browser request (an Origin) from another origin than the server's own:
 *             FORBIDDEN_ORIGIN; requests without an Origin (not from a browser) pass
 *   token  -> with a token, a request without it: UNAUTHORIZED (the paths `open` names excepted)
 *
 * The server's own origins are its listen URLs and the origin of the Host the request came to
 * (a page served here calls back to the address the browser used; http or https, one port being
 * one server). One option widens the
 * Origin rule: `loopbackOrigins` also lets in any page of this machine (an http(s) origin on a
 * loopback name, any port), for MCP's browser clients such as an inspector on its own port.
 */

/** Request headers, names lower-cased. */
export type Headers = Record<string, string | undefined>;

/** Who may pass the token check. */
export interface TokenCheck {
  /** Whether requests need a token at all. */
  readonly required: boolean;
  allows(headers: Headers): boolean;
}

export interface GuardOptions {
  /** What is guarded, for messages: "the admin API", "the MCP server". */
  what: string;
  /** Bound to a loopback address: the Host must then name the loopback too. */
  loopback: boolean;
  /** The server's own origins (`http://127.0.0.1:3200`, …), read per request (the port may be 0 at first). */
  origins: () => readonly string[];
  /** Also let in browser pages of any loopback origin (any port). Default false: own origins only. */
  loopbackOrigins?: boolean;
  /** The token check; none: no token needed. */
  auth?: TokenCheck;
  /** Paths answered without the token (signing in). */
  open?: (path: string) => boolean;
  /** How to give the token, after "send Authorization: Bearer <token>". */
  tokenHint?: string;
}

const same = (given: string, wanted: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The bearer token of an Authorization header, or undefined. */
export const bearerOf = (headers: Headers): string | undefined =>
  /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();

/** Whether `given` is the token (compared in constant time). */
export const isToken = (given: string | undefined, token: string): boolean =>
  given !== undefined && same(given, token);

/** The token check of `Authorization: Bearer <token>`; no token: everyone passes. */
export function bearerAuth(token: string | undefined): TokenCheck {
  return {
    required: token !== undefined,
    allows: (headers) => token === undefined || isToken(bearerOf(headers), token),
  };
}

/** On a loopback bind, whether the Host header names the loopback (a rebound DNS name does not). */
export function hostAllowed(host: string | undefined): boolean {
  if (!host) return true;
  try {
    return isLoopbackName(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/** Whether an origin is a page of this machine: http(s) on a loopback name. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
  } catch {
    return false;
  }
}

/** The guard of one server: throws the refusal (a MockdevError) of a request that may not pass. */
export function createGuard(options: GuardOptions): (headers: Headers, path: string) => void {
  const { what } = options;
  const ownOrigin = (origin: string, host: string | undefined): boolean =>
    options.origins().includes(origin) ||
    (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
  return (headers, path) => {
    const host = headers.host;
    if (options.loopback && !hostAllowed(host))
      throw new MockdevError(
        'FORBIDDEN_HOST',
        `Host "${host}" is not this machine: ${what} listens on loopback and answers only requests to 127.0.0.1 or localhost (DNS rebinding protection)`,
      );
    const raw = headers.origin;
    if (raw !== undefined && raw !== '') {
      const origin = raw.replace(/\/$/, '');
      if (!ownOrigin(origin, host) && !(options.loopbackOrigins && isLoopbackOrigin(origin)))
        throw new MockdevError(
          'FORBIDDEN_ORIGIN',
          options.loopbackOrigins
            ? `Origin "${raw}" is not allowed: ${what} answers pages of this machine (localhost origins) and clients that send no Origin`
            : `Origin "${raw}" is not this server's own: ${what} answers only its own pages and clients that send no Origin`,
        );
    }
    if (options.auth?.required && !options.auth.allows(headers) && !options.open?.(path))
      throw new MockdevError('UNAUTHORIZED', `${capitalise(what)} needs a token`, {
        hint: `Send "Authorization: Bearer <token>"${options.tokenHint ? `, ${options.tokenHint}` : ''}`,
      });
  };
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A node request's headers as one string each (repeated headers joined with ", "). */
export function flatHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers: Headers = {};
  for (const [k, v] of Object.entries(raw)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return headers;
}

/**
 * The origins of a server listening on `host` (its port read when asked: 0 until it listens):
 * the loopback names at its port, and the bind address itself when it is not the loopback.
 */
export function listenOrigins(
  host: string,
  port: () => number,
  scheme: 'http' | 'https' = 'http',
): () => string[] {
  const named = hostForUrl(host);
  return () => {
    const p = port();
    const own = [`${scheme}://127.0.0.1:${p}`, `${scheme}://localhost:${p}`, `${scheme}://[::1]:${p}`];
    if (!isLoopbackHost(host)) own.push(`${scheme}://${named}:${p}`);
    return own;
  };
}
