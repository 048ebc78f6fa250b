import * as z from 'zod';

// Apart from license.ts (the stored license, which a mock server reads at start) so that the
// server does not build this schema, which only the adapters answer.

/** What `license status --json` prints: never the key, only its masked form. */
export const LicenseStatusSchema = z.object({
  plan: z.enum(['pro', 'free']).describe('pro only while an activated license is active'),
  state: z.enum(['none', 'active', 'expired', 'invalid']),
  licensee: z.string().nullable(),
  issuedAt: z.string().nullable(),
  expiresAt: z.string().nullable().describe('null: never expires (or no license)'),
  activation: z.enum(['key', 'email']).nullable(),
  activatedAt: z.string().nullable(),
  key: z.string().nullable().describe('The key masked (its last characters), never the key'),
  problem: z.string().optional().describe('Why the stored license is not active'),
  signedBy: z
    .enum(['built-in', 'MOCKDEV_LICENSE_PUBLIC_KEY'])
    .optional()
    .describe(
      'Whose public key verified the signature: the built-in one, or the one in MOCKDEV_LICENSE_PUBLIC_KEY (a self-hosted license service); absent when none did',
    ),
});
