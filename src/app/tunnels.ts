/**
 * Public tunnels (docs/tunnels.md): the use cases the CLI, the admin API and the UI call. A
 * tunnel runs in a background process of its own (store/tunnels/) and is recorded in the tunnel
 * registry, one per project; the admin API and MCP are never tunnelled.
 */
import { MockdevError } from '../core/errors.js';
import { PORT_MAX } from '../core/model/fields.js';
import {
  DEFAULT_TUNNEL_PROVIDER,
  TUNNEL_PROVIDERS,
  TUNNEL_START_TIMEOUT_MS,
  TUNNEL_STOP_GRACE_MS,
  type TunnelProviderCheck,
  type TunnelProviderName,
  type TunnelRecord,
} from '../core/model/tunnel.js';
import type { StoredProject, Subscription } from '../core/ports.js';
import { stopTree, TUNNEL_PROVIDER_MODULES } from '../store/tunnels/providers.js';
import type { AppContext } from './context.js';
import { requirePro } from './license.js';
import { resolveProject } from './projects.js';

/** What starting a tunnel may say beyond the project. */
export interface StartTunnelInput {
  provider?: TunnelProviderName;
  /** The local port to tunnel to (default: the project's running mock server). */
  port?: number;
}

/**
 * (Pro) Starts a tunnel to the project's running mock server (or to `port`) in a background
 * process of its own; waits for its public URL. One per project: when one runs, it is returned
 * with `alreadyRunning`.
 */
export async function startTunnel(
  ctx: AppContext,
  project: string,
  input: StartTunnelInput = {},
): Promise<{ tunnel: TunnelRecord; alreadyRunning: boolean }> {
  await requirePro(ctx, 'tunnel');
  const stored = await resolveProject(ctx, project);
  const provider = checkProvider(input.provider);
  const running = await ctx.tunnels.get(stored.project.id);
  if (running) return { tunnel: running, alreadyRunning: true };
  const target =
    input.port === undefined
      ? await serverPort(ctx, stored)
      : { port: checkTunnelPort(input.port), https: false };
  await refuseGuarded(ctx, target.port, input.port !== undefined);
  return { tunnel: await openTunnel(ctx, stored, provider, target), alreadyRunning: false };
}

/** (Pro) The project's running tunnel, or null (a record of a process gone is removed). */
export async function tunnelStatus(ctx: AppContext, project: string): Promise<TunnelRecord | null> {
  await requirePro(ctx, 'tunnel');
  const stored = await resolveProject(ctx, project);
  return (await ctx.tunnels.get(stored.project.id)) ?? null;
}

/** (Pro) Stops the project's tunnel (SIGTERM, then SIGKILL after 5 s); the one stopped, or null. */
export async function stopTunnel(ctx: AppContext, project: string): Promise<TunnelRecord | null> {
  await requirePro(ctx, 'tunnel');
  const stored = await resolveProject(ctx, project);
  return closeTunnel(ctx, stored.project.id);
}

/** (Pro) Each provider: available (and its version), or how to install it on this system. */
export async function checkTunnelProviders(ctx: AppContext): Promise<TunnelProviderCheck[]> {
  await requirePro(ctx, 'tunnel');
  const authtoken = await ngrokToken(ctx);
  return Promise.all(
    TUNNEL_PROVIDERS.map((name) => TUNNEL_PROVIDER_MODULES[name].check({ env: ctx.env, authtoken })),
  );
}

/**
 * The tunnel of a server started with `serve --tunnel` (the server's process is `serverPid`):
 * the project's running tunnel when it forwards to that port, else a new one recorded as the
 * server's (stopped with it, or when seen after the server is gone). `stop` ends it when it is
 * the server's own.
 */
export async function startServerTunnel(
  ctx: AppContext,
  stored: StoredProject,
  input: { provider?: TunnelProviderName; port: number; serverPid: number; https?: boolean },
): Promise<{ tunnel: TunnelRecord; stop: () => Promise<void> }> {
  await requirePro(ctx, 'tunnel');
  const provider = checkProvider(input.provider);
  const running = await ctx.tunnels.get(stored.project.id);
  if (running) {
    if (running.port !== input.port)
      throw new MockdevError(
        'CONFLICT',
        `"${stored.project.name}" already has a tunnel (${running.url}, pid ${running.pid}) to port ${running.port}, not to this server's port ${input.port}`,
        {
          hint: `Stop it first (mockdev tunnel stop ${stored.project.name}), or serve on port ${running.port}`,
        },
      );
    return { tunnel: running, stop: async () => undefined };
  }
  const tunnel = await openTunnel(
    ctx,
    stored,
    provider,
    { port: input.port, https: input.https === true },
    input.serverPid,
  );
  return { tunnel, stop: async () => void (await closeTunnel(ctx, stored.project.id, tunnel.pid)) };
}

function checkProvider(name: string | undefined): TunnelProviderName {
  if (name === undefined) return DEFAULT_TUNNEL_PROVIDER;
  const wanted = name.trim().toLowerCase();
  const found = TUNNEL_PROVIDERS.find((p) => p === wanted);
  if (!found)
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Unknown tunnel provider "${name}": must be one of ${TUNNEL_PROVIDERS.join(', ')}`,
      { details: { field: 'provider', value: name } },
    );
  return found;
}

/** A port to tunnel to: any local port, 1-65535. */
function checkTunnelPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > PORT_MAX)
    throw new MockdevError('INVALID_ARGUMENT', `Invalid port "${port}": must be from 1 to ${PORT_MAX}`, {
      details: { field: 'port', value: port },
    });
  return port;
}

/** The port of the project's running mock server (the first started). */
/** The port of the project's running mock server, and whether it serves HTTPS. */
async function serverPort(ctx: AppContext, stored: StoredProject): Promise<{ port: number; https: boolean }> {
  const server = (await ctx.servers.list()).find((s) => s.projectId === stored.project.id);
  if (server) return { port: server.port, https: server.tls === true };
  throw new MockdevError('NOT_FOUND', `"${stored.project.name}" has no running mock server to tunnel to`, {
    hint: (say) =>
      `Start it first (mockdev serve ${stored.project.name}), or name the local port to tunnel to with ${say.option('port')}`,
  });
}

/**
 * The admin API and MCP are never tunnelled: the port of a running `mockdev ui` or `mcp --http`
 * (each registers its port while it runs), and, when the port was named, the settings' UI and MCP
 * ports (where they start by default), are refused.
 */
async function refuseGuarded(ctx: AppContext, port: number, named: boolean): Promise<void> {
  const guarded = (await ctx.tunnels.guardedPorts()).find((g) => g.port === port);
  let what = guarded ? `the port of the running "${guarded.what}" (pid ${guarded.pid})` : undefined;
  if (!what && named) {
    const settings = await ctx.settings.read();
    if (port === settings.uiPort) what = 'the port of "mockdev ui" (the setting uiPort)';
    else if (port === settings.mcpPort) what = 'the port of "mockdev mcp --http" (the setting mcpPort)';
  }
  if (what)
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Port ${port} is ${what}: the admin API and the MCP server are never tunnelled, they would give anyone on the internet control of mockdev`,
      {
        hint: "Tunnel a mock server (its port, or none to use the project's running server) or an app of your own",
        details: { field: 'port', value: port },
      },
    );
}

async function ngrokToken(ctx: AppContext): Promise<string | undefined> {
  const fromEnv = ctx.env.NGROK_AUTHTOKEN?.trim();
  if (fromEnv) return fromEnv;
  return (await ctx.settings.read()).ngrokAuthtoken ?? undefined;
}

/** MOCKDEV_TUNNEL_TIMEOUT_MS when it is a positive whole number, else 30 s. */
function startTimeout(env: NodeJS.ProcessEnv): number {
  const n = Number(env.MOCKDEV_TUNNEL_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : TUNNEL_START_TIMEOUT_MS;
}

async function openTunnel(
  ctx: AppContext,
  stored: StoredProject,
  provider: TunnelProviderName,
  target: { port: number; https: boolean },
  serverPid?: number,
): Promise<TunnelRecord> {
  const projectId = stored.project.id;
  const port = target.port;
  const started = await TUNNEL_PROVIDER_MODULES[provider].start({
    env: ctx.env,
    authtoken: provider === 'ngrok' ? await ngrokToken(ctx) : undefined,
    dataDir: ctx.dataDir,
    projectId,
    port,
    https: target.https,
    timeoutMs: startTimeout(ctx.env),
  });
  const tunnel: TunnelRecord = {
    projectId,
    provider,
    url: started.url,
    port,
    ...(target.https ? { https: true } : {}),
    pid: started.pid,
    startedAt: new Date().toISOString(),
    ...(started.procStart ? { procStart: started.procStart } : {}),
    ...(serverPid !== undefined ? { withServer: true, serverPid } : {}),
  };
  try {
    await ctx.tunnels.record(tunnel);
  } catch (e) {
    await stopTree(started.pid, TUNNEL_STOP_GRACE_MS, started.procStart);
    throw e;
  }
  return tunnel;
}

/** Stops a project's tunnel (only the one of process `pid`, when given) and forgets it. */
async function closeTunnel(ctx: AppContext, projectId: string, pid?: number): Promise<TunnelRecord | null> {
  const running = await ctx.tunnels.get(projectId);
  if (!running || (pid !== undefined && running.pid !== pid)) return null;
  await stopTree(running.pid, TUNNEL_STOP_GRACE_MS, running.procStart);
  await ctx.tunnels.remove(projectId);
  return running;
}

/**
 * Marks the port of a server that is never tunnelled (`mockdev ui`, `mcp --http`) while it runs
 * (until the subscription is closed). A tunnel already forwarding to that port is refused
 * (CONFLICT): the caller closes its server.
 */
export async function guardFromTunnels(
  ctx: AppContext,
  guard: { port: number; what: string },
): Promise<Subscription> {
  const tunnelled = (await ctx.tunnels.list()).find((t) => t.port === guard.port);
  if (tunnelled)
    throw new MockdevError(
      'CONFLICT',
      `A tunnel (${tunnelled.url}, pid ${tunnelled.pid}) forwards to port ${guard.port}: ${guard.what} is never tunnelled`,
      { hint: 'Stop that tunnel first (mockdev tunnel stop <PROJECT>), or use another port' },
    );
  return ctx.tunnels.guardPort({ ...guard, pid: process.pid });
}
