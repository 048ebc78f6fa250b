import * as z from 'zod';

/** license.json in the data directory: the activated key (a secret) and how it came. */
export const StoredLicenseSchema = z.object({
  key: z.string().min(1),
  activation: z.enum(['key', 'email']),
  activatedAt: z.string(),
});
export type StoredLicense = z.infer<typeof StoredLicenseSchema>;

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
});
