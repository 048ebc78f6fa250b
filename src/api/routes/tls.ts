import * as z from 'zod';
import { generateTls, tlsStatus, tlsTrustInstructions } from '../../app/tls.js';
import { TlsStatusSchema, TRUST_TARGETS, TrustInstructionsSchema } from '../../core/model/tls.js';
import { defineRoute, type Route } from '../route.js';

/**
 * HTTPS with a local CA, as `mockdev tls …` (docs/tls.md): the CA and the leaf with the trust
 * stores' view of them, generating (Pro), and the commands that trust the CA on a system.
 */

const TAG = 'TLS';

const GenerateSchema = z
  .object({
    hosts: z
      .array(z.string().min(1))
      .optional()
      .describe('More names for the leaf, besides localhost, 127.0.0.1 and ::1 (as `--host`)'),
    newCa: z.boolean().optional().describe('Make a new CA too (as `--new-ca`); default: keep the CA'),
  })
  .strict();

const TrustQuery = z.object({
  os: z
    .enum(TRUST_TARGETS, { error: `must be one of ${TRUST_TARGETS.join(', ')}` })
    .optional()
    .describe('The system to trust the CA on (default: the one `mockdev ui` runs on)'),
});

export const tlsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/tls',
    tag: TAG,
    summary: 'The CA and the leaf, and which trust stores hold the CA (as `mockdev tls status --json`)',
    description:
      '`ca` and `leaf` are null until `tls generate`; `renew` is true when the leaf expires within 30 days. Each trust store that can be read on this system says `trusted` or `not-trusted`, else `unknown` with why.',
    response: { schema: TlsStatusSchema, description: 'The TLS status' },
    handle: ({ ctx }) => tlsStatus(ctx),
  }),
  defineRoute<z.output<typeof GenerateSchema> | undefined>({
    method: 'POST',
    path: '/tls/generate',
    tag: TAG,
    summary: 'Make the CA (once) and a new leaf certificate (as `mockdev tls generate`; Pro)',
    description:
      'A second call renews the leaf with the same CA unless `newCa` (every system that trusted the old CA must trust the new one). Without a Pro license: 403 `LICENSE_REQUIRED`.',
    body: GenerateSchema.optional(),
    response: {
      status: 201,
      schema: z.object({
        status: TlsStatusSchema,
        caCreated: z.boolean().describe('A CA was made by this call'),
      }),
      description: 'The TLS status after, and whether a CA was made',
    },
    handle: ({ ctx, body }) => generateTls(ctx, { hosts: body?.hosts, newCa: body?.newCa }),
  }),
  defineRoute<unknown, z.output<typeof TrustQuery>>({
    method: 'GET',
    path: '/tls/trust',
    tag: TAG,
    summary: 'The commands that trust the CA on a system (as `mockdev tls trust --os`); never run',
    query: TrustQuery,
    response: { schema: TrustInstructionsSchema, description: 'The steps and their commands' },
    handle: ({ ctx, query }) => tlsTrustInstructions(ctx, { target: query.os }),
  }),
];
