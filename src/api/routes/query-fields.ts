import * as z from 'zod';

/** A yes/no query parameter: `true`/`false` (also 1/0, yes/no), absent: false. */
export const queryFlag = (description: string) =>
  z
    .stringbool({ error: 'must be true or false' })
    .optional()
    .transform((v) => v ?? false)
    .describe(description);

/** A whole-number query parameter of at least `min` (and at most `max`, when given). */
export const queryInt = (description: string, min = 1, max?: number) => {
  const rule =
    max === undefined
      ? `must be a whole number of at least ${min}`
      : `must be a whole number from ${min} to ${max}`;
  const n = z.coerce.number({ error: rule }).int(rule).min(min, rule);
  return (max === undefined ? n : n.max(max, rule)).optional().describe(description);
};
