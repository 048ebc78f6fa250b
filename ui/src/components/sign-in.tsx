import { useEffect, useState, type ReactNode } from 'react';
import { ApiError, get, onUnauthorized, post } from '../api/client';
import { reconnectEvents } from '../api/events';
import { describeError } from './notices';

/**
 * Shown instead of the UI when `mockdev ui` was started with a token and this browser has not
 * signed in: the token is sent once (POST /api/v1/session) and the browser keeps an HttpOnly
 * session cookie, which the event stream carries too.
 */
/** How often a page that cannot reach mockdev ui asks again. */
const RETRY_MS = 2000;

export function SignInGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<'checking' | 'in' | 'out' | 'down'>('checking');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();

  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    // Asked again every few seconds while mockdev ui cannot be reached: a window started before
    // it (an installed app opened offline, from its kept shell) connects as soon as it answers.
    const ask = () =>
      get<{ tokenRequired: boolean; signedIn: boolean }>('/session').then(
        (s) => !ended && setState(!s.tokenRequired || s.signedIn ? 'in' : 'out'),
        () => {
          if (ended) return;
          setState('down');
          retry = setTimeout(ask, RETRY_MS);
        },
      );
    void ask();
    const off = onUnauthorized(() => setState('out'));
    return () => {
      ended = true;
      clearTimeout(retry);
      off();
    };
  }, []);

  if (state === 'in') return <>{children}</>;
  if (state === 'checking') return <p className="loading">Loading…</p>;
  if (state === 'down')
    return (
      <main className="sign-in">
        <h1>mockdev</h1>
        <p role="alert">
          mockdev ui cannot be reached. Is it still running? Start it again (<code>mockdev ui</code>): this
          page connects as soon as it answers.
        </p>
      </main>
    );
  return (
    <main className="sign-in">
      <h1>Sign in to mockdev</h1>
      <p>This mockdev ui was started with a token (--token or MOCKDEV_UI_TOKEN). Enter it to continue.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          post('/session', { token }).then(
            () => {
              setError(undefined);
              reconnectEvents();
              setState('in');
            },
            (err: unknown) =>
              setError(
                err instanceof ApiError && err.status === 401
                  ? 'That token is not the one mockdev ui was started with.'
                  : describeError(err).title,
              ),
          );
        }}
      >
        <label>
          Token
          <input
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoFocus
            required
          />
        </label>
        <button type="submit">Sign in</button>
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
