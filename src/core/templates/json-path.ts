import { hasOwn } from './helpers.js';

/**
 * A JSONPath subset (WireMock's `jsonPath` helper): `$`, `.key`, `['key']`, `[n]` (negative from
 * the end), `[*]` / `.*`, `..key` (at any depth) and `[?(@.key op value)]` filters (`==`, `!=`,
 * `<`, `<=`, `>`, `>=`; value a number, a quoted text, true, false or null). Own properties only.
 * A path with a wildcard, `..` or a filter gives a list; any other the value, or undefined.
 */

type Step =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'deep'; key: string }
  | { kind: 'filter'; path: string[]; op: string; value: unknown };

export interface JsonPath {
  steps: Step[];
  list: boolean;
}

const FILTER = /^\?\(@((?:\.[A-Za-z_$][\w$-]*)+)\s*(==|!=|<=|>=|<|>)\s*(.+?)\s*\)$/;

function literal(text: string): unknown {
  if (/^'.*'$|^".*"$/.test(text)) return text.slice(1, -1);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  const n = Number(text);
  if (Number.isFinite(n)) return n;
  throw new Error(`jsonPath: cannot read the value ${JSON.stringify(text)} of a filter`);
}

/** Parses a path; throws a one-line error naming what it could not read. */
export function parseJsonPath(path: string): JsonPath {
  const steps: Step[] = [];
  let i = path.startsWith('$') ? 1 : 0;
  if (i === 0 && path !== '' && path[0] !== '.' && path[0] !== '[') path = `.${path}`;
  const bad = () => new Error(`jsonPath: cannot read ${JSON.stringify(path)} at character ${i + 1}`);
  while (i < path.length) {
    if (path.startsWith('..', i)) {
      const m = /^[A-Za-z_$][\w$-]*/.exec(path.slice(i + 2));
      if (!m) throw bad();
      steps.push({ kind: 'deep', key: m[0] });
      i += 2 + m[0].length;
    } else if (path[i] === '.') {
      // `$.list.[*]` (JSONPath Plus, as Mockoon writes it) is `$.list[*]`.
      if (path[i + 1] === '[') {
        i += 1;
        continue;
      }
      if (path[i + 1] === '*') {
        steps.push({ kind: 'all' });
        i += 2;
        continue;
      }
      const m = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (!m) throw bad();
      steps.push({ kind: 'key', key: m[0] });
      i += 1 + m[0].length;
    } else if (path[i] === '[') {
      const end = path.indexOf(']', i);
      if (end === -1) throw bad();
      const inner = path.slice(i + 1, end).trim();
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'key', key: inner.slice(1, -1) });
      else {
        const m = FILTER.exec(inner);
        if (!m) throw bad();
        steps.push({ kind: 'filter', path: m[1]!.slice(1).split('.'), op: m[2]!, value: literal(m[3]!) });
      }
      i = end + 1;
    } else throw bad();
  }
  return { steps, list: steps.some((s) => s.kind === 'all' || s.kind === 'deep' || s.kind === 'filter') };
}

const child = (v: unknown, key: string): unknown =>
  hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default:
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
      return op === '<'
        ? (a as number) < (b as number)
        : op === '<='
          ? (a as number) <= (b as number)
          : op === '>'
            ? (a as number) > (b as number)
            : (a as number) >= (b as number);
  }
}

/** Every value under `v` (itself included), depth-first, at most `budget` of them. */
function descend(v: unknown, out: unknown[], budget: { left: number }): void {
  if (--budget.left < 0) throw new Error('jsonPath: the document is too large to search with ..');
  out.push(v);
  if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) descend(x, out, budget);
}

/** The values a path selects in `doc`. */
export function selectJsonPath(doc: unknown, path: JsonPath): unknown {
  let at: unknown[] = [doc];
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const v of at) {
      if (step.kind === 'key') {
        const x = child(v, step.key);
        if (x !== undefined) next.push(x);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const x = v[step.index < 0 ? v.length + step.index : step.index];
          if (x !== undefined) next.push(x);
        }
      } else if (step.kind === 'all') {
        if (typeof v === 'object' && v !== null) next.push(...Object.values(v));
      } else if (step.kind === 'deep') {
        const all: unknown[] = [];
        descend(v, all, { left: 100_000 });
        for (const x of all) {
          const y = child(x, step.key);
          if (y !== undefined && !Array.isArray(x)) next.push(y);
        }
      } else if (Array.isArray(v) || (typeof v === 'object' && v !== null)) {
        for (const item of Object.values(v)) {
          let field: unknown = item;
          for (const k of step.path) field = child(field, k);
          if (compare(field, step.op, step.value)) next.push(item);
        }
      }
    }
    at = next;
  }
  return path.list ? at : at[0];
}
