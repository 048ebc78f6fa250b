/**
 * Public tunnels (docs/tunnels.md): the use cases the CLI, the admin API and the UI call.
 * SIGNATURES ONLY for now: the implementation lands with issue 22 and replaces every body.
 */
import { MockdevError } from '../core/errors.js';
import type { TunnelProviderCheck, TunnelProviderName, TunnelRecord } from '../core/model/tunnel.js';
import type { AppContext } from './context.js';

const notYet = (): never => {
  throw new MockdevError('INTERNAL', 'tunnels are not built yet');
};

/**
 * (Pro) Starts a tunnel to the project's running mock server (or to `port`) in a background
 * process of its own; waits for its public URL. One per project: when one runs, it is returned
 * with `alreadyRunning`.
 */
export async function startTunnel(
  _ctx: AppContext,
  _project: string,
  _input: { provider?: TunnelProviderName; port?: number } = {},
): Promise<{ tunnel: TunnelRecord; alreadyRunning: boolean }> {
  return notYet();
}

/** (Pro) The project's running tunnel, or null. */
export async function tunnelStatus(_ctx: AppContext, _project: string): Promise<TunnelRecord | null> {
  return notYet();
}

/** (Pro) Stops the project's tunnel (SIGTERM, then SIGKILL after 5 s); the one stopped, or null. */
export async function stopTunnel(_ctx: AppContext, _project: string): Promise<TunnelRecord | null> {
  return notYet();
}

/** (Pro) Each provider: available (and its version), or how to install it on this system. */
export async function checkTunnelProviders(_ctx: AppContext): Promise<TunnelProviderCheck[]> {
  return notYet();
}
