import * as z from 'zod';
import { checkTunnelProviders, startTunnel, stopTunnel, tunnelStatus } from '../../app/tunnels.js';
import { TUNNEL_PROVIDERS, TunnelProviderCheckSchema, TunnelRecordSchema } from '../../core/model/tunnel.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/**
 * Public tunnels, as `mockdev tunnel …` (docs/tunnels.md; Pro): a project's tunnel (start,
 * status, stop) and whether each provider is installed. The admin API's own port is never
 * tunnelled (the use case refuses it).
 */

const TAG = 'Tunnels';
const ONE = '/projects/{project}/tunnel';

export const TunnelProviderSchema = z
  .enum(TUNNEL_PROVIDERS, { error: `must be one of ${TUNNEL_PROVIDERS.join(', ')}` })
  .describe('The tunnel provider (default cloudflared)');

const StartSchema = z
  .object({
    provider: TunnelProviderSchema.optional(),
    port: z
      .number({ error: 'must be a whole number from 1 to 65535' })
      .int('must be a whole number from 1 to 65535')
      .min(1, 'must be a whole number from 1 to 65535')
      .max(65535, 'must be a whole number from 1 to 65535')
      .optional()
      .describe("The local port to tunnel to (default: the project's running mock server)"),
  })
  .strict();

const PRO = 'Without a Pro license: 403 `LICENSE_REQUIRED`.';

export const tunnelRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: ONE,
    tag: TAG,
    summary: 'The project’s running tunnel, or null (as `mockdev tunnel status --json`; Pro)',
    description: `A tunnel whose process has died is cleaned up, never shown as running. ${PRO}`,
    params: PROJECT_PARAM,
    response: { schema: TunnelRecordSchema.nullable(), description: 'The tunnel, or null' },
    handle: ({ ctx, params }) => tunnelStatus(ctx, params.project!),
  }),
  defineRoute<z.output<typeof StartSchema> | undefined>({
    method: 'POST',
    path: ONE,
    tag: TAG,
    summary: 'Start a tunnel to the project’s mock server, or to `port` (as `mockdev tunnel start`; Pro)',
    description: `Answers once the provider has printed the public URL (within 30 s). One tunnel per project: when one runs, it is answered with \`alreadyRunning: true\`. No server of the project running and no \`port\`: 404 \`NOT_FOUND\`, saying to start it or give the port; a provider not installed: see GET /api/v1/tunnels/providers. The port of \`mockdev ui\` or \`mcp --http\` is refused (400). ${PRO}`,
    params: PROJECT_PARAM,
    body: StartSchema.optional(),
    response: {
      status: 201,
      schema: z.object({
        tunnel: TunnelRecordSchema,
        alreadyRunning: z.boolean().describe('The tunnel was running already (nothing was started)'),
      }),
      description: 'The tunnel, with its public URL',
    },
    handle: ({ ctx, params, body }) =>
      startTunnel(ctx, params.project!, { provider: body?.provider, port: body?.port }),
  }),
  defineRoute({
    method: 'DELETE',
    path: ONE,
    tag: TAG,
    summary: 'Stop the project’s tunnel (as `mockdev tunnel stop`; Pro)',
    description: `SIGTERM, then SIGKILL after 5 s. ${PRO}`,
    params: PROJECT_PARAM,
    response: {
      schema: TunnelRecordSchema.nullable(),
      description: 'The tunnel stopped, or null when none was running',
    },
    handle: ({ ctx, params }) => stopTunnel(ctx, params.project!),
  }),
  defineRoute({
    method: 'GET',
    path: '/tunnels/providers',
    tag: TAG,
    summary: 'Whether each provider is installed, and how to install it (as `mockdev tunnel install --json`)',
    description: PRO,
    response: { schema: z.array(TunnelProviderCheckSchema), description: 'One check per provider' },
    handle: ({ ctx }) => checkTunnelProviders(ctx),
  }),
];
