/**
 * Pure helpers of the contract screen and the request log's highlighting: where a violation
 * points in a request (`body.items[2].id`, `header.x-trace`), a JSON body pretty-printed with the
 * failing fields marked, and violations grouped by operation.
 */
import type { ContractViolation } from '../../../src/core/model/contract';

/** `1 violation`, `2 violations`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** One step into a JSON value: a property name or an array index. */
export type PathStep = string | number;

/** A place in an exchange a violation names: its side and its location (`body.items[2].id`). */
export interface Spot {
  in: 'request' | 'response';
  location: string;
}

/**
 * The steps of a body location: `body.items[2].id` → ['items', 2, 'id'], `body` → [];
 * `body["a.b"]` and `body['a b']` take any name. undefined when it is not a body location.
 */
export function bodySteps(location: string): PathStep[] | undefined {
  if (location !== 'body' && !/^body[.[]/.test(location)) return undefined;
  const steps: PathStep[] = [];
  const rest = location.slice(4);
  const token = /\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\['((?:[^'\\]|\\.)*)'\]/y;
  let at = 0;
  while (at < rest.length) {
    token.lastIndex = at;
    const m = token.exec(rest);
    if (!m) break; // the rest is not a path we read: mark what was read
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else if (m[3] !== undefined) steps.push(JSON.parse(`"${m[3]}"`) as string);
    else steps.push(m[4]!.replace(/\\(.)/g, '$1'));
    at = token.lastIndex;
  }
  return steps;
}

/** The header a location names (`header.x-trace` → `x-trace`), lower-case; undefined otherwise. */
export function headerName(location: string): string | undefined {
  return location.startsWith('header.') ? location.slice(7).toLowerCase() : undefined;
}

/**
 * The longest start of `steps` that exists in `value`: a property the contract requires but the
 * body lacks marks the object that lacks it.
 */
export function existingSteps(value: unknown, steps: PathStep[]): PathStep[] {
  const found: PathStep[] = [];
  let here = value;
  for (const step of steps) {
    if (Array.isArray(here) && typeof step === 'number' && step < here.length) here = here[step];
    else if (
      here !== null &&
      typeof here === 'object' &&
      !Array.isArray(here) &&
      Object.prototype.hasOwnProperty.call(here, String(step))
    )
      here = (here as Record<string, unknown>)[String(step)];
    else break;
    found.push(step);
  }
  return found;
}

/** A piece of a pretty-printed body: marked when it is (inside) a failing field. */
export interface Segment {
  text: string;
  marked: boolean;
}

const keyOf = (steps: PathStep[]) => JSON.stringify(steps.map(String));

/**
 * `value` as `JSON.stringify(value, null, 2)` writes it, in segments, the fields at `marks`
 * (paths that exist in it; [] is the whole value) marked: a property with its name, an array
 * item by itself.
 */
export function markedJson(value: unknown, marks: PathStep[][]): Segment[] {
  const wanted = new Set(marks.map(keyOf));
  const out: Segment[] = [];
  let depth = 0; // how many marked fields we are inside
  const write = (text: string) => {
    const marked = depth > 0;
    const last = out[out.length - 1];
    if (last && last.marked === marked) last.text += text;
    else out.push({ text, marked });
  };
  const walk = (v: unknown, path: PathStep[], indent: string, key?: string) => {
    const mark = wanted.has(keyOf(path));
    if (mark) depth++;
    if (key !== undefined) write(`${JSON.stringify(key)}: `);
    if (Array.isArray(v)) {
      if (v.length === 0) write('[]');
      else {
        write('[\n');
        v.forEach((item, i) => {
          write(indent + '  ');
          walk(item, [...path, i], indent + '  ');
          write(i < v.length - 1 ? ',\n' : '\n');
        });
        write(`${indent}]`);
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
      if (entries.length === 0) write('{}');
      else {
        write('{\n');
        entries.forEach(([k, x], i) => {
          write(indent + '  ');
          walk(x, [...path, k], indent + '  ', k);
          write(i < entries.length - 1 ? ',\n' : '\n');
        });
        write(`${indent}}`);
      }
    } else write(JSON.stringify(v) ?? 'null');
    if (mark) depth--;
  };
  walk(value, [], '');
  return out;
}

/** The violations of one operation (null: those that matched none). */
export interface OperationGroup {
  operation: string | null;
  violations: ContractViolation[];
  /** The requests among them. */
  requests: number;
}

/** Violations grouped by operation, in the order they come; unmatched requests last. */
export function groupByOperation(violations: ContractViolation[]): OperationGroup[] {
  const groups = new Map<string | null, ContractViolation[]>();
  for (const v of violations) {
    const list = groups.get(v.operation);
    if (list) list.push(v);
    else groups.set(v.operation, [v]);
  }
  const out = [...groups].map(([operation, list]) => ({
    operation,
    violations: list,
    requests: new Set(list.map((v) => v.requestId)).size,
  }));
  return [...out.filter((g) => g.operation !== null), ...out.filter((g) => g.operation === null)];
}

/** The request log's query that opens a request with a violation's field marked. */
export function spotQuery(v: { requestId: string } & Spot): Record<string, string> {
  return { request: v.requestId, side: v.in, field: v.location };
}

/** The spot a request log's query names (`?request=…&side=response&field=body.id`), if any. */
export function spotFromQuery(q: URLSearchParams): Spot | undefined {
  const location = q.get('field');
  if (!location) return undefined;
  return { in: q.get('side') === 'response' ? 'response' : 'request', location };
}
