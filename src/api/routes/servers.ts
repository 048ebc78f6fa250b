import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import { ServerRecordSchema } from '../../core/model/server.js';
import { listServers } from '../../app/server.js';
import { defineRoute, type ApiServices, type Route, type ServerHost } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { TunnelProviderSchema } from './tunnels.js';

/** A running server as `mockdev status --json` prints it. */
const ServerInfoSchema = ServerRecordSchema.extend({
  uptimeMs: z.number().int().describe('How long it has been running (ms)'),
});

const ServerStartSchema = z
  .object({
    port: z
      .number()
      .int()
      .optional()
      .describe("1024-65535, or 0 for any free port (default: the project's port)"),
    host: z.string().optional().describe('Bind address (default 127.0.0.1)'),
    tls: z
      .boolean()
      .optional()
      .describe(
        'Serve HTTPS with the generated leaf certificate (`tls generate`); without one, the error names `tls generate`',
      ),
    tunnel: TunnelProviderSchema.nullable()
      .optional()
      .describe(
        'Start a tunnel of this provider with the server, stopped with it (Pro; as `serve --tunnel`)',
      ),
  })
  .strict();

/** The servers this API process runs; absent only when the API is used without its services. */
function host(services: ApiServices): ServerHost {
  if (!services.servers) throw new MockdevError('INTERNAL', 'This admin API runs no mock servers');
  return services.servers;
}

export const serverRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/servers',
    tag: 'Servers',
    summary: 'The running mock servers of every process (as `mockdev status --json`)',
    response: { schema: z.array(ServerInfoSchema), description: 'The running servers, oldest first' },
    handle: ({ ctx }) => listServers(ctx),
  }),
  defineRoute<z.input<typeof ServerStartSchema> | undefined>({
    method: 'PUT',
    path: '/projects/{project}/server',
    tag: 'Servers',
    summary: "Start the project's mock server in the admin API's process (as `mockdev serve`)",
    description:
      'The server runs until DELETE …/server, `mockdev stop`, or until `mockdev ui` stops. A port in use is 409 PORT_IN_USE; a project already served (by any process) is 409 CONFLICT naming its URL. `tls: true` serves HTTPS with the generated leaf (`url` is https); `tunnel` starts a tunnel with the server (its public URL in `tunnelUrl`), stopped with the server; a tunnel that cannot start stops the server and answers why.',
    params: PROJECT_PARAM,
    body: ServerStartSchema.optional(),
    response: { status: 201, schema: ServerInfoSchema, description: 'The server started' },
    handle: ({ services, params, body }) =>
      host(services).start(params.project!, {
        port: body?.port,
        host: body?.host,
        tls: body?.tls,
        tunnel: body?.tunnel ?? undefined,
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{project}/server',
    tag: 'Servers',
    summary: "Stop the project's mock servers, whichever process runs them (as `mockdev stop <project>`)",
    params: PROJECT_PARAM,
    response: {
      schema: z.array(ServerInfoSchema),
      description: 'The servers stopped (each has written its request log)',
    },
    handle: ({ services, params }) => host(services).stop(params.project!),
  }),
];
