import type { AppContext } from '../app/context.js';
import type { ServerLogger } from '../app/server.js';
import { createEventHub } from './events.js';
import type { ApiServices } from './route.js';
import { createServerHost, type ApiServerHost } from './servers.js';
import { startWatchers, type WatcherOptions } from './watchers.js';

export interface ApiServicesOptions {
  /** What the mock servers started through the API report (warnings, reloads). */
  logger?: ServerLogger;
  /** The live events' sources (poll periods, warnings). */
  watchers?: WatcherOptions;
}

/**
 * The admin API process's own services: the mock servers it runs and the live events. `close()`
 * stops the event sources and every server started here.
 */
export function createApiServices(
  ctx: AppContext,
  options: ApiServicesOptions = {},
): ApiServices & { servers: ApiServerHost; close(): Promise<void> } {
  const servers = createServerHost(ctx, options.logger);
  const events = createEventHub({
    start: (publish) => startWatchers(ctx, publish, { onWarning: options.logger?.warn, ...options.watchers }),
  });
  return {
    servers,
    events,
    close: async () => {
      await events.close();
      await servers.stopAll();
    },
  };
}
