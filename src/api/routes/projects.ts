import * as z from 'zod';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../app/projects.js';
import {
  ProjectCreateSchema,
  ProjectDetailSchema,
  ProjectPatchSchema,
  ProjectSchema,
} from '../../core/model/project.js';
import { ProjectListingSchema } from '../../core/model/project-listing.js';
import { defineRoute, type Route } from '../route.js';

/**
 * `{project}`: an id or a URL-encoded name, never a filesystem path (DECISIONS "Trust and data";
 * the API's context has the reach "id or name only", handler.ts): a folder project by its id.
 */
export const PROJECT_PARAM = {
  project: 'Project id, or its name URL-encoded (a folder project: its id; never a path)',
};

export const projectRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/projects',
    tag: 'Projects',
    summary: 'List projects (as `mockdev list --json`)',
    response: {
      schema: z.array(ProjectListingSchema),
      description:
        'The projects, oldest first; then those whose files cannot be read, each with `unreadable: { file, code, problem }`',
    },
    handle: ({ ctx }) => listProjects(ctx),
  }),
  defineRoute<z.input<typeof ProjectCreateSchema>>({
    method: 'POST',
    path: '/projects',
    tag: 'Projects',
    summary: 'Create a project (as `mockdev project create`)',
    body: ProjectCreateSchema,
    response: { status: 201, schema: ProjectDetailSchema, description: 'The project created' },
    handle: ({ ctx, body }) => createProject(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{project}',
    tag: 'Projects',
    summary: 'A project with its endpoints (as `mockdev project show --json`)',
    params: PROJECT_PARAM,
    response: {
      schema: ProjectDetailSchema.extend({ dir: z.string().optional() }),
      description: 'The project',
    },
    handle: ({ ctx, params }) => getProject(ctx, params.project!),
  }),
  defineRoute<z.input<typeof ProjectPatchSchema>>({
    method: 'PATCH',
    path: '/projects/{project}',
    tag: 'Projects',
    summary: 'Change a project’s name, description, port or HTTPS (tls) (as `mockdev project update`)',
    params: PROJECT_PARAM,
    body: ProjectPatchSchema,
    response: { schema: ProjectDetailSchema, description: 'The project as changed' },
    handle: ({ ctx, params, body }) => updateProject(ctx, params.project!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{project}',
    tag: 'Projects',
    summary:
      'Delete a project, its request log, recordings and environments (as `mockdev project delete -f`)',
    params: PROJECT_PARAM,
    response: {
      schema: z.object({ project: ProjectSchema, requestsDeleted: z.number().int() }),
      description: 'The project deleted and how many logged requests went with it',
    },
    handle: ({ ctx, params }) => deleteProject(ctx, params.project!),
  }),
];
