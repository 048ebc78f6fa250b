import { NOT_YET } from './helpers-mockoon.js';
import { walkAst, type Ast, type AstNode, type TemplateProblem } from './syntax.js';

/**
 * Helper calls checked at save: an unknown helper is refused with where it is and the closest
 * known names (never Handlebars' own wording), a helper that needs a feature not built yet says
 * which. Only calls are checked (`{{x arg}}`, `{{#x arg}}`, `(x)`): `{{x}}` alone may be a field.
 */

interface CallNode extends AstNode {
  params?: unknown[];
  hash?: { pairs?: unknown[] };
  path?: AstNode & { depth?: number };
}

/** The helper a node calls: a single plain name, given arguments (or a sub-expression). */
function calledHelper(n: CallNode): string | undefined {
  const call =
    n.type === 'SubExpression' ||
    ((n.type === 'MustacheStatement' || n.type === 'BlockStatement') &&
      ((n.params?.length ?? 0) > 0 || (n.hash?.pairs?.length ?? 0) > 0));
  const p = n.path;
  if (!call || p?.type !== 'PathExpression' || p.data || p.depth || p.parts?.length !== 1) return undefined;
  return typeof p.original === 'string' ? p.original : undefined;
}

/** Edit distance (Levenshtein) between two short names. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** Up to three known names closest to `name` (case aside), nearest first. */
export function closestNames(name: string, known: Iterable<string>): string[] {
  const lower = name.toLowerCase().slice(0, 64);
  const near: [string, number][] = [];
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d <= (lower.length >= 4 ? 2 : 1) || (lower.length >= 3 && k.toLowerCase().startsWith(lower)))
      near.push([k, d]);
  }
  return near
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, 3)
    .map(([k]) => k);
}

/** The first call of an unknown or not-yet-supported helper, as a problem; else null. */
export function helperProblem(ast: Ast, known: Readonly<Record<string, boolean>>): TemplateProblem | null {
  let problem: TemplateProblem | null = null;
  walkAst(ast, (n) => {
    const name = calledHelper(n as CallNode);
    if (name === undefined || Object.prototype.hasOwnProperty.call(known, name)) return;
    const line = n.loc?.start.line ?? 1;
    const column = (n.loc?.start.column ?? 0) + 1;
    const shown = JSON.stringify(name.slice(0, 64));
    const where = `at line ${line}, column ${column}`;
    const notYet = Object.prototype.hasOwnProperty.call(NOT_YET, name) ? NOT_YET[name] : undefined;
    let message: string;
    if (notYet) message = `Helper ${shown} ${where} needs ${notYet}`;
    else {
      const near = closestNames(name, Object.keys(known));
      message =
        `Unknown helper ${shown} ${where}` +
        (near.length ? `; closest known: ${near.join(', ')}` : '; see docs/templates.md "Helpers"');
    }
    problem = { message, line, column, positioned: true };
    return 'stop';
  });
  return problem;
}

/** Whether a template has a block (`{{#x}}…{{/x}}`, `{{^x}}…{{/x}}`). */
export function usesBlocks(ast: Ast): boolean {
  let found = false;
  walkAst(ast, (n) => {
    if (n.type === 'BlockStatement') {
      found = true;
      return 'stop';
    }
  });
  return found;
}
