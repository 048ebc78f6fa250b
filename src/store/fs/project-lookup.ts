import { isAbsolute, relative } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import type { StoredProject } from '../../core/ports.js';
import type { IndexEntry } from './project-index.js';

/** How the project store matches an id or a name, and where a folder lies. */

export const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

export const nameClash = (
  entries: IndexEntry[],
  name: string,
  exceptFolder?: string,
): IndexEntry | undefined =>
  entries.find((e) => e.folder !== exceptFolder && e.name.toLowerCase() === name.toLowerCase());

/** How a project matched a lookup: by id, by its exact name, by its name in another case. */
export type Rank = 0 | 1 | 2;
export interface Found {
  rank: Rank;
  projects: StoredProject[];
}
export const NONE: Found = { rank: 2, projects: [] };

/** The entries an id or name refers to, and how they matched. */
export function pick<E extends { id: string; name: string }>(
  entries: E[],
  ref: string,
): { rank: Rank; picked: E[] } {
  const byId = entries.filter((e) => e.id === ref);
  if (byId.length) return { rank: 0, picked: byId };
  const exact = entries.filter((e) => e.name === ref);
  if (exact.length) return { rank: 1, picked: exact };
  return { rank: 2, picked: entries.filter((e) => e.name.toLowerCase() === ref.toLowerCase()) };
}

export const nameTaken = (clash: IndexEntry): MockdevError =>
  new MockdevError('NAME_TAKEN', `A project named "${clash.name}" already exists (id ${clash.id})`, {
    hint: 'Choose another name, or update the existing project',
    details: { existingId: clash.id },
  });
