import { hbs, type Handlebars } from './handlebars.js';

/**
 * Reading templates: parsing (with `}}}` right after an expression kept as text), refusing
 * partials and decorators, and the line and column of a problem in the text as written.
 */

/** Where a template error was found, 1-based. */
export interface TemplateProblem {
  message: string;
  line: number;
  column: number;
  /** Whether `message` already says where (`Unknown helper "x" at line L, column C …`). */
  positioned?: boolean;
}

export function problemOf(e: unknown): TemplateProblem {
  const err = e as Error & { lineNumber?: number; column?: number };
  const first = err.message.split('\n')[0]!;
  if (typeof err.lineNumber === 'number' && typeof err.column === 'number')
    return { message: first.replace(/ - \d+:\d+$/, ''), line: err.lineNumber, column: err.column + 1 };
  const at = (
    hbs() as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } }
  ).Parser.lexer.yylloc;
  const got = /got '([^']+)'$/.exec(err.message)?.[1];
  const what =
    got === 'EOF'
      ? 'the template ends inside an expression or block (an unclosed {{…}} or {{#block}}?)'
      : got === 'INVALID'
        ? 'invalid expression (a missing "}}"?)'
        : got
          ? `unexpected ${got.toLowerCase().replace(/_/g, ' ')}`
          : first;
  return { message: what, line: at?.first_line ?? 1, column: (at?.first_column ?? 0) + 1 };
}

export type Ast = ReturnType<Handlebars['parse']>;

/** A node of a template's syntax tree, as the walks of this folder read it. */
export interface AstNode {
  type?: string;
  /** What a call (`{{x …}}`, `{{#x}}`, `(x …)`) names. */
  path?: AstNode;
  original?: unknown;
  parts?: string[];
  /** A `@`-path (`@root`, `@index`). */
  data?: boolean;
  loc?: { start: { line: number; column: number } };
}

/**
 * Calls `visit` with each node of a template's syntax tree, a parent before its children;
 * `visit` returns 'skip' to leave out the node's children, 'stop' to end the walk.
 */
export function walkAst(ast: unknown, visit: (node: AstNode) => 'skip' | 'stop' | void): void {
  let stopped = false;
  const walk = (node: unknown): void => {
    if (stopped || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const said = visit(node as AstNode);
    if (said === 'stop') stopped = true;
    if (said) return;
    for (const v of Object.values(node)) if (v && typeof v === 'object') walk(v);
  };
  walk(ast);
}

/** The helper (or path) a call node names (`{{x …}}`, `{{#x}}…`, `(x …)`), or undefined. */
export function calledName(n: AstNode): string | undefined {
  if (n.type !== 'MustacheStatement' && n.type !== 'BlockStatement' && n.type !== 'SubExpression')
    return undefined;
  const original = n.path?.type === 'PathExpression' ? n.path.original : undefined;
  return typeof original === 'string' ? original : undefined;
}

/** Names used as helpers or single-segment paths anywhere in the template. */
export function namesIn(ast: Ast): Set<string> {
  const names = new Set<string>();
  walkAst(ast, (n) => {
    if (n.type !== 'PathExpression') return;
    if (typeof n.original === 'string') names.add(n.original.split('.')[0]!);
    return 'skip';
  });
  return names;
}

/**
 * Whether a template can reach the environment: a path starting with `env` at any depth, or one
 * that is the whole context (`this`, `.`, `..`, `@root`), which holds it.
 */
export function reachesEnvironment(ast: Ast): boolean {
  let reaches = false;
  walkAst(ast, (n) => {
    if (n.type !== 'PathExpression') return;
    const first = n.parts?.[0];
    reaches = n.data ? first === 'root' : first === undefined || first === 'env';
    return reaches ? 'stop' : 'skip';
  });
  return reaches;
}

/**
 * JSON templates often end an expression right before a brace: `{"n": {{int 1 9}}}`. Handlebars
 * reads that `}}}` as the close of a `{{{…}}}`; when the expression opened with `{{`, the
 * closing `}}` is followed by an empty comment here so the brace stays text. Returns the text and
 * where comments were put (line, column) so error positions are given in the original.
 */
const SPLIT = '{{!}}';
function normalize(source: string): { text: string; inserted: { line: number; column: number }[] } {
  if (!source.includes('}}}')) return { text: source, inserted: [] };
  let out = '';
  let from = 0;
  const inserted: { line: number; column: number }[] = [];
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i)) {
    if (i > 0 && source[i - 1] === '\\') {
      i += 2;
      continue;
    }
    let close: number;
    if (source[i + 2] === '{') {
      close = source.indexOf('}}}', i + 3);
      i = close === -1 ? source.length : close + 3;
      continue;
    }
    if (source.startsWith('{{!--', i)) {
      close = source.indexOf('--}}', i + 5);
      i = close === -1 ? source.length : close + 4;
      continue;
    }
    close = source.indexOf('}}', i + 2);
    if (close === -1) break;
    if (source[close + 2] === '}') {
      out += source.slice(from, close + 2) + SPLIT;
      from = close + 2;
      const before = source.slice(0, close + 2);
      const line = before.split('\n').length;
      inserted.push({ line, column: close + 2 - (before.lastIndexOf('\n') + 1) });
    }
    i = close + 2;
  }
  return { text: out + source.slice(from), inserted };
}

export function parse(source: string): Ast {
  const { text, inserted } = normalize(source);
  let ast: Ast;
  try {
    ast = hbs().parse(text);
  } catch (e) {
    throw withOriginalPosition(problemOf(e), inserted);
  }
  // Partials are never loaded, and `log` is no helper here: refuse them at save rather than
  // failing per request.
  walkAst(ast, (n) => {
    const refuse = (message: string): never => {
      const err = new Error(message) as Error & { lineNumber?: number; column?: number };
      err.lineNumber = n.loc?.start.line ?? 1;
      err.column = n.loc?.start.column ?? 0;
      throw err;
    };
    if (
      n.type === 'PartialStatement' ||
      n.type === 'PartialBlockStatement' ||
      n.type === 'DecoratorBlock' ||
      n.type === 'Decorator'
    )
      refuse('partials and decorators are not supported');
    if (calledName(n) === 'log')
      refuse(
        'unknown helper log: a template cannot write to the server log (to read a field named "log", write {{this.log}})',
      );
  });
  return ast;
}

/** A problem's column in the original text (before normalize's comments). */
function withOriginalPosition(
  problem: TemplateProblem,
  inserted: { line: number; column: number }[],
): TemplateError {
  const shift = inserted.filter((p) => p.line === problem.line && p.column < problem.column - 1).length;
  return new TemplateError({ ...problem, column: problem.column - shift * SPLIT.length });
}

export class TemplateError extends Error {
  constructor(readonly problem: TemplateProblem) {
    super(`line ${problem.line}, column ${problem.column}: ${problem.message}`);
  }
}
