import { withReach, type AppContext } from '../app/context.js';
import { resolveProject } from '../app/projects.js';
import { serverCredentials } from '../app/tls.js';
import {
  startServer,
  stopServers,
  withUptime,
  type RunningServer,
  type ServerInfo,
  type ServerLogger,
} from '../app/server.js';
import { MockdevError } from '../core/errors.js';
import { API_REACH, type ServerHost, type ServerStartOptions } from './route.js';

/**
 * The mock servers `mockdev ui` runs in its own process (PUT /projects/{project}/server). Each
 * is registered with `stopByRequest`, so `mockdev status` lists it and `mockdev stop` stops it
 * without ending the UI; all of them stop when the UI stops (stopAll).
 */
export interface ApiServerHost extends ServerHost {
  start(projectRef: string, options: ServerStartOptions): Promise<ServerInfo>;
  stop(projectRef: string): Promise<ServerInfo[]>;
  /** The servers running in this process now. */
  running(): RunningServer[];
}

export function createServerHost(apiCtx: AppContext, logger: ServerLogger = {}): ApiServerHost {
  const ctx = withReach(apiCtx, API_REACH);
  /** By project id: one server per project here. */
  const servers = new Map<string, RunningServer>();
  const starting = new Set<string>();

  const alreadyServed = (name: string, url: string): MockdevError =>
    new MockdevError('CONFLICT', `The project "${name}" is already served at ${url}`, {
      hint: (say) => `stop it first (DELETE the project's server), or ${say.action('listServers')}`,
      details: { url },
    });

  return {
    async start(projectRef, options) {
      const stored = await resolveProject(ctx, projectRef);
      const { id, name } = stored.project;
      const other = (await ctx.servers.list()).find((r) => r.projectId === id);
      if (other) throw alreadyServed(name, other.url);
      if (starting.has(id)) throw alreadyServed(name, 'a port being opened now');
      starting.add(id);
      try {
        // HTTPS with the generated leaf: none yet is an error naming `tls generate`.
        const credentials = options.tls ? await serverCredentials(ctx, {}) : undefined;
        const running = await startServer(ctx, {
          project: id,
          port: options.port,
          host: options.host,
          logger,
          stopByRequest: true,
          tls: credentials && { cert: credentials.cert, key: credentials.key },
          tunnel: options.tunnel && { provider: options.tunnel },
        });
        servers.set(id, running);
        // Stopped by `mockdev stop`, or because its project was deleted: no longer ours.
        void running.stopped.then(() => {
          if (servers.get(id) === running) servers.delete(id);
        });
        return withUptime(running.record);
      } finally {
        starting.delete(id);
      }
    },

    async stop(projectRef) {
      const stopped: ServerInfo[] = [];
      let projectId: string | undefined;
      try {
        projectId = (await resolveProject(ctx, projectRef)).project.id;
      } catch (e) {
        // A server whose project is gone is still stopped by what its record says (stopServers).
        if (!(e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND')) throw e;
      }
      const own = projectId === undefined ? undefined : servers.get(projectId);
      if (own) {
        stopped.push(withUptime(own.record));
        await own.stop();
      }
      // Servers of other processes (`serve`, another UI), as `mockdev stop` does.
      const others = await stopServers(ctx, projectRef).catch((e: unknown) => {
        if (stopped.length && e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND') return [];
        throw e;
      });
      stopped.push(...others);
      if (stopped.length === 0) {
        throw new MockdevError('NOT_FOUND', `No mockdev server is running for "${projectRef}"`, {
          hint: (say) => `${say.action('listServers')} to see the running servers`,
        });
      }
      return stopped;
    },

    async stopAll() {
      await Promise.all([...servers.values()].map((s) => s.stop()));
      servers.clear();
    },

    running: () => [...servers.values()],
  };
}
