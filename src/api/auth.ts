import { randomBytes } from 'node:crypto';
import { bearerOf, isToken, type Headers, type TokenCheck } from '../http/guard.js';

/**
 * Who may use an admin API started with a token (docs/admin-api.md): a client sending
 * `Authorization: Bearer <token>`, or a browser that signed in once with the token
 * (POST /api/v1/session) and so holds a session cookie. A browser needs the cookie: its
 * EventSource (the live events) cannot send an Authorization header. Sessions live in this
 * process only: a restart of `mockdev ui` signs every browser out. The cookie is HttpOnly and
 * SameSite=Strict, and a request from another site is refused by its Origin anyway.
 */

export const SESSION_COOKIE = 'mockdev_session';

export interface ApiAuth extends TokenCheck {
  /** Whether requests need the token (a session or the bearer header). */
  readonly required: boolean;
  /** Whether a request with these headers may pass. */
  allows(headers: Headers): boolean;
  /** Opens a session for a token: the Set-Cookie value, or undefined when the token is wrong. */
  signIn(token: string): string | undefined;
  /** Ends the session of a request: the Set-Cookie value that clears the cookie. */
  signOut(headers: Headers): string;
}

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createAuth(token: string | undefined): ApiAuth {
  const sessions = new Set<string>();
  const sessionOf = (headers: Headers) => cookieValue(headers.cookie, SESSION_COOKIE);
  return {
    required: token !== undefined,
    allows(headers) {
      if (token === undefined) return true;
      if (isToken(bearerOf(headers), token)) return true;
      const session = sessionOf(headers);
      return session !== undefined && sessions.has(session);
    },
    signIn(given) {
      if (token !== undefined && !isToken(given, token)) return undefined;
      const id = randomBytes(32).toString('base64url');
      if (token !== undefined) sessions.add(id);
      return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/`;
    },
    signOut(headers) {
      const session = sessionOf(headers);
      if (session !== undefined) sessions.delete(session);
      return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
    },
  };
}
