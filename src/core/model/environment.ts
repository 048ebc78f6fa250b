import * as z from 'zod';

/** Variable keys: letters, digits and underscores, not starting with a digit (`{{env.API_KEY}}`). */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const EnvironmentKeySchema = z
  .string()
  .regex(ENV_KEY_PATTERN, 'must start with a letter or _ and hold only letters, digits and _');

/**
 * An environment (SPEC 2 "Environment", Pro): variables, some of them secrets, for one project
 * or global (`projectId` null). `variables` holds every value, the secrets' too; `secretKeys`
 * says which of them are secrets. A store keeps the secrets' values apart from the rest.
 */
export const EnvironmentSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1).max(200),
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

/** An environment as the adapters show it: each secret's value masked unless revealed. */
export const EnvironmentViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(['project', 'global']).describe('global: usable by every project'),
  projectId: z.string().nullable().describe('The project it belongs to; null for a global one'),
  variables: z
    .record(z.string(), z.string())
    .describe('Every variable; a secret’s value is "********" unless revealed'),
  secretKeys: z.array(z.string()).describe('Which variables are secrets'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A project's environments and the global ones, each marked when active for the project. */
export const EnvironmentListSchema = z.object({
  project: z.object({ id: z.string(), name: z.string() }),
  environments: z.array(
    EnvironmentViewSchema.extend({ active: z.boolean().describe('Active for this project') }),
  ),
});

const Variables = z.record(EnvironmentKeySchema, z.string());
const Keys = z.array(EnvironmentKeySchema);

/** The variables a create or update sets: plain ones, secrets with their values, keys made secret. */
const VariableChanges = {
  variables: Variables.optional().describe('Plain variables: { "API_URL": "https://…" }'),
  secrets: Variables.optional().describe('Secrets with their values (masked in every answer)'),
  secretKeys: Keys.optional().describe('Keys of `variables` to keep as secrets'),
};

export const EnvironmentCreateSchema = z.object({
  name: z.string().describe('Unique within its scope'),
  project: z
    .string()
    .optional()
    .describe('The project it belongs to (id or name); left out: a global environment'),
  ...VariableChanges,
});

export const EnvironmentPatchSchema = z.object({
  name: z.string().optional(),
  ...VariableChanges,
  unset: Keys.optional().describe('Variables to remove (before the others are set)'),
});

/** What is active for a project after an activation. */
export const ActivationResultSchema = z.object({
  project: z.object({ id: z.string(), name: z.string() }),
  projectEnvironment: EnvironmentViewSchema.nullable().describe('The project’s own active environment'),
  globalEnvironment: EnvironmentViewSchema.nullable().describe('The global environment active for it'),
});
