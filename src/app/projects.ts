import { setTimeout as sleep } from 'node:timers/promises';
import { basename } from 'node:path';
import { MockdevError } from '../core/errors.js';
import { EXAMPLE_ENDPOINTS } from '../core/examples.js';
import { newId } from '../core/ids.js';
import { DEFAULT_MCP_PORT, DEFAULT_UI_PORT, NameSchema, PORT_MAX } from '../core/model/fields.js';
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
import type { ProjectListing, UnreadableProjectListing } from '../core/model/project-listing.js';
import type { StoredProject } from '../core/ports.js';
import { parseInput } from '../core/validate.js';
import { withReach, type AppContext, type ProjectReach } from './context.js';
import { buildEndpoints } from './endpoint-build.js';

export const toProject = (stored: StoredProject): Project => ({
  id: stored.project.id,
  name: stored.project.name,
  description: stored.project.description,
  ...(stored.project.apiVersion !== undefined ? { apiVersion: stored.project.apiVersion } : {}),
  port: stored.project.port,
  ...(stored.project.tls ? { tls: true } : {}),
  createdAt: stored.project.createdAt,
  updatedAt: stored.project.updatedAt,
  endpointCount: stored.endpoints.length,
});

export const toProjectDetail = (stored: StoredProject): ProjectDetail => ({
  ...toProject(stored),
  endpoints: stored.endpoints,
});

/** How a use case narrows its caller's reach (the MCP tools: the data directory only). */
export type ResolveOptions = ProjectReach;

/** For commands whose project may be left out: named in the error when there is none here either. */
export interface OptionalProjectOptions extends ResolveOptions {
  command?: string;
}

/** The reach of one lookup: the context's, narrowed by the call's options. */
export function reachOf(ctx: AppContext, options: ResolveOptions = {}): Required<ProjectReach> {
  const reach = withReach(ctx, options).reach!;
  return { dataDirOnly: reach.dataDirOnly === true, lookup: reach.lookup ?? 'any' };
}

const looksLikePath = (ref: string): boolean =>
  ref === '.' || ref === '..' || ref.includes('/') || ref.includes('\\') || ref.startsWith('~');

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const whereIs = (p: StoredProject): string => (p.managed ? 'in the data directory' : `in ${p.location}`);

/** Several projects answer to one id or name: say which, and how to name one of them. */
function ambiguous(wanted: string, found: StoredProject[], folders: boolean): MockdevError {
  const sameId = found.every((p) => p.project.id === found[0]!.project.id);
  const which = found.map((p) => (sameId ? whereIs(p) : `${p.project.id} ${whereIs(p)}`)).join(', ');
  const inFolders = folders && found.some((p) => !p.managed);
  return new MockdevError(
    'INVALID_ARGUMENT',
    sameId
      ? `Project id "${wanted}" is ambiguous: ${found.length} projects have it (${which}; a copied project folder keeps its id)`
      : `Project name "${wanted}" is ambiguous: ${found.length} projects have it (${which})`,
    {
      hint: sameId
        ? folders
          ? 'Give the folder of the one you mean instead'
          : 'Name the one you mean by its folder with the mockdev command line, or give one of them a new id'
        : inFolders
          ? 'Give the id of the one you mean instead, or its folder'
          : 'Give the id of the one you mean instead',
      details: { project: wanted, ids: found.map((p) => p.project.id) },
    },
  );
}

/**
 * Finds a project by id, by name, or (unless the caller's reach is "id or name only") by a folder
 * holding project.json (DECISIONS "Where state lives", "Trust and data"). Ids and names reach the
 * projects of the data directory and the project folders it knows (docs/decisions.md); names
 * match exactly first, then case-insensitively. A name (or, for copied folders, an id) several
 * projects answer to is an error naming them. With "id or name only" (the admin API, MCP) the
 * reference never reaches the file system as a path, and no folder is registered.
 */
export async function resolveProject(
  ctx: AppContext,
  ref: string,
  options: ResolveOptions = {},
): Promise<StoredProject> {
  const reach = reachOf(ctx, options);
  const byFolder = reach.lookup === 'any' && !reach.dataDirOnly;
  const wanted = ref.trim();
  const what = byFolder ? 'A project id, name or folder' : 'A project id or name';
  if (wanted === '') throw new MockdevError('INVALID_ARGUMENT', `${what} is required`);
  if (CONTROL_CHARS.test(wanted))
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${what} never contains control characters (NUL, line breaks…)`,
      {
        hint: (say) => `${say.action('listProjects')} to see the project ids and names`,
        details: { project: wanted.replace(CONTROL_CHARS, '?') },
      },
    );
  const inFolder = async () => (byFolder ? ctx.projects.openFolder(wanted, ctx.cwd) : undefined);
  if (byFolder && looksLikePath(wanted)) {
    const found = await inFolder();
    if (found) return found;
  } else {
    const found = await ctx.projects.find(wanted, { dataDirOnly: reach.dataDirOnly });
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw ambiguous(wanted, found, byFolder);
    const folder = await inFolder();
    if (folder) return folder;
  }
  const { unreadable } = await ctx.projects.list({ dataDirOnly: reach.dataDirOnly });
  const broken = unreadable.length
    ? ` (${unreadable.length} project${unreadable.length === 1 ? '' : 's'} could not be read: ${unreadable[0]!.error.message})`
    : '';
  const notAName =
    !byFolder && looksLikePath(wanted) ? ': give a project id or name, not a folder or a file' : '';
  throw new MockdevError('PROJECT_NOT_FOUND', `Project "${wanted}" not found${notAName}${broken}`, {
    hint: (say) =>
      byFolder
        ? `${say.action('listProjects')} to see projects, or give a folder that holds project.json`
        : `${say.action('listProjects')} to see the project ids and names`,
    details: { project: wanted },
  });
}

export type { ProjectListing };

/**
 * The projects of the data directory and the project folders it knows (made by `init`, served or
 * opened by their folder), oldest first; with `dataDirOnly`, those inside the data directory. A
 * project whose files cannot be read is listed after them as unreadable, with the file and the
 * problem (never left out).
 */
export async function listProjects(ctx: AppContext, options: ResolveOptions = {}): Promise<ProjectListing[]> {
  const { projects, unreadable } = await ctx.projects.list({
    dataDirOnly: reachOf(ctx, options).dataDirOnly,
  });
  return [
    ...projects.map((p) => withDir(p, toProject(p))),
    ...unreadable.map((u): UnreadableProjectListing => ({
      ...(u.id !== undefined ? { id: u.id } : {}),
      ...(u.name !== undefined ? { name: u.name } : {}),
      ...(u.managed ? {} : { dir: u.location }),
      unreadable: { file: u.file, code: u.error.code, problem: u.error.fullMessage },
    })),
  ];
}

/** `dir` for a folder project (one outside the data directory), as lists and `show` print it. */
const withDir = <T extends Project>(stored: StoredProject, shape: T): T & { dir?: string } =>
  stored.managed ? shape : { ...shape, dir: stored.location };

/**
 * The project a command names, or with none named the project in the working folder (the
 * read-only listing commands: docs/decisions.md). `command` names the command in the error
 * when there is neither.
 */
export async function resolveProjectOrCwd(
  ctx: AppContext,
  ref: string | undefined,
  options: OptionalProjectOptions = {},
): Promise<StoredProject> {
  if (ref !== undefined) return resolveProject(ctx, ref, options);
  const reach = reachOf(ctx, options);
  if (reach.lookup !== 'any' || reach.dataDirOnly)
    throw new MockdevError('INVALID_ARGUMENT', 'A project id or name is required', {
      hint: (say) => `${say.action('listProjects')} to see the project ids and names`,
    });
  const here = await ctx.projects.openFolder('.', ctx.cwd);
  if (here) return here;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `${options.command ? `"${options.command}"` : 'This'} needs a project: none was given, and ${ctx.cwd} holds no project.json`,
    { hint: 'Give a project id, name or folder, or run it in a folder that holds project.json' },
  );
}

export async function getProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<ProjectDetail & { dir?: string }> {
  const stored = await resolveProject(ctx, ref, options);
  return withDir(stored, toProjectDetail(stored));
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
  const port = parsed.port ?? (await nextFreeProjectPort(ctx));
  const stored = await ctx.projects.create(
    newProjectFile(parsed.name, port, parsed.description, api.version),
    built,
  );
  return toProjectDetail(stored);
}

/**
 * The port a new project gets when none is given (`project create`, `import`, MCP, `init`): the
 * lowest from the defaultPort setting up that no project the store knows uses (nor the MCP
 * server's and the web UI's ports), so new projects can be served side by side.
 */
export async function nextFreeProjectPort(ctx: AppContext): Promise<number> {
  const settings = await ctx.settings.read();
  const from = settings.defaultPort;
  const taken = new Set((await ctx.projects.summaries()).map((p) => p.port));
  for (const port of [DEFAULT_MCP_PORT, DEFAULT_UI_PORT, settings.mcpPort, settings.uiPort]) taken.add(port);
  for (let port = from; port <= PORT_MAX; port++) if (!taken.has(port)) return port;
  return from;
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
      port: input.port,
    },
    'project',
  );
  const endpoints = input.withExamples ? buildEndpoints(EXAMPLE_ENDPOINTS) : [];
  const port = parsed.port ?? (input.force ? await portOfFolder(ctx, path) : undefined);
  const stored = await ctx.projects.create(
    newProjectFile(parsed.name, port ?? (await nextFreeProjectPort(ctx)), parsed.description),
    endpoints,
    { folder: { path, cwd: ctx.cwd, overwrite: input.force === true } },
  );
  return { ...toProjectDetail(stored), dir: stored.location };
}

/** The port of the project a folder holds (`init --force` keeps it); undefined when none can be read. */
async function portOfFolder(ctx: AppContext, path: string): Promise<number | undefined> {
  try {
    return (await ctx.projects.openFolder(path, ctx.cwd))?.project.port;
  } catch {
    return undefined; // a broken project.json: --force overwrites it
  }
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
  assertSomethingToChange(parsed, ['name', 'description', 'port', 'tls']);
  const target = await resolveProject(ctx, ref, options);
  return ctx.projects.update(target.key, (current) => {
    const project: ProjectFile = { ...current.project, ...parsed, updatedAt: new Date().toISOString() };
    // HTTP is the default: project.json says only `tls: true`.
    if (project.tls === false) delete project.tls;
    return { project, result: toProjectDetail({ ...current, project }) };
  });
}

/** Deletes a project. */
/** How long a delete waits for the project's running servers to notice and stop. */
const SERVERS_STOP_MS = 10_000;

/**
 * Deletes a project and its request-log records (its recordings, flow runs, environments and
 * resource state too). The project goes first: if clearing the log then fails, what is left is records of a
 * deleted project, never a project without its log.
 * A server serving it stops when it sees the project gone (runtime/endpoint-source.ts); the
 * log is cleared once it has, so the records it wrote until then go too.
 */
export async function deleteProject(
  ctx: AppContext,
  ref: string,
  options?: ResolveOptions,
): Promise<{ project: Project; requestsDeleted: number }> {
  const target = await resolveProject(ctx, ref, options);
  await ctx.projects.remove(target.key);
  const deadline = Date.now() + SERVERS_STOP_MS;
  const serving = async () => (await ctx.servers.list()).some((s) => s.projectId === target.project.id);
  while (Date.now() < deadline && (await serving())) await sleep(25);
  const requestsDeleted = await ctx.requests.clear(target.project.id);
  // Its recordings go with it (only a project that had proxy endpoints can have any).
  if (target.endpoints.some((e) => e.kind === 'proxy' || e.proxy))
    await ctx.recordings.clearProject(target.project.id);
  // And its flows' runs.
  await ctx.flowRuns.clearProject(target.project.id);
  // And its environments (no license needed to clean up after a project).
  await ctx.environments.removeProject(target.project.id);
  await ctx.uiState.removeProject(target.project.id);
  // And its resources' state (issue 26).
  await ctx.resourceStates.removeProject(target.project.id);
  return { project: toProject(target), requestsDeleted };
}
