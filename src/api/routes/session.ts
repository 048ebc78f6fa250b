import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import { sensitive } from '../../core/validate.js';
import { defineRoute, reply, type Route } from '../route.js';

const SessionStateSchema = z.object({
  tokenRequired: z.boolean().describe('Whether this admin API was started with a token'),
  signedIn: z.boolean().describe('Whether this request passes (a token, a session, or none needed)'),
});

/**
 * Signing a browser in (auth.ts): the token once, then a session cookie for every request, the
 * event stream included. The only routes a request without the token may call.
 */
export const sessionRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/session',
    tag: 'Session',
    summary: 'Whether a token is needed, and whether this request has one (or a session)',
    response: { schema: SessionStateSchema, description: 'The session state' },
    handle: ({ auth, headers }) => ({ tokenRequired: auth.required, signedIn: auth.allows(headers) }),
  }),
  defineRoute<{ token: string }>({
    method: 'POST',
    path: '/session',
    tag: 'Session',
    summary: 'Sign in with the token: sets an HttpOnly, SameSite=Strict session cookie',
    description:
      'For browsers, whose EventSource cannot send an Authorization header. Sessions end when mockdev ui stops. A wrong token is 401.',
    body: z.object({ token: sensitive(z.string().min(1)).describe('The token mockdev ui was started with') }),
    response: { status: 204, description: 'Signed in (the cookie is set)' },
    handle: ({ auth, body }) => {
      const cookie = auth.signIn(body.token);
      if (cookie === undefined)
        throw new MockdevError('UNAUTHORIZED', 'Wrong token', {
          hint: 'Give the token mockdev ui was started with',
        });
      return reply({ status: 204, headers: { 'Set-Cookie': cookie } });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/session',
    tag: 'Session',
    summary: 'Sign out: ends this browser’s session and clears its cookie',
    response: { status: 204, description: 'Signed out' },
    handle: ({ auth, headers }) => reply({ status: 204, headers: { 'Set-Cookie': auth.signOut(headers) } }),
  }),
];
