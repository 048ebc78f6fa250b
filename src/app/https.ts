import type { AppContext } from './context.js';

/** The TLS use cases (X.509, trust stores) are loaded only by a server asked for HTTPS. */
const serverCredentials: typeof import('./tls.js').serverCredentials = async (ctx, input) =>
  (await import('./tls.js')).serverCredentials(ctx, input);

/** What a server may be asked to serve HTTPS with: its own files, or the generated leaf. */
export interface HttpsRequest {
  /** Serve HTTPS with the certificate `tls generate` made. */
  tls?: boolean;
  /** Own PEM files (relative to ctx.cwd); both or neither. */
  cert?: string;
  key?: string;
}

/**
 * The PEM pair a `serve` or `ui` was asked to serve with (docs/server.md, "HTTPS"): its own files
 * (`--cert` and `--key`, checked by serverCredentials: unreadable, not PEM or not a pair is
 * INVALID_ARGUMENT naming the file), else the generated leaf (`--tls`, or `projectTls`: the
 * project's `tls: true`; none made yet: NOT_FOUND naming `mockdev tls generate`); undefined: plain HTTP.
 */
export async function httpsCredentials(
  ctx: AppContext,
  request: HttpsRequest,
  projectTls = false,
): Promise<{ cert: string; key: string } | undefined> {
  if (request.cert !== undefined || request.key !== undefined) {
    const { cert, key } = await serverCredentials(ctx, { cert: request.cert, key: request.key });
    return { cert, key };
  }
  if (!request.tls && !projectTls) return undefined;
  const { cert, key } = await serverCredentials(ctx, {});
  return { cert, key };
}
