/**
 * Environment use cases (Pro, SPEC 2 "Environment", 4.4 `environment`). Every one calls the Pro
 * gate first, except `activeVariables` (the template engine's source of `{{env.KEY}}`), which
 * answers {} without an active license instead of throwing. Secrets' values leave here only
 * masked, unless a caller asks for them revealed (`show --reveal`) or through activeVariables.
 */
import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { NameSchema } from '../core/model/fields.js';
import { ENV_KEY_PATTERN, type ActiveEnvironments, type Environment } from '../core/model/environment.js';
import type { StoredProject } from '../core/ports.js';
import { parseInput } from '../core/validate.js';
import type { AppContext } from './context.js';
import { requirePro } from './license.js';
import { resolveProject } from './projects.js';

/** What a secret's value is shown as. */
export const SECRET_MASK = '********';

/** An environment as shown: secrets masked unless revealed. */
export interface EnvironmentView {
  id: string;
  name: string;
  scope: 'project' | 'global';
  projectId: string | null;
  variables: Record<string, string>;
  secretKeys: string[];
  createdAt: string;
  updatedAt: string;
}

/** An environment in a project's list: whether it is the project's active one (or its active global one). */
export type EnvironmentListing = EnvironmentView & { active: boolean };

export const toEnvironmentView = (env: Environment, options: { reveal?: boolean } = {}): EnvironmentView => {
  const secret = new Set(env.secretKeys);
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(env.variables))
    variables[k] = secret.has(k) && !options.reveal ? SECRET_MASK : v;
  return {
    id: env.id,
    name: env.name,
    scope: env.projectId === null ? 'global' : 'project',
    projectId: env.projectId,
    variables,
    secretKeys: [...env.secretKeys],
    createdAt: env.createdAt,
    updatedAt: env.updatedAt,
  };
};

const gate = (ctx: AppContext) => requirePro(ctx, 'environment');

export function checkVariableKey(key: string): string {
  if (!ENV_KEY_PATTERN.test(key)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid variable key "${key}": a key starts with a letter or _ and holds only letters, digits and _`,
      { hint: 'Example: API_URL', details: { key } },
    );
  }
  return key;
}

/** The rule of every name (docs/decisions.md "Names"): 1–200 characters, no `/`, `\\` or control characters. */
function checkName(name: string | undefined): string {
  if (name === undefined || name.trim() === '') {
    throw new MockdevError('INVALID_ARGUMENT', 'An environment name is required', {
      hint: (say) => `Give one with ${say.option('name')}, e.g. dev`,
    });
  }
  return parseInput(NameSchema, name, 'name');
}

const checkAll = (values: Record<string, string> | undefined) => {
  for (const key of Object.keys(values ?? {})) checkVariableKey(key);
};

/**
 * An environment by id, or by name (exact, else case-insensitive). With `project`, only the
 * project's and the global ones, the project's own first when both have the name. NOT_FOUND
 * (exit 1) when none; a name several scopes share is INVALID_ARGUMENT naming their ids.
 */
async function resolveEnvironment(
  ctx: AppContext,
  ref: string,
  project?: StoredProject,
): Promise<Environment> {
  const wanted = ref.trim();
  if (wanted === '') throw new MockdevError('INVALID_ARGUMENT', 'An environment id or name is required');
  const byId = await ctx.environments.get(wanted);
  if (byId && (!project || byId.projectId === null || byId.projectId === project.project.id)) return byId;
  const all = await ctx.environments.list(project ? { projectIds: [project.project.id] } : {});
  let found = all.filter((e) => e.name === wanted);
  if (found.length === 0) found = all.filter((e) => e.name.toLowerCase() === wanted.toLowerCase());
  if (project && found.length > 1) {
    const own = found.filter((e) => e.projectId === project.project.id);
    if (own.length === 1) found = own;
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Environment name "${wanted}" is ambiguous: ${found
        .map((e) => `${e.id} (${e.projectId === null ? 'global' : `project ${e.projectId}`})`)
        .join(', ')}`,
      {
        hint: 'Give the id of the one you mean instead',
        details: { environment: wanted, ids: found.map((e) => e.id) },
      },
    );
  }
  throw new MockdevError(
    'NOT_FOUND',
    `Environment "${wanted}" not found${project ? ` among the environments of "${project.project.name}" and the global ones` : ''}`,
    {
      hint: (say) => `${say.action('listEnvironments', project?.project.name)} to see the environments`,
      details: { environment: wanted },
    },
  );
}

// ---------------------------------------------------------------- use cases

export interface EnvironmentListResult {
  project: { id: string; name: string };
  environments: EnvironmentListing[];
}

/** The project's environments and the global ones (secrets masked), with which are active for it. */
export async function listEnvironments(ctx: AppContext, projectRef: string): Promise<EnvironmentListResult> {
  await gate(ctx);
  const project = await resolveProject(ctx, projectRef);
  const id = project.project.id;
  const active = await ctx.environments.getActive(id);
  const envs = await ctx.environments.list({ projectIds: [id] });
  const ordered = [...envs.filter((e) => e.projectId === id), ...envs.filter((e) => e.projectId === null)];
  return {
    project: { id, name: project.project.name },
    environments: ordered.map((e) => ({
      ...toEnvironmentView(e),
      active: e.id === active.project || e.id === active.global,
    })),
  };
}

export interface CreateEnvironmentInput {
  name: string;
  /** Project id, name or folder; left out: a global environment. */
  project?: string;
  /** Plain variables. */
  variables?: Record<string, string>;
  /** Secrets with their values. */
  secrets?: Record<string, string>;
  /** Keys of `variables` to make secrets. */
  secretKeys?: string[];
}

function applyChanges(
  current: { variables: Record<string, string>; secretKeys: string[] },
  change: {
    unset?: string[];
    variables?: Record<string, string>;
    secrets?: Record<string, string>;
    secretKeys?: string[];
  },
): { variables: Record<string, string>; secretKeys: string[] } {
  checkAll(change.variables);
  checkAll(change.secrets);
  for (const key of [...(change.secretKeys ?? []), ...(change.unset ?? [])]) checkVariableKey(key);
  const variables = { ...current.variables };
  const secret = new Set(current.secretKeys);
  for (const key of change.unset ?? []) {
    if (!(key in variables))
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Cannot unset "${key}": the environment has no such variable`,
      );
    delete variables[key];
    secret.delete(key);
  }
  Object.assign(variables, change.variables);
  for (const [k, v] of Object.entries(change.secrets ?? {})) {
    variables[k] = v;
    secret.add(k);
  }
  for (const key of change.secretKeys ?? []) {
    if (!(key in variables)) {
      throw new MockdevError('INVALID_ARGUMENT', `Secret "${key}" has no value`, {
        hint: (say) =>
          `give it one with ${say.option('secrets')} (${key}=VALUE), or a value with ${say.option('variables')}`,
        details: { key },
      });
    }
    secret.add(key);
  }
  return { variables, secretKeys: Object.keys(variables).filter((k) => secret.has(k)) };
}

export async function createEnvironment(
  ctx: AppContext,
  input: CreateEnvironmentInput,
): Promise<EnvironmentView> {
  await gate(ctx);
  const name = checkName(input.name);
  const project = input.project === undefined ? undefined : await resolveProject(ctx, input.project);
  const { variables, secretKeys } = applyChanges({ variables: {}, secretKeys: [] }, input);
  const now = new Date().toISOString();
  const env = await ctx.environments.create({
    id: newId(),
    name,
    projectId: project?.project.id ?? null,
    variables,
    secretKeys,
    createdAt: now,
    updatedAt: now,
  });
  return toEnvironmentView(env);
}

/** One environment; its secrets masked unless `reveal`. */
export async function showEnvironment(
  ctx: AppContext,
  ref: string,
  options: { reveal?: boolean } = {},
): Promise<EnvironmentView> {
  await gate(ctx);
  return toEnvironmentView(await resolveEnvironment(ctx, ref), options);
}

export interface UpdateEnvironmentInput {
  name?: string;
  variables?: Record<string, string>;
  secrets?: Record<string, string>;
  secretKeys?: string[];
  /** Keys to remove (before the others are set: `--unset K --var K=v` makes a secret plain). */
  unset?: string[];
}

export async function updateEnvironment(
  ctx: AppContext,
  ref: string,
  input: UpdateEnvironmentInput,
): Promise<EnvironmentView> {
  await gate(ctx);
  const name = input.name === undefined ? undefined : checkName(input.name);
  const nothing =
    name === undefined &&
    !Object.keys(input.variables ?? {}).length &&
    !Object.keys(input.secrets ?? {}).length &&
    !input.secretKeys?.length &&
    !input.unset?.length;
  if (nothing) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: (say) =>
        `give at least one of ${(['name', 'variables', 'secrets', 'unset'] as const).map((o) => say.option(o)).join(', ')}`,
    });
  }
  const target = await resolveEnvironment(ctx, ref);
  const env = await ctx.environments.update(target.id, (current) => ({
    ...current,
    ...applyChanges(current, input),
    name: name ?? current.name,
    updatedAt: new Date().toISOString(),
  }));
  return toEnvironmentView(env);
}

export async function deleteEnvironment(ctx: AppContext, ref: string): Promise<EnvironmentView> {
  await gate(ctx);
  const target = await resolveEnvironment(ctx, ref);
  if (!(await ctx.environments.remove(target.id)))
    throw new MockdevError('NOT_FOUND', `Environment "${ref}" not found`);
  return toEnvironmentView(target);
}

export interface ActivationResult {
  project: { id: string; name: string };
  /** What is active for the project now. */
  projectEnvironment: EnvironmentView | null;
  globalEnvironment: EnvironmentView | null;
}

/**
 * Activates an environment for a project: one of its own becomes its active environment, a
 * global one its active global environment (each replaces the one before: at most one of each).
 * Without `envRef`, nothing is active for the project any more.
 */
export async function activateEnvironment(
  ctx: AppContext,
  projectRef: string,
  envRef?: string,
): Promise<ActivationResult> {
  await gate(ctx);
  const project = await resolveProject(ctx, projectRef);
  const pid = project.project.id;
  let next: ActiveEnvironments = { project: null, global: null };
  if (envRef !== undefined) {
    const env = await resolveEnvironment(ctx, envRef, project);
    if (env.projectId !== null && env.projectId !== pid) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Environment "${env.name}" belongs to another project: a project can use its own environments and the global ones`,
      );
    }
    const current = await ctx.environments.getActive(pid);
    next = env.projectId === null ? { ...current, global: env.id } : { ...current, project: env.id };
  }
  await ctx.environments.setActive(pid, next);
  return activationResult(ctx, project, next);
}

async function activationResult(
  ctx: AppContext,
  project: StoredProject,
  active: ActiveEnvironments,
): Promise<ActivationResult> {
  const view = async (id: string | null) => {
    const env = id ? await ctx.environments.get(id) : undefined;
    return env ? toEnvironmentView(env) : null;
  };
  return {
    project: { id: project.project.id, name: project.project.name },
    projectEnvironment: await view(active.project),
    globalEnvironment: await view(active.global),
  };
}

/**
 * Makes one environment no longer active for a project, the other active one (project or
 * global) staying as it is; an environment that is not active for the project changes nothing.
 */
export async function deactivateEnvironment(
  ctx: AppContext,
  projectRef: string,
  envRef: string,
): Promise<ActivationResult> {
  await gate(ctx);
  const project = await resolveProject(ctx, projectRef);
  const env = await resolveEnvironment(ctx, envRef, project);
  const current = await ctx.environments.getActive(project.project.id);
  const next: ActiveEnvironments = {
    project: current.project === env.id ? null : current.project,
    global: current.global === env.id ? null : current.global,
  };
  if (next.project !== current.project || next.global !== current.global)
    await ctx.environments.setActive(project.project.id, next);
  return activationResult(ctx, project, next);
}

/** A copy (secrets included) in the same scope, named `name` or "<name> copy" (then "copy 2", …). */
export async function duplicateEnvironment(
  ctx: AppContext,
  ref: string,
  options: { name?: string } = {},
): Promise<EnvironmentView> {
  await gate(ctx);
  const source = await resolveEnvironment(ctx, ref);
  let name: string;
  if (options.name !== undefined) name = checkName(options.name);
  else {
    const taken = new Set(
      (await ctx.environments.list())
        .filter((e) => e.projectId === source.projectId)
        .map((e) => e.name.toLowerCase()),
    );
    name = `${source.name} copy`;
    for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${source.name} copy ${i}`;
  }
  const now = new Date().toISOString();
  const copy = await ctx.environments.create({
    ...source,
    id: newId(),
    name,
    variables: { ...source.variables },
    secretKeys: [...source.secretKeys],
    createdAt: now,
    updatedAt: now,
  });
  return toEnvironmentView(copy);
}

/**
 * The variables `{{env.KEY}}` reads for a project, secrets' real values included: the active
 * global environment's, overlaid by the project's active environment's (the project's win).
 * {} when nothing is active, and {} without an active Pro license (environments are Pro; a
 * template then renders `env.*` as empty rather than failing). Never throws for the license;
 * a broken environment file still throws (CORRUPT_FILE), naming the file.
 */
export async function activeVariables(
  ctx: Pick<AppContext, 'license' | 'env' | 'environments'>,
  projectId: string,
): Promise<Record<string, string>> {
  return (await activeEnvironment(ctx, projectId)).variables;
}

/**
 * The same variables, and the values of those that are secrets: what renders a template, and
 * what the request log must mask in what it stores of a rendered response.
 */
export async function activeEnvironment(
  ctx: Pick<AppContext, 'license' | 'env' | 'environments'>,
  projectId: string,
): Promise<{ variables: Record<string, string>; secrets: string[] }> {
  try {
    await requirePro(ctx, 'environment');
  } catch (e) {
    if (e instanceof MockdevError && e.code === 'LICENSE_REQUIRED') return { variables: {}, secrets: [] };
    throw e;
  }
  const active = await ctx.environments.getActive(projectId);
  const [global, own] = await Promise.all([
    active.global ? ctx.environments.get(active.global) : undefined,
    active.project ? ctx.environments.get(active.project) : undefined,
  ]);
  const variables = { ...(global?.variables ?? {}), ...(own?.variables ?? {}) };
  const secretKeys = new Set([...(global?.secretKeys ?? []), ...(own?.secretKeys ?? [])]);
  const secrets = [...secretKeys].map((k) => variables[k]).filter((v): v is string => !!v);
  return { variables, secrets };
}
