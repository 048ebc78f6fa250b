import type { AppContext } from '../app/context.js';
import type { ApiServices } from './route.js';

/** The admin API process's own services (the servers it runs, the live events), and their stop. */
export function createApiServices(ctx: AppContext): ApiServices & { close(): Promise<void> } {
  void ctx;
  return { close: async () => undefined };
}
