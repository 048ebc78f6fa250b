import * as z from 'zod';

/**
 * A running mock server as the server registry holds it; `status --json` prints it with
 * `uptimeMs` added.
 */
export const ServerRecordSchema = z.object({
  pid: z.number().int(),
  projectId: z.string(),
  projectName: z.string(),
  /** Where the project lives (ProjectStore `location`). */
  projectDir: z.string(),
  host: z.string(),
  port: z.number().int(),
  url: z.string(),
  startedAt: z.string(),
  /** Process start time (Linux /proc): tells a reused pid from the process that registered. */
  procStart: z.string().optional(),
  /**
   * The server runs inside a process that hosts others too (`mockdev ui`): a stop is a request
   * its host watches for (ServerRegistry.onStopRequest), never a signal that would end the host.
   */
  stopByRequest: z.boolean().optional(),
  /** Served over HTTPS (HTTP/1.1 and HTTP/2 on one port): `url` is https. */
  tls: z.boolean().optional(),
  /** The public URL of the tunnel started with the server (`serve --tunnel`). */
  tunnelUrl: z.string().optional(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;
