import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../core/errors.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { DEFAULT_HOST, PORT_MAX, PORT_MIN } from '../core/model/fields.js';
import type { Project } from '../core/model/project.js';
import { createMockHandler } from '../runtime/handler.js';
import { listen } from '../runtime/listen.js';
import { EndpointSource } from '../runtime/reload.js';
import { dataPaths } from '../store/data-dir.js';
import { RequestLog, type NewRequestRecord } from '../store/request-log.js';
import { RequestLogWriter } from '../store/request-log-writer.js';
import {
  isProcessAlive,
  processStartTime,
  ServerRegistry,
  type ServerRecord,
} from '../store/server-registry.js';
import type { AppContext } from './context.js';
import { resolveProject, toProject } from './projects.js';

export interface ServerLogger {
  info?: (message: string) => void;
  warn?: (message: string) => void;
  /** Set only when per-request lines are wanted (debug level): it costs a write per request. */
  request?: (record: NewRequestRecord) => void;
}

export interface StartServerInput {
  /** Project id, name or folder; the project in ctx.cwd when omitted. */
  project?: string;
  /** 0 asks the OS for a free port. Default: the project's port. */
  port?: number;
  host?: string;
  logger?: ServerLogger;
}

export interface RunningServer {
  project: Project;
  host: string;
  port: number;
  url: string;
  /** The endpoints in force now (live-reloaded). */
  endpoints(): Endpoint[];
  /** Stops accepting, answers what is in flight, writes the request log, unregisters. */
  stop(): Promise<void>;
  /** Settles when the server has stopped (by stop(), a signal handler or `mockdev stop`). */
  readonly stopped: Promise<void>;
}

/** What `status` prints and `stop` returns. */
export interface ServerInfo extends ServerRecord {
  uptimeMs: number;
}

/** Validates a port given to `serve`: 0 (any free port) or 1024-65535. */
export function checkServePort(port: number): number {
  if (!Number.isInteger(port) || (port !== 0 && (port < PORT_MIN || port > PORT_MAX))) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid port "${port}": must be from ${PORT_MIN} to ${PORT_MAX} (or 0 for any free port)`,
      {
        details: { field: 'port', value: port },
      },
    );
  }
  return port;
}

export function checkHost(host: string): string {
  const h = host.trim();
  if (h === '' || /[\s/\\?#@]/.test(h)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid --host "${host}": must be a host name or IP address`,
      {
        hint: 'Use 127.0.0.1 (the default), localhost or 0.0.0.0',
        details: { field: 'host', value: host },
      },
    );
  }
  return h;
}

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Starts the mock server of a project (DECISIONS "CLI behaviour", "Mock server behaviour"). */
export async function startServer(ctx: AppContext, input: StartServerInput = {}): Promise<RunningServer> {
  const host = checkHost(input.host ?? DEFAULT_HOST);
  if (input.port !== undefined) checkServePort(input.port);
  let state;
  try {
    state = await resolveProject(ctx, input.project ?? '.');
  } catch (e) {
    if (input.project === undefined && e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND') {
      throw new MockdevError('PROJECT_NOT_FOUND', `No project in ${ctx.cwd} (project.json is missing)`, {
        hint: 'Pass a project id, name or folder, or run "mockdev init" here',
      });
    }
    throw e;
  }
  const settings = await ctx.settings.read();
  const port = input.port ?? state.project.port ?? settings.defaultPort;
  const logger = input.logger ?? {};

  const logFile = dataPaths(ctx.dataDir).requestLog;
  // The server does not write SQLite while it answers (it spools): a small page cache is enough.
  const log = new RequestLog(logFile, { cacheKiB: 512 });
  let server: Server | undefined;
  let source: EndpointSource | undefined;
  let writer: RequestLogWriter | undefined;
  const registry = new ServerRegistry(ctx.dataDir);
  try {
    writer = new RequestLogWriter(log, {
      projectId: state.project.id,
      limit: settings.requestLogLimit,
      onWarning: (m) => logger.warn?.(m),
    });
    source = new EndpointSource({
      dir: state.dir,
      bodyLimitBytes: settings.requestBodyLimitBytes,
      initial: state.endpoints,
      onWarning: (m) => logger.warn?.(m),
      onReload: (eps) =>
        logger.info?.(`Reloaded endpoints.json: ${eps.length} endpoint${eps.length === 1 ? '' : 's'}`),
    });
    const w = writer;
    const handler = createMockHandler({
      projectId: state.project.id,
      current: source.current,
      record: (r) => w.push(r),
      bodyLimitBytes: settings.requestBodyLimitBytes,
      onAnswered: logger.request,
    });
    server = await listen(handler, { host, port });
    const bound = (server.address() as AddressInfo).port;
    const url = `http://${hostForUrl(host)}:${bound}`;
    const record: ServerRecord = {
      pid: process.pid,
      projectId: state.project.id,
      projectName: state.project.name,
      projectDir: state.dir,
      host,
      port: bound,
      url,
      startedAt: new Date().toISOString(),
      procStart: processStartTime(process.pid),
    };
    await registry.register(record);

    let resolveStopped!: () => void;
    const stopped = new Promise<void>((r) => (resolveStopped = r));
    let stopping: Promise<void> | undefined;
    const srv = server;
    const src = source;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        handler.closeConnections();
        srv.close();
        srv.closeIdleConnections();
        // Answer what is in flight (bounded), then drop the connections that remain.
        await Promise.race([handler.idle(), sleep(5000, undefined, { ref: false })]);
        srv.closeAllConnections();
        src.close();
        w.close();
        log.close();
        registry.unregister(process.pid);
        resolveStopped();
      })());
    return {
      project: toProject(state),
      host,
      port: bound,
      url,
      endpoints: () => src.endpoints,
      stop,
      stopped,
    };
  } catch (e) {
    server?.close();
    source?.close();
    writer?.close();
    log.close();
    throw e;
  }
}

const withUptime = (r: ServerRecord): ServerInfo => ({
  ...r,
  uptimeMs: Math.max(0, Date.now() - Date.parse(r.startedAt)),
});

/** Running servers of this data directory; stale records of dead processes are cleaned. */
export async function listServers(ctx: AppContext): Promise<ServerInfo[]> {
  return (await new ServerRegistry(ctx.dataDir).list()).map(withUptime);
}

/**
 * Stops running servers (all, or those serving one project) and waits until each process has
 * written its request log and exited. Returns the servers stopped.
 */
export async function stopServers(
  ctx: AppContext,
  projectRef?: string,
  options: { timeoutMs?: number } = {},
): Promise<ServerInfo[]> {
  const registry = new ServerRegistry(ctx.dataDir);
  let running = await registry.list();
  if (projectRef !== undefined) {
    const state = await resolveProject(ctx, projectRef);
    running = running.filter((r) => r.projectId === state.project.id);
  }
  for (const r of running) {
    try {
      process.kill(r.pid, 'SIGTERM');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') {
        throw new MockdevError(
          'IO_ERROR',
          `Could not stop the server of "${r.projectName}" (pid ${r.pid}): ${(e as NodeJS.ErrnoException).code}`,
          {
            cause: e,
          },
        );
      }
    }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (const r of running) {
    while (isProcessAlive(r.pid) && Date.now() < deadline) await sleep(25);
    if (isProcessAlive(r.pid)) {
      throw new MockdevError(
        'IO_ERROR',
        `The server of "${r.projectName}" (pid ${r.pid}) did not stop in time`,
        {
          hint: `Try again, or end process ${r.pid}`,
        },
      );
    }
    registry.unregister(r.pid);
  }
  return running.map(withUptime);
}
