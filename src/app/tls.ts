/**
 * HTTPS with a local CA (docs/tls.md): the use cases the CLI, the admin API and the UI call.
 * SIGNATURES ONLY for now: the implementation lands with issue 22 and replaces every body.
 */
import { MockdevError } from '../core/errors.js';
import type { TlsStatus, TrustInstructions, TrustTarget } from '../core/model/tls.js';
import type { AppContext } from './context.js';

const notYet = (): never => {
  throw new MockdevError('INTERNAL', 'TLS is not built yet');
};

/** The CA and the leaf (when made), and whether this system's trust stores hold the CA. */
export async function tlsStatus(_ctx: AppContext): Promise<TlsStatus> {
  return notYet();
}

/**
 * (Pro) Makes the CA once (again with `newCa`) and a new leaf for localhost, 127.0.0.1, ::1 and
 * `hosts`; returns the status after, and whether a CA was made.
 */
export async function generateTls(
  _ctx: AppContext,
  _input: { hosts?: string[]; newCa?: boolean } = {},
): Promise<{ status: TlsStatus; caCreated: boolean }> {
  return notYet();
}

/** The commands that trust the CA on a system (default: this one); never run. */
export async function tlsTrustInstructions(
  _ctx: AppContext,
  _input: { target?: TrustTarget } = {},
): Promise<TrustInstructions> {
  return notYet();
}

/**
 * What a server serves HTTPS with: the generated leaf (`tls: true`; none: an error naming `tls
 * generate`), or the user's own PEM files (`cert` and `key`, relative to ctx.cwd; unreadable or
 * not a matching pair: INVALID_ARGUMENT naming the file).
 */
export async function serverCredentials(
  _ctx: AppContext,
  _input: { cert?: string; key?: string },
): Promise<{ cert: string; key: string; source: 'generated' | 'files' }> {
  return notYet();
}
