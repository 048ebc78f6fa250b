import * as z from 'zod';
import { described } from './describe.js';
import { ENVIRONMENT_DOCS, withoutDefaults } from './descriptions.js';
import { sensitive } from '../validate.js';
import { EnvironmentKeySchema } from './environment.js';

/*
 * What the adapters (admin API, MCP, CLI --json) take and answer about environments. Apart from
 * environment.ts, the stored shape, so that a mock server, which reads environments but never
 * shows them, does not build these schemas at start.
 */

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

// Sensitive: an error names the key, never the value (a plain variable may be made a secret).
const Variables = () => sensitive(z.record(EnvironmentKeySchema, z.string()));
const Keys = z.array(EnvironmentKeySchema);

/** The variables a create or update sets: plain ones, secrets with their values, keys made secret. */
const VariableChanges = {
  variables: Variables().optional(),
  secrets: Variables().optional(),
  secretKeys: Keys.optional(),
};

export const EnvironmentCreateSchema = described(
  z.object({ name: z.string(), project: z.string().optional(), ...VariableChanges }),
  ENVIRONMENT_DOCS,
);

export const EnvironmentPatchSchema = described(
  z.object({ name: z.string().optional(), ...VariableChanges, unset: Keys.optional() }),
  withoutDefaults(ENVIRONMENT_DOCS),
);

/** What is active for a project after an activation. */
export const ActivationResultSchema = z.object({
  project: z.object({ id: z.string(), name: z.string() }),
  projectEnvironment: EnvironmentViewSchema.nullable().describe('The project’s own active environment'),
  globalEnvironment: EnvironmentViewSchema.nullable().describe('The global environment active for it'),
});
