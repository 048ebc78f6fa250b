import * as z from 'zod';
import { ENV_KEY_PATTERN, ENV_KEY_RULE, NAME_MAX } from './limits.js';

export { ENV_KEY_PATTERN } from './limits.js';

export const EnvironmentKeySchema = z.string().regex(ENV_KEY_PATTERN, ENV_KEY_RULE);

/**
 * An environment (SPEC 2 "Environment", Pro): variables, some of them secrets, for one project
 * or global (`projectId` null). `variables` holds every value, the secrets' too; `secretKeys`
 * says which of them are secrets. A store keeps the secrets' values apart from the rest.
 */
export const EnvironmentSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1).max(NAME_MAX),
  projectId: z.string().min(1).nullable(),
  variables: z.record(EnvironmentKeySchema, z.string()),
  secretKeys: z.array(EnvironmentKeySchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** What is active for one project: at most one of its own environments and one global one. */
export interface ActiveEnvironments {
  /** The project's own active environment. */
  project: string | null;
  /** The global environment active for this project (its variables lose to the project's). */
  global: string | null;
}
