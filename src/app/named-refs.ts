import { MockdevError } from '../core/errors.js';
import type { StoredProject } from '../core/ports.js';

/**
 * How the named things of a project (flows, resources) are named by those who use them: by id,
 * exact name, or name in any case; a name is unique in its project in any case.
 */

interface Named {
  id: string;
  name: string;
}

/** One of `list` by id, exact name or name in any case; NOT_FOUND naming them all otherwise. */
export function findNamed<T extends Named>(
  state: StoredProject,
  list: T[],
  ref: string,
  what: 'flow' | 'resource',
): T {
  const wanted = ref.trim();
  const found =
    list.find((x) => x.id === wanted) ??
    list.find((x) => x.name === wanted) ??
    list.find((x) => x.name.toLowerCase() === wanted.toLowerCase());
  if (found) return found;
  const names = list.map((x) => x.name);
  const What = what[0]!.toUpperCase() + what.slice(1);
  throw new MockdevError('NOT_FOUND', `${What} "${wanted}" not found in project "${state.project.name}"`, {
    hint: names.length ? `Its ${what}s: ${names.join(', ')}` : `It has no ${what}s`,
    details: { [what]: wanted, projectId: state.project.id },
  });
}

/** NAME_TAKEN when another of `list` (not `next` itself) has `next`'s name, in any case. */
export function assertNameFree(
  state: StoredProject,
  list: Named[],
  next: Named,
  what: 'flow' | 'resource',
): void {
  const clash = list.find((x) => x.id !== next.id && x.name.toLowerCase() === next.name.toLowerCase());
  if (clash)
    throw new MockdevError(
      'NAME_TAKEN',
      `A ${what} named "${clash.name}" already exists in project "${state.project.name}"`,
      { hint: 'Choose another name', details: { field: 'name' } },
    );
}
