import * as z from 'zod';

/** license.json in the data directory: the activated key (a secret) and how it came. */
export const StoredLicenseSchema = z.object({
  key: z.string().min(1),
  activation: z.enum(['key', 'email']),
  activatedAt: z.string(),
});
export type StoredLicense = z.infer<typeof StoredLicenseSchema>;
