import {
  activateEnvironment,
  createEnvironment,
  deleteEnvironment,
  duplicateEnvironment,
  listEnvironments,
  showEnvironment,
  updateEnvironment,
  type EnvironmentView,
} from '../../app/environments.js';
import type { EnvironmentOptions } from '../commands/environment.js';
import { confirmDestructive } from '../confirm.js';
import { note, printFields, printJson, printLine, printTable } from '../output.js';
import { parseKeys, parsePairs } from '../pairs.js';
import { cliContext } from './context.js';

const scopeOf = (e: EnvironmentView) => (e.projectId === null ? 'global' : `project ${e.projectId}`);
const counts = (e: EnvironmentView) => {
  const n = Object.keys(e.variables).length;
  const s = e.secretKeys.length;
  return `${n} variable${n === 1 ? '' : 's'}${s ? ` (${s} secret${s === 1 ? '' : 's'})` : ''}`;
};

function variableOptions(opts: EnvironmentOptions) {
  const variables = parsePairs(opts.var, '--var').pairs;
  const secret = parsePairs(opts.secret, '--secret', true);
  return { variables, secrets: secret.pairs, secretKeys: secret.keys };
}

export async function list(project: string, opts: EnvironmentOptions): Promise<void> {
  const result = await listEnvironments(cliContext(), project);
  // A list command's --json is an array (DECISIONS "Shapes"): each environment says its scope and project.
  if (opts.json) return printJson(result.environments);
  printTable(
    result.environments,
    [
      { header: 'ACTIVE', value: (e) => (e.active ? '*' : '') },
      { header: 'NAME', value: (e) => e.name },
      { header: 'ID', value: (e) => e.id },
      { header: 'SCOPE', value: (e) => e.scope },
      { header: 'VARIABLES', value: (e) => Object.keys(e.variables).length, align: 'right' },
      { header: 'SECRETS', value: (e) => e.secretKeys.length, align: 'right' },
    ],
    `No environments for "${result.project.name}" and no global ones. Create one with: mockdev environment create -n dev -p "${result.project.name}" --var KEY=VALUE`,
  );
}

export async function create(opts: EnvironmentOptions): Promise<void> {
  const env = await createEnvironment(cliContext(), {
    name: opts.name ?? '',
    project: opts.project,
    ...variableOptions(opts),
  });
  if (opts.json) return printJson(env);
  printLine(`Created environment "${env.name}" (id ${env.id}, ${scopeOf(env)}) with ${counts(env)}.`);
}

export async function show(id: string, opts: EnvironmentOptions): Promise<void> {
  const env = await showEnvironment(cliContext(), id, { reveal: opts.reveal });
  if (opts.json) return printJson(env);
  const secret = new Set(env.secretKeys);
  printFields([
    ['Name', env.name],
    ['ID', env.id],
    ['Scope', scopeOf(env)],
    ['Created', env.createdAt],
    ['Updated', env.updatedAt],
  ]);
  const keys = Object.keys(env.variables);
  printLine(keys.length ? 'Variables:' : 'Variables: none');
  for (const key of keys) printLine(`  ${key}=${env.variables[key]}${secret.has(key) ? '  (secret)' : ''}`);
}

export async function update(id: string, opts: EnvironmentOptions): Promise<void> {
  const env = await updateEnvironment(cliContext(), id, {
    name: opts.name,
    unset: parseKeys(opts.unset),
    ...variableOptions(opts),
  });
  if (opts.json) return printJson(env);
  printLine(`Updated environment "${env.name}" (id ${env.id}): ${counts(env)}.`);
}

export async function remove(id: string, opts: EnvironmentOptions): Promise<void> {
  if (!(await confirmDestructive(`Delete environment "${id}"?`, opts.force))) {
    note('Nothing deleted.');
    return;
  }
  const env = await deleteEnvironment(cliContext(), id);
  printLine(`Deleted environment "${env.name}" (id ${env.id}).`);
}

export async function activate(project: string, env: string | undefined): Promise<void> {
  const result = await activateEnvironment(cliContext(), project, env);
  const { projectEnvironment: own, globalEnvironment: global } = result;
  if (!own && !global) return printLine(`No environment is active for "${result.project.name}" now.`);
  const parts = [
    own ? `"${own.name}" (${own.id}, the project's)` : undefined,
    global ? `"${global.name}" (${global.id}, global)` : undefined,
  ].filter(Boolean);
  printLine(`Active for "${result.project.name}": ${parts.join(' over ')}.`);
}

export async function duplicate(id: string, opts: EnvironmentOptions): Promise<void> {
  const env = await duplicateEnvironment(cliContext(), id, { name: opts.name });
  if (opts.json) return printJson(env);
  printLine(`Duplicated as "${env.name}" (id ${env.id}, ${scopeOf(env)}) with ${counts(env)}.`);
}
