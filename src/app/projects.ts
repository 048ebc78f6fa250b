import { basename } from 'node:path';
import { MockdevError } from '../core/errors.js';
import { EXAMPLE_ENDPOINTS } from '../core/examples.js';
import { newId } from '../core/ids.js';
import { DEFAULT_PROJECT_PORT, NameSchema } from '../core/model/fields.js';
import {
  PROJECT_SCHEMA_VERSION,
  ProjectCreateSchema,
  ProjectPatchSchema,
  type Project,
  type ProjectCreate,
  type ProjectDetail,
  type ProjectFile,
  type ProjectPatch,
} from '../core/model/project.js';
import type { StoredProject } from '../core/ports.js';
import { parseInput } from '../core/validate.js';
import type { AppContext } from './context.js';
import { buildEndpoints } from './endpoints.js';

export const toProject = (stored: StoredProject): Project => ({
  id: stored.project.id,
  name: stored.project.name,
  description: stored.project.description,
  ...(stored.project.apiVersion !== undefined ? { apiVersion: stored.project.apiVersion } : {}),
  port: stored.project.port,
  createdAt: stored.project.createdAt,
  updatedAt: stored.project.updatedAt,
  endpointCount: stored.endpoints.length,
});

export const toProjectDetail = (stored: StoredProject): ProjectDetail => ({
  ...toProject(stored),
  endpoints: stored.endpoints,
});

const looksLikePath = (ref: string): boolean =>
  ref === '.' || ref === '..' || ref.includes('/') || ref.includes('\\') || ref.startsWith('~');

export interface ResolveOptions {
  /** Only projects inside the data directory (the MCP server's rule). */
  dataDirOnly?: boolean;
}

/**
 * Finds a project by id, by name, or by a folder holding project.json (DECISIONS "Where state
 * lives"). Names match exactly first, then case-insensitively.
 */
export async function resolveProject(
  ctx: AppContext,
  ref: string,
  options: ResolveOptions = {},
): Promise<StoredProject> {
  const wanted = ref.trim();
  if (wanted === '') throw new MockdevError('INVALID_ARGUMENT', 'A project id, name or folder is required');
  const inFolder = async () => (options.dataDirOnly ? undefined : ctx.projects.openFolder(wanted, ctx.cwd));
  if (looksLikePath(wanted)) {
    const found = await inFolder();
    if (found) return found;
  } else {
    const found = await ctx.projects.find(wanted);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `"${wanted}" names ${found.length} projects (ids ${found.map((p) => p.project.id).join(', ')})`,
        { hint: 'Give the project id instead', details: { project: wanted } },
      );
    }
    const folder = await inFolder();
    if (folder) return folder;
  }
  const { errors } = await ctx.projects.list();
  const unreadable = errors.length
    ? ` (${errors.length} project${errors.length === 1 ? '' : 's'} in the data directory could not be read: ${errors[0]!.message})`
    : '';
  throw new MockdevError('PROJECT_NOT_FOUND', `Project "${wanted}" not found${unreadable}`, {
    hint: (say) =>
      options.dataDirOnly
        ? `${say.action('listProjects')} to see the project ids and names`
        : `${say.action('listProjects')} to see projects, or give a folder that holds project.json`,
    details: { project: wanted },
  });
}

export async function listProjects(ctx: AppContext): Promise<Project[]> {
  const { projects, errors } = await ctx.projects.list();
  if (errors.length && projects.length === 0) throw errors[0]!;
  return projects.map(toProject);
}

export async function getProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<ProjectDetail> {
  return toProjectDetail(await resolveProject(ctx, ref, options));
}

function newProjectFile(name: string, port: number, description: string, apiVersion?: string): ProjectFile {
  const now = new Date().toISOString();
  return {
    schemaVersion: PROJECT_SCHEMA_VERSION,
    id: newId(),
    name,
    description,
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    port,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Creates a project in the data directory, with endpoints when given: nothing is written unless
 * everything is valid (imports rely on it: a failure leaves no half-made project).
 */
export async function createProject(
  ctx: AppContext,
  input: ProjectCreate,
  endpoints: Parameters<typeof buildEndpoints>[0] = [],
  /** What an import knows of the API (its version, checked by the import). */
  api: { version?: string } = {},
): Promise<ProjectDetail> {
  const parsed = parseInput(ProjectCreateSchema, input, 'project');
  const built = buildEndpoints(endpoints);
  const port = parsed.port ?? (await ctx.settings.read()).defaultPort;
  const stored = await ctx.projects.create(
    newProjectFile(parsed.name, port, parsed.description, api.version),
    built,
  );
  return toProjectDetail(stored);
}

export interface InitInput {
  path?: string;
  name?: string;
  port?: number;
  withExamples?: boolean;
  force?: boolean;
}

/** `init [PATH]`: writes project.json and endpoints.json into a folder (default: cwd). */
export async function initProject(
  ctx: AppContext,
  input: InitInput,
): Promise<ProjectDetail & { dir: string }> {
  const path = input.path ?? '.';
  const folderName = basename(ctx.files.resolve(path));
  const parsed = parseInput(
    ProjectCreateSchema,
    {
      name: input.name ?? (NameSchema.safeParse(folderName).success ? folderName : 'mockdev-project'),
      port: input.port ?? DEFAULT_PROJECT_PORT,
    },
    'project',
  );
  const endpoints = input.withExamples ? buildEndpoints(EXAMPLE_ENDPOINTS) : [];
  const stored = await ctx.projects.create(
    newProjectFile(parsed.name, parsed.port ?? DEFAULT_PROJECT_PORT, parsed.description),
    endpoints,
    { folder: { path, cwd: ctx.cwd, overwrite: input.force === true } },
  );
  return { ...toProjectDetail(stored), dir: stored.location };
}

/** An update with no field to change is a mistake, not a no-op. */
export function assertSomethingToChange(patch: Record<string, unknown>, fields: string[]): void {
  if (Object.values(patch).every((v) => v === undefined)) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: `Give at least one of ${fields.slice(0, -1).join(', ')} or ${fields[fields.length - 1]}`,
    });
  }
}

export async function updateProject(
  ctx: AppContext,
  ref: string,
  patch: ProjectPatch,
  options?: ResolveOptions,
): Promise<ProjectDetail> {
  const parsed = parseInput(ProjectPatchSchema, patch, 'project');
  assertSomethingToChange(parsed, ['name', 'description', 'port']);
  const target = await resolveProject(ctx, ref, options);
  return ctx.projects.update(target.key, (current) => {
    const project: ProjectFile = { ...current.project, ...parsed, updatedAt: new Date().toISOString() };
    return { project, result: toProjectDetail({ ...current, project }) };
  });
}

/** Deletes a project. */
export async function deleteProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<Project> {
  const target = await resolveProject(ctx, ref, options);
  await ctx.projects.remove(target.key);
  return toProject(target);
}
