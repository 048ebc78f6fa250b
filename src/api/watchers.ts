import { createHash } from 'node:crypto';
import type { AppContext } from '../app/context.js';
import { withUptime } from '../app/server.js';
import { maskSettings } from '../core/model/settings.js';
import type { ProjectChange, Subscription } from '../core/ports.js';
import type { EventHub } from './route.js';

/**
 * The sources of the live events (events.ts), each seeing what any process does:
 *
 *   request             the request log, polled by cursor (RequestLogStore.since): one indexed
 *                       query per tick, whatever the number of projects and records
 *   projects/endpoints/ the project store's change feed (ProjectStore.watch: a stat of its files
 *   flows/resources     per project), for the data directory and for each folder project the
 *                       store knows; only a project that changed is read, to tell a change of
 *                       its settings from one of its endpoints, flows or resources' definitions
 *   flow-run            the flow run store, polled by cursor (FlowRunStore.since): each run as it
 *                       is saved (started, a step done, ended), of any server of any process
 *   server              the server registry, polled
 *   tunnel              the tunnel registry, polled (a tunnel started or stopped by any process:
 *                       the CLI, `serve --tunnel`, this API; its records are a few small files)
 *   settings            the settings, polled (one small file): every setting, when one changed
 */

export interface WatcherOptions {
  /** How often the request log is polled (ms). */
  requestPollMs?: number;
  /** How often the flow run store is polled (ms). */
  flowRunPollMs?: number;
  /** How often the server registry is polled (ms). */
  serverPollMs?: number;
  /** How often the tunnel registry is polled (ms). */
  tunnelPollMs?: number;
  /** How often the settings are read (ms). */
  settingsPollMs?: number;
  /** Told of a failed poll (one line). */
  onWarning?: (message: string) => void;
}

/** How often the folder projects the store knows are looked up (ms). */
const FOLDER_LOOKUP_MS = 5000;

/** Records (or runs) read per query; a tick reads until it has caught up. */
const REQUEST_BATCH = 500;

const digest = (value: unknown): string => createHash('sha1').update(JSON.stringify(value)).digest('base64');

/** A loop of an async tick that never overlaps itself; returns its stop (which waits for a running tick). */
function poll(
  everyMs: number,
  tick: () => Promise<void>,
  onError: (e: unknown) => void,
  firstMs = everyMs,
): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const next = (delay: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch(onError)
        .finally(() => next(everyMs));
    }, delay);
    timer.unref();
  };
  next(firstMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/**
 * A cursor-polled source (RequestLogStore.since, FlowRunStore.since): from the first tick on,
 * each item saved since is published; a tick reads until it has caught up. (Without a cursor,
 * `since` answers nothing and the cursor of now: a failed first read starts from the next tick.)
 */
function watchCursor<T>(
  since: (cursor: string | undefined, limit: number) => Promise<{ items: T[]; cursor: string }>,
  publish: (item: T) => void,
  everyMs: number,
  onError: (e: unknown) => void,
): () => Promise<void> {
  // From now on: what was saved before the first subscriber is in the store, not news.
  let cursor: Promise<string | undefined> = since(undefined, 0).then(
    (r) => r.cursor,
    (e: unknown) => (onError(e), undefined),
  );
  return poll(
    everyMs,
    async () => {
      let at = await cursor;
      for (;;) {
        const { items, cursor: next } = await since(at, REQUEST_BATCH);
        for (const item of items) publish(item);
        cursor = Promise.resolve((at = next));
        if (items.length < REQUEST_BATCH) return;
      }
    },
    onError,
  );
}

function watchProjects(
  ctx: AppContext,
  publish: EventHub['publish'],
  onError: (e: unknown) => void,
): () => Promise<void> {
  // What each project looked like when last seen: its settings, endpoints and flows, hashed.
  const seen = new Map<string, { project: string; endpoints: string; flows: string; resources: string }>();
  let queue = Promise.resolve();
  const handle = async (change: ProjectChange): Promise<void> => {
    const { projectId } = change;
    if (change.change === 'deleted') {
      seen.delete(projectId);
      return publish('projects', { projectId, change: 'deleted' });
    }
    let stored;
    try {
      stored = await ctx.projects.read(change.key);
    } catch {
      return; // gone again, or half-edited by hand: the next change tells
    }
    // updatedAt moves with every change, endpoints' included: the settings are the rest.
    const { updatedAt: _stamp, ...settings } = stored.project;
    const now = {
      project: digest(settings),
      endpoints: digest(stored.endpoints),
      flows: digest(stored.flows),
      resources: digest(stored.resources),
    };
    const before = seen.get(projectId);
    seen.set(projectId, now);
    const name = stored.project.name;
    if (change.change === 'created') return publish('projects', { projectId, name, change: 'created' });
    if (before?.project !== now.project) publish('projects', { projectId, name, change: 'updated' });
    if (before?.endpoints !== now.endpoints)
      publish('endpoints', { projectId, name, change: 'updated', count: stored.endpoints.length });
    if (before?.flows !== now.flows)
      publish('flows', { projectId, name, change: 'updated', count: stored.flows.length });
    if (before?.resources !== now.resources)
      publish('resources', { projectId, name, change: 'updated', count: stored.resources.length });
  };
  const enqueue = (change: ProjectChange): void => {
    queue = queue.then(() => handle(change)).catch(onError);
  };
  // The data directory's projects: one feed for all of them.
  const subscription = ctx.projects.watch(enqueue);
  // Projects in folders of their own: a feed each, for those the store knows (looked up again
  // every few seconds: `init` in a folder, `serve ./folder` make more known).
  const folders = new Map<string, Subscription>();
  let first = true;
  const stopFolders = poll(
    FOLDER_LOOKUP_MS,
    async () => {
      const announce = !first;
      first = false;
      for (const summary of await ctx.projects.summaries()) {
        if (summary.managed || folders.has(summary.id)) continue;
        const stored = (await ctx.projects.find(summary.id)).find(
          (p) => !p.managed && p.project.id === summary.id,
        );
        if (!stored) continue;
        folders.set(
          summary.id,
          ctx.projects.watch(
            (change) => {
              if (change.change === 'deleted') {
                folders.get(summary.id)?.close();
                folders.delete(summary.id);
              }
              enqueue(change);
            },
            { key: stored.key },
          ),
        );
        if (announce) enqueue({ projectId: summary.id, key: stored.key, change: 'created' });
      }
    },
    onError,
    0,
  );
  return async () => {
    subscription.close();
    await stopFolders();
    for (const f of folders.values()) f.close();
    await queue;
  };
}

/**
 * A registry polled (servers, tunnels): each entry that appears is announced `started`, each
 * that goes `stopped`. Entries there when watching starts are not news; a failed first read
 * makes the next good one the starting point.
 */
function watchRegistry<T>(
  list: () => Promise<T[]>,
  keyOf: (entry: T) => string,
  announce: (change: 'started' | 'stopped', entry: T) => void,
  everyMs: number,
  onError: (e: unknown) => void,
): () => Promise<void> {
  const read = async (): Promise<Map<string, T>> => new Map((await list()).map((e) => [keyOf(e), e]));
  let known: Promise<Map<string, T> | undefined> = read().catch(() => undefined);
  return poll(
    everyMs,
    async () => {
      const before = await known;
      const now = await read();
      known = Promise.resolve(now);
      if (!before) return;
      for (const [key, e] of now) if (!before.has(key)) announce('started', e);
      for (const [key, e] of before) if (!now.has(key)) announce('stopped', e);
    },
    onError,
  );
}

function watchSettings(
  ctx: AppContext,
  publish: EventHub['publish'],
  everyMs: number,
  onError: (e: unknown) => void,
): () => Promise<void> {
  // As they are when watching starts: only a change after that is news.
  let last: Promise<string | undefined> = ctx.settings.read().then(
    (s) => digest(s),
    () => undefined,
  );
  return poll(
    everyMs,
    async () => {
      let settings;
      try {
        settings = await ctx.settings.read();
      } catch (e) {
        // A settings.json broken by hand: said once, not every tick, until it reads again.
        if ((await last) !== 'unreadable') onError(e);
        last = Promise.resolve('unreadable');
        return;
      }
      const now = digest(settings);
      if ((await last) !== now) publish('settings', maskSettings(settings));
      last = Promise.resolve(now);
    },
    onError,
  );
}

/** Starts every source; returns their stop. */
export function startWatchers(
  ctx: AppContext,
  publish: EventHub['publish'],
  options: WatcherOptions = {},
): () => Promise<void> {
  const onError = (e: unknown): void =>
    options.onWarning?.(`Live events: ${e instanceof Error ? e.message : String(e)}`);
  const stops = [
    watchCursor(
      (at, limit) => ctx.requests.since(at, limit).then((r) => ({ items: r.records, cursor: r.cursor })),
      (record) => publish('request', record),
      options.requestPollMs ?? 250,
      onError,
    ),
    watchCursor(
      (at, limit) => ctx.flowRuns.since(at, limit).then((r) => ({ items: r.runs, cursor: r.cursor })),
      (run) => publish('flow-run', run),
      options.flowRunPollMs ?? 250,
      onError,
    ),
    watchProjects(ctx, publish, onError),
    watchRegistry(
      () => ctx.servers.list(),
      (r) => `${r.pid}-${r.port}`,
      (change, r) => publish('server', { change, server: withUptime(r) }),
      options.serverPollMs ?? 500,
      onError,
    ),
    watchRegistry(
      () => ctx.tunnels.list(),
      (r) => `${r.projectId}-${r.pid}-${r.url}`,
      (change, tunnel) => publish('tunnel', { change, tunnel }),
      options.tunnelPollMs ?? 1000,
      onError,
    ),
    watchSettings(ctx, publish, options.settingsPollMs ?? 1000, onError),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
