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
import { parseInput } from '../core/validate.js';
import { ProjectStore, type ProjectState } from '../store/project-store.js';
import type { AppContext } from './context.js';
import { buildEndpoints } from './endpoints.js';

export const toProject = (state: ProjectState): Project => ({
  id: state.project.id,
  name: state.project.name,
  description: state.project.description,
  port: state.project.port,
  createdAt: state.project.createdAt,
  updatedAt: state.project.updatedAt,
  endpointCount: state.endpoints.length,
});

export const toProjectDetail = (state: ProjectState): ProjectDetail => ({
  ...toProject(state),
  endpoints: state.endpoints,
});

const looksLikePath = (ref: string): boolean =>
  ref === '.' || ref === '..' || ref.includes('/') || ref.includes('\\') || ref.startsWith('~');

export interface ResolveOptions {
  /** Only projects inside the data directory (the MCP server's rule). */
  dataDirOnly?: boolean;
}

/**
 * Finds a project by id, by name, or by a folder holding project.json (DECISIONS "Where state
 * lives"). Names match exactly first, then case-insensitively when that is unambiguous.
 */
export async function resolveProject(
  ctx: AppContext,
  ref: string,
  options: ResolveOptions = {},
): Promise<ProjectState> {
  const wanted = ref.trim();
  if (wanted === '') throw new MockdevError('INVALID_ARGUMENT', 'A project id, name or folder is required');
  const byPath = async (): Promise<ProjectState | undefined> => {
    if (options.dataDirOnly) return undefined;
    const dir = ProjectStore.folder(wanted, ctx.cwd);
    return (await ctx.projects.exists(dir)) ? ctx.projects.read(dir) : undefined;
  };
  if (looksLikePath(wanted)) {
    const found = await byPath();
    if (found) return found;
  } else {
    const { states } = await ctx.projects.list();
    const byId = states.find((s) => s.project.id === wanted);
    if (byId) return byId;
    const exact = states.filter((s) => s.project.name === wanted);
    if (exact.length === 1) return exact[0]!;
    const loose = states.filter((s) => s.project.name.toLowerCase() === wanted.toLowerCase());
    if (loose.length === 1) return loose[0]!;
    const found = await byPath();
    if (found) return found;
  }
  throw new MockdevError('PROJECT_NOT_FOUND', `Project "${wanted}" not found`, {
    hint: options.dataDirOnly
      ? 'Use list_projects to see the project ids and names'
      : 'Run "mockdev project list" to see projects, or pass a folder that holds project.json',
    details: { project: wanted },
  });
}

export async function listProjects(ctx: AppContext): Promise<Project[]> {
  const { states, errors } = await ctx.projects.list();
  if (errors.length && states.length === 0) throw errors[0]!;
  return states.map(toProject);
}

export async function getProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<ProjectDetail> {
  return toProjectDetail(await resolveProject(ctx, ref, options));
}

async function assertNameFree(ctx: AppContext, name: string, exceptId?: string): Promise<void> {
  const { states } = await ctx.projects.list();
  const clash = states.find(
    (s) => s.project.id !== exceptId && s.project.name.toLowerCase() === name.toLowerCase(),
  );
  if (clash) {
    throw new MockdevError(
      'CONFLICT',
      `A project named "${clash.project.name}" already exists (id ${clash.project.id})`,
      {
        hint: 'Choose another name, or update the existing project',
        details: { existingId: clash.project.id },
      },
    );
  }
}

function newProjectFile(name: string, port: number, description: string): ProjectFile {
  const now = new Date().toISOString();
  return {
    schemaVersion: PROJECT_SCHEMA_VERSION,
    id: newId(),
    name,
    description,
    port,
    createdAt: now,
    updatedAt: now,
  };
}

/** Creates a project in the data directory. */
export async function createProject(ctx: AppContext, input: ProjectCreate): Promise<ProjectDetail> {
  const parsed = parseInput(ProjectCreateSchema, input, 'project');
  const port = parsed.port ?? (await ctx.settings.read()).defaultPort;
  return ctx.projects.withDataDirLock(async () => {
    await assertNameFree(ctx, parsed.name);
    const project = newProjectFile(parsed.name, port, parsed.description);
    const state: ProjectState = { dir: ctx.projects.dirFor(project.id), project, endpoints: [] };
    await ctx.projects.create(state);
    return toProjectDetail(state);
  });
}

/**
 * Creates a project in the data directory with endpoints in one step: nothing is written
 * unless everything is valid (imports use this so that a failure leaves no half-made project).
 */
export async function createProjectWithEndpoints(
  ctx: AppContext,
  input: ProjectCreate,
  endpoints: Parameters<typeof buildEndpoints>[0],
): Promise<ProjectDetail> {
  const parsed = parseInput(ProjectCreateSchema, input, 'project');
  const built = buildEndpoints(endpoints);
  const port = parsed.port ?? (await ctx.settings.read()).defaultPort;
  return ctx.projects.withDataDirLock(async () => {
    await assertNameFree(ctx, parsed.name);
    const project = newProjectFile(parsed.name, port, parsed.description);
    const state: ProjectState = { dir: ctx.projects.dirFor(project.id), project, endpoints: built };
    await ctx.projects.create(state);
    return toProjectDetail(state);
  });
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
  const dir = ProjectStore.folder(input.path ?? '.', ctx.cwd);
  const fallbackName = NameSchema.safeParse(basename(dir)).success ? basename(dir) : 'mockdev-project';
  const parsed = parseInput(
    ProjectCreateSchema,
    { name: input.name ?? fallbackName, port: input.port ?? DEFAULT_PROJECT_PORT },
    'project',
  );
  const endpoints = input.withExamples ? buildEndpoints(EXAMPLE_ENDPOINTS) : [];
  const project = newProjectFile(parsed.name, parsed.port ?? DEFAULT_PROJECT_PORT, parsed.description);
  const state: ProjectState = { dir, project, endpoints };
  await ctx.projects.create(state, { overwrite: input.force === true });
  return { ...toProjectDetail(state), dir };
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
  const apply = () =>
    ctx.projects.update(target.dir, (state) => {
      const project: ProjectFile = { ...state.project, ...parsed, updatedAt: new Date().toISOString() };
      const next = { ...state, project };
      return { state: next, result: toProjectDetail(next) };
    });
  if (
    parsed.name !== undefined &&
    parsed.name !== target.project.name &&
    ctx.projects.isInDataDir(target.dir)
  ) {
    return ctx.projects.withDataDirLock(async () => {
      await assertNameFree(ctx, parsed.name!, target.project.id);
      return apply();
    });
  }
  return apply();
}

export async function deleteProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<Project> {
  const target = await resolveProject(ctx, ref, options);
  await ctx.projects.remove(target.dir);
  return toProject(target);
}
