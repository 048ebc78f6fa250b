import * as z from 'zod';

/** A yes/no query parameter: `true`/`false` (also 1/0, yes/no), absent: false. */
export const queryFlag = (description: string) =>
  z
    .stringbool({ error: 'must be true or false' })
    .optional()
    .transform((v) => v ?? false)
    .describe(description);

/** A whole-number query parameter of at least `min`. */
export const queryInt = (description: string, min = 1) =>
  z.coerce
    .number({ error: `must be a whole number of at least ${min}` })
    .int(`must be a whole number of at least ${min}`)
    .min(min, `must be a whole number of at least ${min}`)
    .optional()
    .describe(description);
