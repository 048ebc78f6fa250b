import * as z from 'zod';

/**
 * What the web UI keeps per project in the data directory, so it survives a reload, another
 * browser and a restart of `mockdev ui`: which folders of the endpoint tree are expanded. A
 * folder is named by its path prefix as the tree shows it (`/api`, `/api/users`).
 */
export const TreeStateSchema = z
  .object({
    expanded: z
      .array(
        z
          .string()
          .min(1)
          .max(2048)
          .regex(/^\//, 'a folder is its path prefix, starting with "/"')
          .describe('A folder path prefix, e.g. /api/users'),
      )
      .max(10_000)
      .describe('The expanded folders'),
  })
  .strict();
export type TreeState = z.infer<typeof TreeStateSchema>;

export const EMPTY_TREE_STATE: TreeState = { expanded: [] };

/**
 * The tree state as the admin API answers it: the expanded folders, and whether they were ever
 * saved for this project (`saved: false` is a project's first visit: the web UI then expands
 * every folder).
 */
export const TreeStateViewSchema = TreeStateSchema.extend({
  saved: z.boolean().describe('Whether the state was ever saved for this project (false: a first visit)'),
}).strict();
export type TreeStateView = z.infer<typeof TreeStateViewSchema>;
