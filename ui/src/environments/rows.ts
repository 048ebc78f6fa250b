/**
 * The variable rows of the environment editor and the PATCH that saves them (pure; tested in
 * rows.test.ts). A secret's value is unknown until revealed: a row left untouched keeps it.
 */
import { ENV_KEY_PATTERN, ENV_KEY_RULE } from '../../../src/core/model/limits';

export const MASK = '********';

export interface Row {
  /** A stable id for React. */
  id: number;
  key: string;
  value: string;
  secret: boolean;
  /** False while a stored secret's value is masked (not revealed, not typed over). */
  known: boolean;
  /** The row as stored (absent for a new row). */
  orig?: { key: string; value: string; secret: boolean };
}

export interface EnvironmentShape {
  variables: Record<string, string>;
  secretKeys: string[];
}

let nextId = 1;
export const newRow = (): Row => ({ id: nextId++, key: '', value: '', secret: false, known: true });

/** The rows of an environment as the API gave it (`revealed`: its secrets' values are real). */
export function rowsOf(env: EnvironmentShape, revealed = false): Row[] {
  return Object.entries(env.variables).map(([key, value]) => {
    const secret = env.secretKeys.includes(key);
    const known = !secret || revealed;
    return { id: nextId++, key, value: known ? value : '', secret, known, orig: { key, value, secret } };
  });
}

/** Fills in the revealed values of the secret rows not typed over. */
export function revealRows(rows: Row[], revealed: EnvironmentShape): Row[] {
  return rows.map((r) =>
    !r.known && r.orig && r.orig.key in revealed.variables
      ? {
          ...r,
          value: revealed.variables[r.orig.key]!,
          known: true,
          orig: { ...r.orig, value: revealed.variables[r.orig.key]! },
        }
      : r,
  );
}

export interface Patch {
  name?: string;
  variables?: Record<string, string>;
  secrets?: Record<string, string>;
  unset?: string[];
}

/**
 * The PATCH that turns the stored environment into the rows (`removed`: stored keys no row holds
 * any more); an error message when it cannot be made.
 */
export function patchOf(
  rows: Row[],
  removed: string[],
  name: { from: string; to: string },
): { patch: Patch } | { error: string } {
  const seen = new Set<string>();
  for (const r of rows) {
    const key = r.key.trim();
    if (!ENV_KEY_PATTERN.test(key)) return { error: `"${key}" is not a variable name: it ${ENV_KEY_RULE}` };
    if (seen.has(key)) return { error: `"${key}" appears twice` };
    seen.add(key);
  }
  const unset = [...removed];
  const variables: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const r of rows) {
    const key = r.key.trim();
    const o = r.orig;
    const renamed = o !== undefined && o.key !== key;
    if (o && (renamed || (o.secret && !r.secret))) unset.push(o.key);
    if (o && !renamed && o.secret === r.secret && (!r.known || o.value === r.value)) continue;
    if (!r.known)
      return {
        error: `Reveal the secrets first to rename ${o?.key ?? key} or make it a plain variable (its value is hidden)`,
      };
    if (r.secret) secrets[key] = r.value;
    else variables[key] = r.value;
  }
  const patch: Patch = {};
  if (name.to.trim() !== name.from) patch.name = name.to.trim();
  if (unset.length) patch.unset = unset;
  if (Object.keys(variables).length) patch.variables = variables;
  if (Object.keys(secrets).length) patch.secrets = secrets;
  return { patch };
}

/** The keys of the stored environment that no row holds any more (removed rows). */
export function removedKeys(stored: EnvironmentShape, rows: Row[]): string[] {
  const kept = new Set(rows.map((r) => r.orig?.key).filter((k): k is string => k !== undefined));
  return Object.keys(stored.variables).filter((k) => !kept.has(k));
}
