import * as z from 'zod';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../app/projects.js';
import {
  ProjectCreateSchema,
  ProjectDetailSchema,
  ProjectPatchSchema,
  ProjectSchema,
  type Project,
} from '../../core/model/project.js';
import { isReadable, isUnreadable, UnreadableProjectSchema } from '../../core/model/project-listing.js';
import {
  ADDITIVE,
  DESTRUCTIVE,
  PROJECT_ALIASES,
  READ_ONLY,
  UPDATE,
  defineTool,
  projectIdField,
} from './define.js';

/** Every project tool reaches only projects in the data directory (SPEC 4.3). */
const DATA_DIR_ONLY = { dataDirOnly: true } as const;

const projectLine = (p: Project) =>
  `${p.name} (id ${p.id}, port ${p.port}, ${p.endpointCount} endpoint${p.endpointCount === 1 ? '' : 's'})`;

export const listProjectsTool = defineTool({
  name: 'list_projects',
  title: 'List projects',
  category: 'project',
  description:
    'List the mock API projects in the mockdev data directory with their id, name, description, port and number of endpoints. ' +
    'Call this first to find the projectId other tools need.',
  input: z.object({}),
  output: z.object({
    projects: z.array(ProjectSchema).describe('Projects in the data directory, oldest first.'),
    unreadable: z
      .array(UnreadableProjectSchema)
      .optional()
      .describe('Projects in the data directory whose files cannot be read: the file and the problem.'),
  }),
  hints: READ_ONLY,
  async run(ctx) {
    const listed = await listProjects(ctx, DATA_DIR_ONLY);
    const projects = listed.filter(isReadable);
    const unreadable = listed.filter(isUnreadable);
    const lines = [
      ...projects.map((p) => `- ${projectLine(p)}`),
      ...unreadable.map((u) => `- UNREADABLE ${u.unreadable.file}: ${u.unreadable.problem}`),
    ];
    const summary = lines.length
      ? `${lines.length} project${lines.length === 1 ? '' : 's'}${unreadable.length ? ` (${unreadable.length} unreadable)` : ''}:\n${lines.join('\n')}`
      : 'No projects yet. Create one with create_project.';
    return { summary, data: { projects, ...(unreadable.length ? { unreadable } : {}) } };
  },
});

export const createProjectTool = defineTool({
  name: 'create_project',
  title: 'Create project',
  category: 'project',
  description:
    'Create an empty mock API project in the mockdev data directory. Returns the project with its id; ' +
    'add endpoints with create_endpoint or import_openapi.',
  // The fields' words are the core's (core/model/descriptions.ts), as in the admin API and the CLI.
  input: ProjectCreateSchema,
  output: ProjectDetailSchema,
  hints: ADDITIVE,
  async run(ctx, args) {
    const project = await createProject(ctx, args);
    return { summary: `Created project ${projectLine(project)}.`, data: project };
  },
});

export const getProjectTool = defineTool({
  name: 'get_project',
  title: 'Get project',
  category: 'project',
  description:
    'Show one project with all of its endpoints (method, path, status, body, headers, enabled, ...).',
  input: z.object({ projectId: projectIdField }),
  output: ProjectDetailSchema,
  hints: READ_ONLY,
  aliases: { ...PROJECT_ALIASES, id: 'projectId', name: 'projectId' },
  async run(ctx, args) {
    const project = await getProject(ctx, args.projectId, DATA_DIR_ONLY);
    const endpoints = project.endpoints.map(
      (e) =>
        `- ${e.method} ${e.path} -> ${e.status} "${e.name}" (id ${e.id})${e.enabled ? '' : ' [disabled]'}`,
    );
    return { summary: [`Project ${projectLine(project)}`, ...endpoints].join('\n'), data: project };
  },
});

export const updateProjectTool = defineTool({
  name: 'update_project',
  title: 'Update project',
  category: 'project',
  description:
    "Change a project's name, description, port or HTTPS (tls). Give the project to change in projectId and only the fields to change; " +
    'the others keep their values.',
  input: z.object({
    projectId: projectIdField,
    ...ProjectPatchSchema.shape,
  }),
  output: ProjectDetailSchema,
  hints: UPDATE,
  aliases: { ...PROJECT_ALIASES, id: 'projectId', newName: 'name', new_name: 'name' },
  async run(ctx, { projectId, ...patch }) {
    const project = await updateProject(ctx, projectId, patch, DATA_DIR_ONLY);
    return { summary: `Updated project ${projectLine(project)}.`, data: project };
  },
});

export const deleteProjectTool = defineTool({
  name: 'delete_project',
  title: 'Delete project',
  category: 'project',
  description:
    'Delete a project, all of its endpoints and its request-log records from the data directory. This cannot be undone; ' +
    'confirm with the user first. Returns the deleted project.',
  input: z.object({ projectId: projectIdField }),
  output: ProjectSchema,
  hints: DESTRUCTIVE,
  aliases: { ...PROJECT_ALIASES, id: 'projectId', name: 'projectId' },
  async run(ctx, args) {
    const { project, requestsDeleted } = await deleteProject(ctx, args.projectId, DATA_DIR_ONLY);
    const log = requestsDeleted ? ` and its ${requestsDeleted} logged request(s)` : '';
    return { summary: `Deleted project ${projectLine(project)}${log}.`, data: project };
  },
});

export const PROJECT_TOOLS = [
  listProjectsTool,
  createProjectTool,
  getProjectTool,
  updateProjectTool,
  deleteProjectTool,
];
