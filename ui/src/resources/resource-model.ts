/**
 * The Resources screen's checks, pure (no React, no DOM): what a resource's items or seed typed as
 * JSON must be (an array of objects, the core's ResourceSeedSchema, said with the line and column
 * of a JSON mistake or the index of an item that is not an object), and the name a path gives.
 */
import { describeJsonProblem, jsonProblem } from '../editor/json-check';

/** Why a JSON text is not a list of items, or undefined when it is one. Empty text is `[]`. */
export function itemsProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const problem = jsonProblem(text);
  return problem ? `Invalid JSON: ${describeJsonProblem(problem)}` : shapeProblem(text);
}

/** Why a text that is JSON is not a list of items (an array of objects), or undefined. */
export function shapeProblem(text: string): string | undefined {
  if (text.trim() === '' || jsonProblem(text)) return undefined;
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) return 'Must be a JSON array of objects, e.g. [{"id": 1, "name": "Ada"}]';
  const bad = value.findIndex((v) => typeof v !== 'object' || v === null || Array.isArray(v));
  if (bad >= 0) return `Item ${bad} is not a JSON object: each item must be one, e.g. {"id": 1}`;
  return undefined;
}

/** The items of a text itemsProblem accepts (empty text: none). */
export function parseItems(text: string): Record<string, unknown>[] {
  return text.trim() === '' ? [] : (JSON.parse(text) as Record<string, unknown>[]);
}

/** Items as the editor shows them: pretty-printed JSON. */
export const itemsText = (items: readonly unknown[]): string => JSON.stringify(items, null, 2);

/**
 * The name a collection path gives when none is typed: its last segment when it is a literal
 * (`/api/orgs/{org}/users` → users), else none (the API then says what is wrong with the path).
 */
export function defaultName(path: string): string | undefined {
  const last = path
    .split('/')
    .filter((s) => s !== '')
    .pop();
  if (!last || /^\{.*\}$/.test(last) || last.startsWith(':') || last === '*') return undefined;
  return last;
}
