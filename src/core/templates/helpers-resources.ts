import type { HelperDelegate, HelperOptions } from 'handlebars';
import type { ResourceItem } from '../model/resource.js';
import { mergePatch } from '../resources/crud.js';
import { root, split, text, valueAtPath } from './helpers.js';
import { fieldsFirst } from './helpers-mockoon.js';
import { hasMarks } from './marks.js';

/**
 * Templates reading the served project's resources (docs/resources.md "In templates"):
 * `{{resource 'users'}}` (the items), `{{resourceItem 'users' params.id}}` (one item or null),
 * and Mockoon's data-bucket helpers on resources by name: `{{data 'users' 'path'}}`,
 * `{{dataRaw 'users' 'path'}}`, `{{setData 'operation' 'users' 'path' value}}`.
 */

/** What a template sees of the project's resources (the server's state; runtime/resources.ts). */
export interface TemplateResources {
  /** The resource of this name (case aside), or undefined. */
  get(name: string): { readonly items: readonly ResourceItem[]; readonly idField: string } | undefined;
  /** Replaces a resource's items (written behind like any change). */
  set(name: string, items: ResourceItem[]): void;
  /**
   * Mockoon's global variables (`setGlobalVar`/`getGlobalVar`): shared by every request to this
   * server until it stops (not written anywhere), at most GLOBALS_MAX names.
   */
  readonly globals: Map<string, unknown>;
}

/** How many global variables a server keeps (a new name beyond it fails the template). */
export const GLOBALS_MAX = 1000;

type Root = { resources?: TemplateResources };

function resourceOf(o: HelperOptions, name: unknown, helper: string) {
  const resources = (root(o) as unknown as Root).resources;
  const found = typeof name === 'string' ? resources?.get(name) : undefined;
  if (!found)
    throw new Error(
      `${helper}: no resource named ${JSON.stringify(text(name)).slice(0, 80)} in this project (see "mockdev resource list")`,
    );
  return found;
}

/** A value a template may print (as JSON) or walk (`#each`, fields): arrays and objects print as JSON. */
function printable<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as T;
  Object.defineProperty(copy, 'toString', { value: () => JSON.stringify(value), enumerable: false });
  return copy;
}

const pathOf = (v: unknown): string => (v === undefined ? '' : text(v));

/** A copy of `at` with the value at the path segments replaced by `change(old)`. */
function updateAt(at: unknown, keys: string[], change: (old: unknown) => unknown): unknown {
  if (keys.length === 0) return change(at);
  const [key, ...rest] = keys as [string, ...string[]];
  const container: Record<string, unknown> | unknown[] = Array.isArray(at)
    ? [...(at as unknown[])]
    : typeof at === 'object' && at !== null
      ? { ...(at as Record<string, unknown>) }
      : {};
  const own = Object.prototype.hasOwnProperty.call(container, key);
  const next = updateAt(own ? (container as Record<string, unknown>)[key] : undefined, rest, change);
  if (next === DELETE) {
    if (Array.isArray(container) && /^\d+$/.test(key)) container.splice(Number(key), 1);
    else delete (container as Record<string, unknown>)[key];
  } else
    Object.defineProperty(container, key, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return container;
}
const DELETE = Symbol('delete');

/** Mockoon's setData operations on a value. */
const OPERATIONS: Record<string, (old: unknown, value: unknown) => unknown> = {
  set: (_old, value) => value,
  push: (old, value) => [...(Array.isArray(old) ? old : old === undefined ? [] : [old]), value],
  del: () => DELETE,
  inc: (old, value) => Number(old ?? 0) + Number(value ?? 1),
  dec: (old, value) => Number(old ?? 0) - Number(value ?? 1),
  invert: (old) => !old,
  merge: (old, value) => mergePatch(old, value),
};

const keysOf = (path: string): string[] =>
  path
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter(Boolean);

const isItems = (v: unknown): v is ResourceItem[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

export const resourceHelpers: Record<string, HelperDelegate> = {
  resource: (...a: unknown[]) => {
    const [[name], o] = split(a);
    return printable(resourceOf(o, name, 'resource').items);
  },
  resourceItem: (...a: unknown[]) => {
    const [[name, id], o] = split(a);
    const r = resourceOf(o, name, 'resourceItem');
    const wanted = text(id);
    const item = r.items.find((i) => {
      const v = i[r.idField];
      return v !== undefined && text(v) === wanted;
    });
    return item === undefined ? null : printable(item);
  },
  data: (...a: unknown[]) => {
    const [[name, path], o] = split(a);
    const value = valueAtPath(resourceOf(o, name, 'data').items, pathOf(path));
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
  },
  dataRaw: (...a: unknown[]) => {
    const [[name, path], o] = split(a);
    return printable(valueAtPath(resourceOf(o, name, 'dataRaw').items, pathOf(path)));
  },
  setData: (...a: unknown[]) => {
    const [[operation, name, path, value], o] = split(a);
    const apply = OPERATIONS[text(operation)];
    if (!apply || !Object.prototype.hasOwnProperty.call(OPERATIONS, text(operation)))
      throw new Error(
        `setData: unknown operation ${JSON.stringify(text(operation)).slice(0, 40)}; use one of ${Object.keys(OPERATIONS).join(', ')}`,
      );
    const r = resourceOf(o, name, 'setData');
    const next = updateAt(r.items, keysOf(pathOf(path)), (old) => apply(old, value));
    if (!isItems(next))
      throw new Error(`setData: resource ${JSON.stringify(text(name))} must stay an array of objects`);
    (root(o) as unknown as Root).resources!.set(text(name), next);
    return '';
  },
};

/** The served project's global variables; none in a template rendered without a server (a flow's). */
function globalsOf(o: HelperOptions, helper: string): Map<string, unknown> {
  const globals = (root(o) as unknown as Root).resources?.globals;
  if (!globals) throw new Error(`${helper}: global variables live in a running server's responses only`);
  return globals;
}

Object.assign(resourceHelpers, {
  // Mockoon's global variables: `{{setGlobalVar 'name' value}}`, `{{getGlobalVar 'name' 'path'}}`.
  setGlobalVar: (...a: unknown[]) => {
    const [[name, value], o] = split(a);
    if (typeof name !== 'string' || name === '') return '';
    const globals = globalsOf(o, 'setGlobalVar');
    // Given marked (KEEP_MARKS): a secret kept between requests would reach later answers' logs unmasked.
    if (hasMarks(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')))
      throw new Error(
        'setGlobalVar: a value made from an environment secret is not kept between requests (use {{env.NAME}} where it is needed)',
      );
    if (!globals.has(name) && globals.size >= GLOBALS_MAX)
      throw new Error(`setGlobalVar: more than ${GLOBALS_MAX} global variables`);
    globals.set(name, value);
    return '';
  },
  getGlobalVar: (...a: unknown[]) => {
    const [[name, path], o] = split(a);
    const v = globalsOf(o, 'getGlobalVar').get(text(name));
    const at = path === undefined ? v : valueAtPath(v, pathOf(path));
    return at === undefined ? '' : printable(at);
  },
} satisfies Record<string, HelperDelegate>);

fieldsFirst(resourceHelpers);
