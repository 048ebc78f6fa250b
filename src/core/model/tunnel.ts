import * as z from 'zod';

/**
 * Public tunnels to a local mock server (docs/tunnels.md): the providers, what runs, and what
 * `tunnel install` says of each provider.
 */

export const TUNNEL_PROVIDERS = ['cloudflared', 'ngrok'] as const;
export type TunnelProviderName = (typeof TUNNEL_PROVIDERS)[number];
export const DEFAULT_TUNNEL_PROVIDER: TunnelProviderName = 'cloudflared';
/** How long `tunnel start` waits for the public URL unless MOCKDEV_TUNNEL_TIMEOUT_MS says otherwise. */
export const TUNNEL_START_TIMEOUT_MS = 30_000;
/** How long `tunnel stop` waits after SIGTERM before SIGKILL. */
export const TUNNEL_STOP_GRACE_MS = 5_000;

/** A running tunnel as the tunnel registry holds it (one per project). */
export const TunnelRecordSchema = z.object({
  projectId: z.string(),
  provider: z.enum(TUNNEL_PROVIDERS),
  /** The public https URL. */
  url: z.string(),
  /** The local port it forwards to. */
  port: z.number().int(),
  /** The local server speaks HTTPS: forwarded as https://127.0.0.1:<port>. */
  https: z.boolean().optional(),
  /** The process that keeps the tunnel open. */
  pid: z.number().int(),
  startedAt: z.string(),
  /** Started by `serve --tunnel`: it stops with that server. */
  withServer: z.boolean().optional(),
  /** The process of that server (`serve --tunnel`): once it is gone, the tunnel is stopped when seen. */
  serverPid: z.number().int().optional(),
  /** Process start time (Linux /proc): tells a reused pid from the process that registered. */
  procStart: z.string().optional(),
});
export type TunnelRecord = z.infer<typeof TunnelRecordSchema>;

/** What `tunnel install` says of one provider. */
export const TunnelProviderCheckSchema = z.object({
  provider: z.enum(TUNNEL_PROVIDERS),
  available: z.boolean(),
  /** The program's or library's version, when available. */
  version: z.string().optional(),
  /** Where it was found (the program's path), or why it is not available. */
  detail: z.string(),
  /** How to install it on this system, when missing: commands and the download page. */
  install: z.object({ commands: z.array(z.string()), page: z.string() }).optional(),
});
export type TunnelProviderCheck = z.infer<typeof TunnelProviderCheckSchema>;

/** A port that is never tunnelled: that of a running `mockdev ui` (the admin API) or `mcp --http`. */
export interface GuardedPort {
  port: number;
  /** What listens there, for messages: "mockdev ui", "mockdev mcp --http". */
  what: string;
  pid: number;
}
