import { setTimeout as sleep } from 'node:timers/promises';
import { MockdevError } from '../core/errors.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { DEFAULT_HOST, PORT_MAX, PORT_MIN } from '../core/model/fields.js';
import type { Project } from '../core/model/project.js';
import type { ServerRecord } from '../core/model/server.js';
import type { NewRequestRecord, RecordingWriter, StoredProject, Subscription } from '../core/ports.js';
import { EndpointSource, type TemplateEnvironment } from '../runtime/endpoint-source.js';
import { ResourceRuntime } from '../runtime/resources.js';
import { FlowEngine } from '../runtime/flows/engine.js';
import { activeEnvironment } from './environments.js';
import { httpsCredentials } from './https.js';
import { createMockHandler } from '../runtime/handler.js';
import { listen } from '../http/listen.js';
import type { AfterResponse } from '../runtime/pipeline.js';
import type { AppContext } from './context.js';
import { resolveProject, toProject } from './projects.js';
import type { TunnelProviderName } from '../core/model/tunnel.js';
import type { TunnelUrl } from '../runtime/templated.js';
import type { startServerTunnel } from './tunnels.js';
import { openLiveContract } from './server-contract.js';

export interface ServerLogger {
  info?: (message: string) => void;
  warn?: (message: string) => void;
  /** Set only when per-request lines are wanted (debug level): it costs a write per request. */
  request?: (record: NewRequestRecord) => void;
  /** Set only when a line per arriving request is wanted (trace level). */
  received?: (method: string, url: string) => void;
}

export interface StartServerInput {
  /** Project id, name or folder; the project in ctx.cwd when omitted. */
  project?: string;
  /** 0 asks the OS for a free port. Default: the project's port. */
  port?: number;
  host?: string;
  logger?: ServerLogger;
  /**
   * What templates see as {{env.KEY}} (and the secret values the log masks), read at start and at
   * each reload. Default: the project's active environments (activeEnvironment).
   */
  environment?: () => Promise<TemplateEnvironment>;
  /**
   * The server shares its process with others (`mockdev ui`): `mockdev stop` reaches it by a stop
   * request this process watches for, not by a signal that would end the process.
   */
  stopByRequest?: boolean;
  /**
   * (Pro) Starts a tunnel with the server (`serve --tunnel`): once it listens, before it is
   * registered (its record has `tunnelUrl`); stopped with it. Failing, the server is not started.
   */
  tunnel?: { provider?: TunnelProviderName };
  /**
   * Serve HTTPS (HTTP/1.1 and HTTP/2) with this PEM pair (httpsCredentials in https.ts). Default:
   * the generated certificate when the project says `tls: true`, else plain HTTP.
   */
  tls?: { cert: string; key: string };
  /**
   * (Pro) Checks each request against a contract as it is logged, off the response path, and
   * stores the verdict with its record (docs/contract.md): `true` the project's stored contract,
   * a string another document (a file or an http(s) URL). Default: the stored contract when
   * project.json says `contract.live`, else no check. `false`: no check whatever project.json says.
   */
  contract?: boolean | string;
}

export interface RunningServer {
  project: Project;
  host: string;
  port: number;
  url: string;
  /** What the server registry holds for it (`status` shows it). */
  record: ServerRecord;
  /** The endpoints in force now (live-reloaded). */
  endpoints(): Endpoint[];
  /** The contract requests are checked against now (a label such as a file or URL); undefined: none. */
  contract(): string | undefined;
  /**
   * Stops accepting, ends pending delays and answers what is in flight, writes the request log,
   * unregisters. Records that could not be written are reported through the logger.
   */
  stop(): Promise<void>;
  /** Settles when the server has stopped (by stop(), a signal handler or `mockdev stop`). */
  readonly stopped: Promise<void>;
}

/** What `status` prints and `stop` returns. */
export interface ServerInfo extends ServerRecord {
  uptimeMs: number;
}

/** How long a stop waits for requests in flight (bodies still arriving) before closing them. */
const STOP_GRACE_MS = 5000;

/** Validates a port given to `serve`: 0 (any free port) or 1024-65535. */
export function checkServePort(port: number): number {
  if (!Number.isInteger(port) || (port !== 0 && (port < PORT_MIN || port > PORT_MAX))) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid port "${port}": must be from ${PORT_MIN} to ${PORT_MAX} (or 0 for any free port)`,
      { details: { field: 'port', value: port } },
    );
  }
  return port;
}

export function checkHost(host: string): string {
  const h = host.trim();
  if (h === '' || /[\s/\\?#@]/.test(h)) {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid host "${host}": must be a host name or IP address`, {
      hint: 'Use 127.0.0.1 (the default), localhost or 0.0.0.0',
      details: { field: 'host', value: host },
    });
  }
  return h;
}

async function projectToServe(ctx: AppContext, ref: string | undefined): Promise<StoredProject> {
  try {
    return await resolveProject(ctx, ref ?? '.');
  } catch (e) {
    if (ref === undefined && e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND') {
      throw new MockdevError('PROJECT_NOT_FOUND', `No project in ${ctx.cwd} (project.json is missing)`, {
        hint: (say) => `give a project id, name or folder, or ${say.action('initProject')}`,
      });
    }
    throw e;
  }
}

/**
 * A busy port held by a server of this very project: said so, with its URL and pid (still
 * PORT_IN_USE). Any other failure is returned as it is.
 */
async function samePortServed(
  ctx: AppContext,
  e: unknown,
  stored: StoredProject,
  port: number,
): Promise<unknown> {
  if (!(e instanceof MockdevError && e.code === 'PORT_IN_USE') || port === 0) return e;
  const running = await ctx.servers.list().catch(() => []);
  const first = running.find((r) => r.projectId === stored.project.id && r.port === port);
  if (!first) return e;
  return new MockdevError(
    'PORT_IN_USE',
    `"${stored.project.name}" is already served at ${first.url} (pid ${first.pid}): port ${port} is in use`,
    {
      hint: (say) =>
        `use that server, stop it first, or run a second one on another port with ${say.option('port')} (both log to one request log)`,
      details: { ...e.details, url: first.url, pid: first.pid },
      cause: e,
    },
  );
}

/**
 * Starts the mock server of a project (DECISIONS "CLI behaviour", "Mock server behaviour").
 * Only what answering needs happens before the socket is open; the request log's housekeeping
 * (what earlier servers spooled, retention) waits for the first idle moment. A second server of
 * a project runs only on another port, and says the first runs (its URL and pid) and that both
 * log to one request log; on the first one's port it is PORT_IN_USE naming it.
 */
export async function startServer(ctx: AppContext, input: StartServerInput = {}): Promise<RunningServer> {
  const host = checkHost(input.host ?? DEFAULT_HOST);
  if (input.port !== undefined) checkServePort(input.port);
  const [stored, settings] = await Promise.all([projectToServe(ctx, input.project), ctx.settings.read()]);
  const port = input.port ?? stored.project.port ?? settings.defaultPort;
  const tls = input.tls ?? (stored.project.tls ? await httpsCredentials(ctx, {}, true) : undefined);
  const logger = input.logger ?? {};
  const projectId = stored.project.id;
  // A deleted project stops its server; `stop` exists only once the server listens.
  let gone = false;
  let stopWhenGone = (): void => undefined;

  // Before the writer opens: checking starts with the first record this server logs.
  const live = await openLiveContract(ctx, stored, input.contract, logger);
  const writer = ctx.requests.openWriter({
    projectId,
    limit: settings.requestLogLimit,
    onWarning: (m) => logger.warn?.(m),
  });
  // Recordings are opened (and SQLite loaded) only when a proxy endpoint first records.
  let recordings: RecordingWriter | undefined;
  const recorder = () =>
    (recordings ??= ctx.recordings.openWriter({
      projectId,
      bodyLimitBytes: settings.requestBodyLimitBytes,
      onWarning: (m) => logger.warn?.(m),
    }));
  let closing = false;
  // Flows (docs/flows.md, "At run time"): compiled with the endpoints; runs stored beside the request log,
  // the writer opened when a first run starts.
  // {{tunnel.url}}: the project's tunnel, read at start, at each reload and now and then.
  const tunnelUrl: TunnelUrl = { url: '' };
  const flows = new FlowEngine({
    projectId,
    tunnel: tunnelUrl,
    openWriter: () =>
      ctx.flowRuns.openWriter({
        projectId,
        limit: settings.requestLogLimit,
        onWarning: (m) => logger.warn?.(m),
      }),
    warn: (m) => logger.warn?.(m),
  });
  // Resources (docs/resources.md "At run time"): their state in memory, written behind.
  const resources = new ResourceRuntime({
    projectId,
    store: ctx.resourceStates,
    bodyLimitBytes: settings.requestBodyLimitBytes,
    onWarning: (m) => logger.warn?.(m),
  });
  const source = await EndpointSource.open({
    projects: ctx.projects,
    key: stored.key,
    bodyLimitBytes: settings.requestBodyLimitBytes,
    proxy: { record: (r) => recorder().push(r), closing: () => closing },
    initial: stored.endpoints,
    initialFlows: stored.flows,
    resources: { runtime: resources, initial: stored.resources },
    flows,
    tunnel: { current: tunnelUrl, read: () => tunnelUrlOf(ctx, projectId) },
    environment: input.environment ?? (() => activeEnvironment(ctx, projectId)),
    onTemplateError: (m) => logger.warn?.(m),
    onWarning: (m) => logger.warn?.(m),
    onReload: (eps) =>
      logger.info?.(`Reloaded the endpoints: ${eps.length} endpoint${eps.length === 1 ? '' : 's'}`),
    onGone: () => {
      logger.warn?.(`The project "${stored.project.name}" was deleted: stopping its server`);
      gone = true;
      stopWhenGone();
    },
  }).catch(async (e: unknown) => {
    await live?.stop();
    throw e;
  });
  const afterResponse: AfterResponse[] = [];
  const request = logger.request;
  if (request) afterResponse.push((_ex, record) => request(record));
  // Live contract checking counts each response here and checks off the request path.
  if (live) afterResponse.push(live.afterResponse);
  /** Undoes what was set up when the server cannot start. */
  const abandon = async (e: unknown): Promise<never> => {
    source.close();
    await writer.close();
    await live?.stop();
    throw e;
  };
  const handler = createMockHandler({
    current: source.current,
    log: writer,
    bodyLimitBytes: settings.requestBodyLimitBytes,
    requestSizeLimitBytes: settings.requestSizeLimitBytes,
    afterResponse,
    onRequest: logger.received,
  });
  let listening;
  try {
    listening = await listen(handler, { host, port, tls });
  } catch (e) {
    return abandon(await samePortServed(ctx, e, stored, port));
  }
  const { server, url } = listening;
  // The registry knows the project's other servers (before this one registers).
  const others = (await ctx.servers.list().catch(() => [])).filter((r) => r.projectId === projectId);
  for (const other of others)
    logger.warn?.(
      `"${stored.project.name}" is already served at ${other.url} (pid ${other.pid}); this second server at ${url} logs to the same request log`,
    );
  let tunnel: Awaited<ReturnType<typeof startServerTunnel>> | undefined;
  if (input.tunnel) {
    try {
      // The tunnel providers are loaded only by a server asked for a tunnel.
      const { startServerTunnel } = await import('./tunnels.js');
      tunnel = await startServerTunnel(ctx, stored, {
        provider: input.tunnel.provider,
        port: listening.port,
        https: tls !== undefined,
        serverPid: process.pid,
      });
    } catch (e) {
      server.close();
      return abandon(e);
    }
    tunnelUrl.url = tunnel.tunnel.url;
  }
  const record: ServerRecord = {
    pid: process.pid,
    projectId,
    projectName: stored.project.name,
    projectDir: stored.location,
    host,
    port: listening.port,
    url,
    startedAt: new Date().toISOString(),
    ...(tls ? { tls: true } : {}),
    ...(input.stopByRequest ? { stopByRequest: true } : {}),
    ...(tunnel ? { tunnelUrl: tunnel.tunnel.url } : {}),
  };
  try {
    await ctx.servers.register(record);
  } catch (e) {
    await tunnel?.stop();
    server.close();
    return abandon(e);
  }

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let stopping: Promise<void> | undefined;
  let stopRequests: Subscription | undefined;
  // Runs of flows that no request starts, and runs asked for by hand (`flow run`, the UI).
  flows.begin();
  const runRequests = ctx.servers.onRunRequest(record, (request) => flows.requestRun(request));
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // Pending delays end now: everything in flight is answered (with Connection: close).
      closing = true;
      handler.beginStop();
      // Flow steps not fired yet are cancelled now; callbacks in flight get FLOW_STOP_GRACE_MS.
      flows.beginStop();
      runRequests.close();
      server.close();
      listening.closeIdle();
      // Requests whose body is still arriving get a bounded time, then their connections go.
      await Promise.race([handler.idle(), sleep(STOP_GRACE_MS, undefined, { ref: false })]);
      listening.closeAll();
      source.close();
      await Promise.all([writer.close(), flows.stop(), resources.close()]);
      // Then the contract check catches up with everything the writer wrote.
      await live?.stop();
      // Recordings are pushed just after their response: let those of the last ones arrive.
      await new Promise((r) => setImmediate(r));
      await recordings?.close();
      if (writer.lost > 0) {
        logger.warn?.(
          `${writer.lost} request log record${writer.lost === 1 ? ' was' : 's were'} lost (see the warnings above)`,
        );
      }
      stopRequests?.close();
      await tunnel?.stop().catch((e: unknown) => logger.warn?.(`The tunnel did not stop: ${String(e)}`));
      await ctx.servers.unregister(record);
      resolveStopped();
    })());
  stopWhenGone = () => void stop();
  if (gone) stopWhenGone();
  if (input.stopByRequest)
    stopRequests = ctx.servers.onStopRequest(record, () => {
      logger.info?.(`Stopping the server of "${stored.project.name}" (mockdev stop)`);
      void stop();
    });
  return {
    project: toProject(stored),
    host,
    port: listening.port,
    url,
    record,
    endpoints: () => source.endpoints,
    contract: () => live?.label(),
    stop,
    stopped,
  };
}

/** A registry record as `status` shows it: with its uptime. */
export const withUptime = (r: ServerRecord): ServerInfo => ({
  ...r,
  uptimeMs: Math.max(0, Date.now() - Date.parse(r.startedAt)),
});

/** Running servers of this data directory; stale records of dead processes are cleaned. */
export async function listServers(ctx: AppContext): Promise<ServerInfo[]> {
  return (await ctx.servers.list()).map(withUptime);
}

/**
 * The running servers of one project. A server stays reachable by what `status` shows even when
 * its project cannot be found any more (its folder was deleted or moved while it runs): then the
 * project id, name or folder in the server records decides.
 */
async function serversOf(ctx: AppContext, ref: string, running: ServerRecord[]): Promise<ServerRecord[]> {
  try {
    const stored = await resolveProject(ctx, ref);
    return running.filter((r) => r.projectId === stored.project.id);
  } catch (e) {
    if (!(e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND')) throw e;
    const wanted = ref.trim();
    const dir = ctx.files.resolve(wanted);
    const named = running.filter(
      (r) =>
        r.projectId === wanted ||
        r.projectName.toLowerCase() === wanted.toLowerCase() ||
        r.projectDir === dir,
    );
    if (named.length === 0) throw e;
    return named;
  }
}

/**
 * Stops running servers (all, or those serving one project) and waits until each has written
 * its request log and exited. Returns the servers stopped.
 */
export async function stopServers(
  ctx: AppContext,
  projectRef?: string,
  options: { timeoutMs?: number } = {},
): Promise<ServerInfo[]> {
  let running = await ctx.servers.list();
  if (projectRef !== undefined) running = await serversOf(ctx, projectRef, running);
  for (const r of running) ctx.servers.signalStop(r);
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (const r of running) {
    while (ctx.servers.isRunning(r) && Date.now() < deadline) await sleep(25);
    if (ctx.servers.isRunning(r)) {
      throw new MockdevError(
        'IO_ERROR',
        `The server of "${r.projectName}" (pid ${r.pid}) did not stop in time`,
        {
          hint: `Try again, or end process ${r.pid}`,
        },
      );
    }
    await ctx.servers.unregister(r);
  }
  return running.map(withUptime);
}

/** The tunnel URL a server of the project gives templates: its running tunnel's, else empty. */
async function tunnelUrlOf(ctx: Pick<AppContext, 'tunnels'>, projectId: string): Promise<string> {
  try {
    return (await ctx.tunnels.get(projectId))?.url ?? '';
  } catch {
    return '';
  }
}
