import { randomUUID } from 'node:crypto';
import { MockdevError } from '../errors.js';
import type { ResourceItem } from '../model/resource.js';

/**
 * The rules of a resource's CRUD operations (docs/resources.md "At run time"), pure: the runtime
 * (runtime/resources.ts) keeps the items and calls these without awaiting anything between
 * reading and changing them, so concurrent requests never lose an update.
 *
 * A resource under parameters (`/api/orgs/{org}/users`) keeps each item's parameter values on
 * the item, under the parameters' names (`{ "id": 1, "org": "acme", … }`): the scope of a
 * request is those values, and an item belongs to it when each field equals its value. Ids are
 * unique within a scope.
 */

/** The values of the parameters before the collection, by name (empty for `/api/users`). */
export type Scope = Readonly<Record<string, string>>;

/** The query fields that page rather than filter. */
const PAGING = new Set(['limit', 'offset']);

/** A field's value as a query compares it: strings as they are, anything else as JSON. */
export function fieldText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const matches = (item: ResourceItem, fields: Scope): boolean => {
  for (const k in fields) if (fieldText(item[k]) !== fields[k]) return false;
  return true;
};

function pagingValue(query: Scope, name: 'limit' | 'offset'): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw))
    throw new MockdevError(
      'MALFORMED_REQUEST',
      `The query field ${name}=${JSON.stringify(raw.slice(0, 40))} is not a whole number of 0 or more: give e.g. ${name}=10`,
    );
  return Number(raw);
}

/**
 * GET on the collection: the items of the scope whose top-level fields equal every query field
 * (`limit` and `offset` aside), then paged; `total` counts them before paging.
 */
export function listItems(
  items: readonly ResourceItem[],
  scope: Scope,
  query: Scope,
): { total: number; items: ResourceItem[] } {
  const limit = pagingValue(query, 'limit');
  const offset = pagingValue(query, 'offset') ?? 0;
  let filters: Record<string, string> | undefined;
  for (const k in query) if (!PAGING.has(k)) (filters ??= {})[k] = query[k]!;
  const selected =
    filters === undefined && Object.keys(scope).length === 0
      ? items
      : items.filter((item) => matches(item, scope) && (filters === undefined || matches(item, filters)));
  const end = limit === undefined ? undefined : offset + limit;
  const page = offset === 0 && end === undefined ? selected : selected.slice(offset, end);
  return { total: selected.length, items: page as ResourceItem[] };
}

/** Whether a field's value equals a text as a query compares them (fieldText), without building texts. */
const sameAs =
  (text: string, asNumber: number) =>
  (v: unknown): boolean =>
    v === text ||
    (typeof v === 'number'
      ? v === asNumber && String(v) === text
      : typeof v === 'object' && fieldText(v) === text);

/** The index of the item with this id in the scope; -1 when there is none. */
export function findItem(items: readonly ResourceItem[], idField: string, scope: Scope, id: string): number {
  const same = sameAs(id, Number(id));
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (same(item[idField]) && matches(item, scope)) return i;
  }
  return -1;
}

/** Whether an id is a whole number (or its text): such ids count up. */
const numericId = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  return undefined;
};

/**
 * What new ids count from: the largest numeric id, whether the ids are texts, whether any is not
 * numeric (then new ids are UUIDs). The runtime keeps one per resource while ids are only added.
 */
export interface IdCounter {
  max: number;
  texts: boolean;
  uuids: boolean;
}

/** Counts a resource's ids. */
export function countIds(items: readonly ResourceItem[], idField: string): IdCounter {
  const counter: IdCounter = { max: 0, texts: items.length > 0, uuids: false };
  let numbers = false;
  for (const item of items) {
    const v = item[idField];
    if (v === undefined) continue;
    sawId(counter, v);
    if (typeof v === 'number') numbers = true;
  }
  if (numbers) counter.texts = false;
  return counter;
}

/** An id now in use: counted. */
export function sawId(counter: IdCounter, id: unknown): void {
  const n = numericId(id);
  if (n === undefined) counter.uuids = true;
  else if (n > counter.max) counter.max = n;
}

/**
 * The id of a new item: the next integer after the largest numeric id (a number, or its text when
 * the ids are texts), or a UUID when any id is not numeric. A resource without items starts at 1.
 */
export function nextId(
  items: readonly ResourceItem[],
  idField: string,
  counter = countIds(items, idField),
): string | number {
  if (counter.uuids) return randomUUID();
  return counter.texts ? String(counter.max + 1) : counter.max + 1;
}

/** An item without an id gets the next one: the seed may leave ids out. */
export function withIds(items: readonly ResourceItem[], idField: string): ResourceItem[] {
  if (items.every((item) => item[idField] !== undefined)) return items as ResourceItem[];
  const out: ResourceItem[] = [];
  for (const item of items)
    out.push(
      item[idField] === undefined ? { ...item, [idField]: nextId([...items, ...out], idField) } : item,
    );
  return out;
}

/** The request body as an item: a JSON object, else a 400 saying so. */
export function itemBody(json: unknown, what: string): ResourceItem {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new MockdevError(
      'MALFORMED_REQUEST',
      `The body of ${what} must be a JSON object, e.g. {"name":"Ada"}; ${json === NO_BODY ? 'it is missing or not JSON' : `it is ${Array.isArray(json) ? 'an array' : json === null ? 'null' : `a ${typeof json}`}`}`,
    );
  return json as ResourceItem;
}

/** What the runtime gives for a body that is missing or not JSON. */
export const NO_BODY: unique symbol = Symbol('no JSON body');

const notFound = (idField: string, id: string) =>
  new MockdevError('NOT_FOUND', `No item with ${idField} ${JSON.stringify(id)} here`);

/** An item's fields with its id first and its scope's values: what the path says wins. */
function keyed(fields: ResourceItem, idField: string, id: unknown, scope: Scope): ResourceItem {
  return { [idField]: id, ...fields, ...scope, [idField]: id };
}

/**
 * POST: the item added (its id given and free, or the next one); 409 when the id is taken. The
 * counter (countIds of the items, kept by the caller) counts the new id.
 */
export function createItem(
  items: ResourceItem[],
  idField: string,
  scope: Scope,
  body: ResourceItem,
  counter = countIds(items, idField),
): ResourceItem {
  const given = body[idField];
  let id: unknown = given;
  if (given === undefined || given === null) id = nextId(items, idField, counter);
  else if (typeof given !== 'string' && typeof given !== 'number')
    throw new MockdevError('MALFORMED_REQUEST', `The ${idField} of a new item must be a string or a number`);
  else if (findItem(items, idField, scope, fieldText(given)!) !== -1)
    throw new MockdevError('CONFLICT', `An item with ${idField} ${JSON.stringify(given)} exists already`);
  const item = keyed(body, idField, id, scope);
  items.push(item);
  sawId(counter, id);
  return item;
}

/** The item at this id made anew from the old one; its id and scope stay. 404 when there is none. */
function changeItem(
  items: ResourceItem[],
  idField: string,
  scope: Scope,
  id: string,
  make: (old: ResourceItem) => ResourceItem,
): ResourceItem {
  const i = findItem(items, idField, scope, id);
  if (i === -1) throw notFound(idField, id);
  const old = items[i]!;
  const item = keyed(make(old), idField, old[idField], scope);
  items[i] = item;
  return item;
}

/** PUT: the item replaced by the body; the id in the path (and the scope) win over the body's. */
export const replaceItem = (
  items: ResourceItem[],
  idField: string,
  scope: Scope,
  id: string,
  body: ResourceItem,
) => changeItem(items, idField, scope, id, () => body);

/** PATCH: the item with the body merged in (JSON merge patch, RFC 7396); the id and scope stay. */
export const patchItem = (
  items: ResourceItem[],
  idField: string,
  scope: Scope,
  id: string,
  body: ResourceItem,
) => changeItem(items, idField, scope, id, (old) => mergePatch(old, body) as ResourceItem);

/** DELETE: the item removed; 404 when there is none. */
export function deleteItem(items: ResourceItem[], idField: string, scope: Scope, id: string): void {
  const i = findItem(items, idField, scope, id);
  if (i === -1) throw notFound(idField, id);
  items.splice(i, 1);
}

/** GET one: the item, or 404. */
export function getItem(
  items: readonly ResourceItem[],
  idField: string,
  scope: Scope,
  id: string,
): ResourceItem {
  const i = findItem(items, idField, scope, id);
  if (i === -1) throw notFound(idField, id);
  return items[i]!;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON merge patch (RFC 7396): a new value, the target untouched. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) delete out[k];
    // A member named __proto__ is data, never the object's prototype.
    else
      Object.defineProperty(out, k, {
        value: mergePatch(out[k], v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}
