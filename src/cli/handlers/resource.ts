import {
  addResource,
  findResourceByRef,
  getResource,
  listResources,
  removeResource,
  replaceResourceData,
  resetResource,
  resourceData,
  updateResource,
  type ResourceView,
} from '../../app/resources.js';
import { resolveProject } from '../../app/projects.js';
import { MockdevError } from '../../core/errors.js';
import type { ResourceItem, ResourcePatch } from '../../core/model/resource.js';
import { jsonSyntaxProblem } from '../../core/validate.js';
import type { ResourceOptions } from '../commands/resource.js';
import { confirmDestructive } from '../confirm.js';
import { note, printFields, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';

const itemsText = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;

/**
 * Items from a JSON file (`--seed`, `--set`), read through the context's files (a missing or
 * unreadable one names itself): JSON that does not parse says where, anything but an array of
 * objects says which item is not one. Ids are checked by the use case.
 */
async function readItems(file: string, flag: string): Promise<ResourceItem[]> {
  const text = (await cliContext().files.read(file)).toString('utf8');
  const fail = (problem: string) =>
    new MockdevError('INVALID_ARGUMENT', `Invalid ${flag} "${file}": ${problem}`, {
      hint: 'Give a JSON array of objects, e.g. [{"id": 1, "name": "Ada"}]',
      details: { field: flag.replace(/^--/, '') },
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw fail(`not JSON (${jsonSyntaxProblem(e)})`);
  }
  if (!Array.isArray(value)) throw fail('must be a JSON array of objects');
  const bad = value.findIndex((v) => v === null || typeof v !== 'object' || Array.isArray(v));
  if (bad !== -1) throw fail(`item ${bad} is not a JSON object`);
  return value as ResourceItem[];
}

function printResource(r: ResourceView): void {
  printFields([
    ['id', r.id],
    ['name', r.name],
    ['path', r.path],
    ['item path', `${r.path.replace(/\/+$/, '')}/{${r.idField}}`],
    ['id field', r.idField],
    ['seed', itemsText(r.seed.length)],
    ['items now', r.itemCount],
    ['revision', r.revision],
  ]);
}

/** The items as a table of their top-level fields (the first eight met). */
function printItems(items: ResourceItem[], empty: string): void {
  const fields: string[] = [];
  for (const item of items)
    for (const key of Object.keys(item)) if (fields.length < 8 && !fields.includes(key)) fields.push(key);
  const cell = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  printTable(
    items,
    fields.map((f) => ({ header: f.toUpperCase(), value: (item: ResourceItem) => cell(item[f]), max: 40 })),
    empty,
  );
}

export async function list(project: string, opts: ResourceOptions): Promise<void> {
  const { project: p, resources } = await listResources(cliContext(), project);
  if (opts.json) return printJson(resources);
  printTable(
    resources,
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'NAME', value: (r) => r.name },
      { header: 'PATH', value: (r) => r.path },
      { header: 'ID FIELD', value: (r) => r.idField },
      { header: 'ITEMS', value: (r) => r.itemCount, align: 'right' },
    ],
    `Project "${p.name}" has no resources. Add one with: mockdev resource add ${JSON.stringify(p.name)} /api/users`,
  );
}

export async function show(project: string, ref: string, opts: ResourceOptions): Promise<void> {
  const r = await getResource(cliContext(), project, ref);
  if (opts.json) return printJson(r);
  printResource(r);
}

export async function add(project: string, path: string, opts: ResourceOptions): Promise<void> {
  const seed = opts.seed === undefined ? undefined : await readItems(opts.seed, '--seed');
  const r = await addResource(cliContext(), project, {
    path,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.idField !== undefined ? { idField: opts.idField } : {}),
    ...(seed ? { seed } : {}),
  });
  if (opts.json) return printJson(r);
  printLine(`Added resource "${r.name}" at ${r.path} (id ${r.id}) with ${itemsText(r.itemCount)}`);
}

export async function update(project: string, ref: string, opts: ResourceOptions): Promise<void> {
  const patch: ResourcePatch = {
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    ...(opts.idField !== undefined ? { idField: opts.idField } : {}),
    ...(opts.seed !== undefined ? { seed: await readItems(opts.seed, '--seed') } : {}),
  };
  const r = await updateResource(cliContext(), project, ref, patch);
  if (opts.json) return printJson(r);
  printLine(`Updated resource "${r.name}" at ${r.path} (id ${r.id}), ${itemsText(r.itemCount)}`);
}

export async function remove(project: string, ref: string, opts: ResourceOptions): Promise<void> {
  const ctx = cliContext();
  const state = await resolveProject(ctx, project);
  const target = findResourceByRef(state, ref);
  const ok = await confirmDestructive(
    `Remove resource "${target.name}" (${target.path}) and its data from project "${state.project.name}"?`,
    opts.force,
  );
  if (!ok) return note('Cancelled; nothing was removed.');
  const r = await removeResource(ctx, state.location, target.id);
  printLine(`Removed resource "${r.name}" (${r.path}, id ${r.id})`);
}

export async function data(project: string, ref: string, opts: ResourceOptions): Promise<void> {
  const ctx = cliContext();
  const result =
    opts.set === undefined
      ? await resourceData(ctx, project, ref)
      : await replaceResourceData(ctx, project, ref, await readItems(opts.set, '--set'));
  if (opts.json) return printJson(result.items);
  if (opts.set !== undefined)
    return printLine(`Resource "${result.resource.name}" now holds ${itemsText(result.items.length)}`);
  printItems(result.items, `Resource "${result.resource.name}" holds no items.`);
}

export async function reset(project: string, ref: string, opts: ResourceOptions): Promise<void> {
  const { resource, items } = await resetResource(cliContext(), project, ref);
  if (opts.json) return printJson(items);
  printLine(`Reset resource "${resource.name}" to its seed: ${itemsText(items.length)}`);
}
