import { hasOwn } from './helpers.js';

/** Mockoon's `filter`/`find` conditions (docs/templates.md "Mockoon helpers"). */

type Hash = Record<string, unknown>;

/** Whether `item` matches one condition: equal, or an object's listed fields matching. */
function matches(item: unknown, condition: unknown): boolean {
  if (typeof condition !== 'object' || condition === null) return item === condition;
  if (typeof item !== 'object' || item === null) return false;
  for (const key of Object.keys(condition))
    if (!hasOwn(item, key) || !matches((item as Hash)[key], (condition as Hash)[key])) return false;
  return true;
}

/**
 * Mockoon's `filter`/`find` conditions: the arguments are alternatives (OR); a list among them
 * is a set of conditions all needed (AND); a list inside that is alternatives again, and so on.
 */
export function anyOf(item: unknown, conditions: readonly unknown[]): boolean {
  return conditions.some((c) => (Array.isArray(c) ? allOf(item, c) : matches(item, c)));
}
function allOf(item: unknown, conditions: readonly unknown[]): boolean {
  return conditions.every((c) => (Array.isArray(c) ? anyOf(item, c) : matches(item, c)));
}
