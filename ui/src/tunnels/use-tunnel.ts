import { ApiError, enc } from '../api/client';
import { useEvent } from '../api/events';
import { useData, type Data } from '../api/use-data';
import type { TunnelRecord } from '../types';

/**
 * A project's running tunnel (null: none), kept live by `tunnel` events (a tunnel started or
 * stopped from the CLI shows at once). `skip`: not fetched.
 */
export function useTunnel(projectId: string, skip = false): Data<TunnelRecord | null> {
  const tunnel = useData<TunnelRecord | null>(skip ? null : `/projects/${enc(projectId)}/tunnel`);
  useEvent('tunnel', (e) => {
    if (!skip && e.tunnel.projectId === projectId) tunnel.reload();
  });
  return tunnel;
}

/** The problem when the answer is "this needs a Pro license". */
export const licenseRequired = (error: unknown): ApiError | undefined =>
  error instanceof ApiError && error.code === 'LICENSE_REQUIRED' ? error : undefined;
