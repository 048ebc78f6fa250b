import * as z from 'zod';
import {
  activateEnvironment,
  deactivateEnvironment,
  createEnvironment,
  deleteEnvironment,
  duplicateEnvironment,
  listEnvironments,
  showEnvironment,
  updateEnvironment,
} from '../../app/environments.js';
import {
  ActivationResultSchema,
  EnvironmentCreateSchema,
  EnvironmentListSchema,
  EnvironmentPatchSchema,
  EnvironmentViewSchema,
} from '../../core/model/environment-views.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { queryFlag } from './query-fields.js';

/**
 * Environments (Pro), as `mockdev environment …`: every answer masks the secrets' values,
 * except GET /environments/{environment}?reveal=true (as `environment show --reveal`). Without
 * an active license each route answers 403 LICENSE_REQUIRED (the app's gate).
 */

const TAG = 'Environments';
const ENV_PARAM = { environment: 'Environment id, or its name URL-encoded' };

const ShowQuerySchema = z.object({
  reveal: queryFlag('Show the secrets’ values (as `environment show --reveal`)'),
});
const ProjectEnvironmentCreateSchema = EnvironmentCreateSchema.omit({ project: true });
const ActivateSchema = z.object({
  environment: z
    .string()
    .describe('The environment to activate (id or name): the project’s own, or a global one'),
});
const DuplicateSchema = z
  .object({ name: z.string().optional().describe('The copy’s name; left out: "<name> copy"') })
  .optional();

const DeactivateQuerySchema = z.object({
  environment: z
    .string()
    .min(1)
    .optional()
    .describe('Only this environment (id or name) stops being active; without it, none stays active'),
});

export const environmentRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/projects/{project}/environments',
    tag: TAG,
    summary:
      'A project’s environments and the global ones, the active ones marked (as `environment list --json`)',
    params: PROJECT_PARAM,
    response: { schema: EnvironmentListSchema, description: 'The project’s first, then the global ones' },
    handle: ({ ctx, params }) => listEnvironments(ctx, params.project!),
  }),
  defineRoute<z.output<typeof ProjectEnvironmentCreateSchema>>({
    method: 'POST',
    path: '/projects/{project}/environments',
    tag: TAG,
    summary: 'Create an environment of the project (as `environment create -p PROJECT --json`)',
    params: PROJECT_PARAM,
    body: ProjectEnvironmentCreateSchema,
    response: { status: 201, schema: EnvironmentViewSchema, description: 'The environment, secrets masked' },
    handle: ({ ctx, params, body }) => createEnvironment(ctx, { ...body, project: params.project! }),
  }),
  defineRoute<z.output<typeof EnvironmentCreateSchema>>({
    method: 'POST',
    path: '/environments',
    tag: TAG,
    summary: 'Create a global environment, or a project’s with `project` (as `environment create --json`)',
    body: EnvironmentCreateSchema,
    response: { status: 201, schema: EnvironmentViewSchema, description: 'The environment, secrets masked' },
    handle: ({ ctx, body }) => createEnvironment(ctx, body),
  }),
  defineRoute<unknown, z.output<typeof ShowQuerySchema>>({
    method: 'GET',
    path: '/environments/{environment}',
    tag: TAG,
    summary: 'One environment (as `environment show --json`; `?reveal=true` as `--reveal`)',
    params: ENV_PARAM,
    query: ShowQuerySchema,
    response: {
      schema: EnvironmentViewSchema,
      description: 'The environment, secrets masked unless revealed',
    },
    handle: ({ ctx, params, query }) => showEnvironment(ctx, params.environment!, { reveal: query.reveal }),
  }),
  defineRoute<z.output<typeof EnvironmentPatchSchema>>({
    method: 'PATCH',
    path: '/environments/{environment}',
    tag: TAG,
    summary: 'Rename, set, make secret or remove variables (as `environment update --json`)',
    params: ENV_PARAM,
    body: EnvironmentPatchSchema,
    response: { schema: EnvironmentViewSchema, description: 'The environment as changed, secrets masked' },
    handle: ({ ctx, params, body }) => updateEnvironment(ctx, params.environment!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/environments/{environment}',
    tag: TAG,
    summary: 'Delete an environment (as `environment delete -f`)',
    params: ENV_PARAM,
    response: { schema: EnvironmentViewSchema, description: 'The environment deleted, secrets masked' },
    handle: ({ ctx, params }) => deleteEnvironment(ctx, params.environment!),
  }),
  defineRoute<z.output<typeof DuplicateSchema>>({
    method: 'POST',
    path: '/environments/{environment}/duplicate',
    tag: TAG,
    summary: 'Copy an environment, secrets included, in the same scope (as `environment duplicate --json`)',
    params: ENV_PARAM,
    body: DuplicateSchema,
    response: { status: 201, schema: EnvironmentViewSchema, description: 'The copy, secrets masked' },
    handle: ({ ctx, params, body }) => duplicateEnvironment(ctx, params.environment!, { name: body?.name }),
  }),
  defineRoute<z.output<typeof ActivateSchema>>({
    method: 'PUT',
    path: '/projects/{project}/environments/active',
    tag: TAG,
    summary:
      'Activate an environment for a project: its own replaces its own, a global one the global one (as `environment activate`)',
    params: PROJECT_PARAM,
    body: ActivateSchema,
    response: { schema: ActivationResultSchema, description: 'What is active for the project now' },
    handle: ({ ctx, params, body }) => activateEnvironment(ctx, params.project!, body.environment),
  }),
  defineRoute<unknown, z.output<typeof DeactivateQuerySchema>>({
    method: 'DELETE',
    path: '/projects/{project}/environments/active',
    tag: TAG,
    summary:
      'Make no environment active for a project (as `environment activate PROJECT` without one), or with `?environment=` only that one',
    description:
      'With `?environment=<id or name>`, only that environment stops being active for the project; the other active one (project or global) stays. One that is not active changes nothing.',
    params: PROJECT_PARAM,
    query: DeactivateQuerySchema,
    response: { schema: ActivationResultSchema, description: 'What is active for the project now' },
    handle: ({ ctx, params, query }) =>
      query.environment === undefined
        ? activateEnvironment(ctx, params.project!)
        : deactivateEnvironment(ctx, params.project!, query.environment),
  }),
];
