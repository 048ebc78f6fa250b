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
 * Whether a template reads the request body as JSON beyond `body`: `bodyRaw` given a path
 * (Mockoon's raw value at it) or `jsonPath` (given the body's text, it reads the parsed body).
 */
export function readsParsedBody(ast: Ast): boolean {
  let reads = false;
  walkAst(ast, (n) => {
    const name = calledName(n);
    const params = (n as AstNode & { params?: unknown[] }).params ?? [];
    reads = (name === 'bodyRaw' && params.length > 0) || name === 'jsonPath';
    return reads ? 'stop' : undefined;
  });
  return reads;
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

/** Text put into a template before parsing: where (offset in the new text) and how long. */
interface Edit {
  at: number;
  added: number;
}

/**
 * WireMock (Handlebars.java) reads a numeric path segment as an index: `{{request.path.0}}`,
 * `{{parts.1}}`. Handlebars.js reads `0` there as a number and refuses the path, so such a
 * segment is written `.[0]` before parsing (outside string literals and `[…]` segments; a number
 * literal such as `1.5` is left as it is). Returns the expression and its edits.
 */
function indexSegments(inner: string): { text: string; edits: Edit[] } {
  if (!/\.\d/.test(inner)) return { text: inner, edits: [] };
  let text = '';
  const edits: Edit[] = [];
  let tokenStart = 0;
  const delimiter = (c: string | undefined) => c === undefined || /[\s()}~|=]/.test(c);
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '"' || c === "'") {
      const close = inner.indexOf(c, i + 1);
      const to = close === -1 ? inner.length : close + 1;
      text += inner.slice(i, to);
      i = to - 1;
      continue;
    }
    if (c === '[') {
      const close = inner.indexOf(']', i + 1);
      const to = close === -1 ? inner.length : close + 1;
      text += inner.slice(i, to);
      i = to - 1;
      continue;
    }
    if (delimiter(c)) tokenStart = i + 1;
    if (c === '.' && i > tokenStart && !/[-\d./]/.test(inner[tokenStart]!) && inner[i - 1] !== '.') {
      let j = i + 1;
      while (j < inner.length && inner[j]! >= '0' && inner[j]! <= '9') j++;
      if (j > i + 1 && (delimiter(inner[j]) || inner[j] === '.' || inner[j] === '/')) {
        edits.push({ at: text.length + 1, added: 1 }, { at: text.length + 1 + (j - i), added: 1 });
        text += `.[${inner.slice(i + 1, j)}]`;
        i = j - 1;
        continue;
      }
    }
    text += c;
  }
  return { text, edits };
}

/**
 * Prepares a template's text for Handlebars. JSON templates often end an expression right before
 * a brace: `{"n": {{int 1 9}}}`. Handlebars reads that `}}}` as the close of a `{{{…}}}`; when the
 * expression opened with `{{`, the closing `}}` is followed by an empty comment here so the brace
 * stays text. Numeric path segments are bracketed (indexSegments). Returns the text and the
 * edits, so positions are given in the original.
 */
const SPLIT = '{{!}}';
function normalize(source: string): { text: string; edits: Edit[] } {
  const braces = source.includes('}}}');
  if (!braces && !/\.\d/.test(source)) return { text: source, edits: [] };
  let out = '';
  let from = 0;
  const edits: Edit[] = [];
  /** Copies the source up to `to`, its expression (from `open` on) with numeric segments bracketed. */
  const copy = (open: number, close: number) => {
    const { text, edits: put } = indexSegments(source.slice(open, close));
    out += source.slice(from, open);
    for (const e of put) edits.push({ at: out.length + e.at, added: e.added });
    out += text;
    from = close;
  };
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i)) {
    if (i > 0 && source[i - 1] === '\\') {
      i += 2;
      continue;
    }
    let close: number;
    if (source[i + 2] === '{') {
      close = source.indexOf('}}}', i + 3);
      if (close !== -1) copy(i + 3, close);
      i = close === -1 ? source.length : close + 3;
      continue;
    }
    if (source.startsWith('{{!', i)) {
      close = source.startsWith('{{!--', i) ? source.indexOf('--}}', i + 5) : source.indexOf('}}', i + 3);
      i = close === -1 ? source.length : close + (source.startsWith('{{!--', i) ? 4 : 2);
      continue;
    }
    close = source.indexOf('}}', i + 2);
    if (close === -1) break;
    copy(i + 2, close);
    if (source[close + 2] === '}') {
      out += source.slice(from, close + 2);
      edits.push({ at: out.length, added: SPLIT.length });
      out += SPLIT;
      from = close + 2;
    }
    i = close + 2;
  }
  return { text: out + source.slice(from), edits };
}
/** Where each line of a text starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A 1-based column of the normalized text as a column of the text as written (lines are kept). */
function originalColumn(starts: number[], edits: Edit[], line: number, column: number): number {
  const lineStart = starts[line - 1] ?? 0;
  const at = lineStart + column - 1;
  let shift = 0;
  for (const e of edits) if (e.at >= lineStart && e.at < at) shift += e.added;
  return Math.max(1, column - shift);
}

export function parse(source: string): Ast {
  const { text, edits } = normalize(source);
  const starts = edits.length ? lineStarts(text) : [];
  let ast: Ast;
  try {
    ast = hbs().parse(text);
  } catch (e) {
    const problem = problemOf(e);
    throw new TemplateError(
      edits.length
        ? { ...problem, column: originalColumn(starts, edits, problem.line, problem.column) }
        : problem,
    );
  }
  // Positions in the text as written; header names read case-insensitively.
  walkAst(ast, (n) => {
    if (edits.length && n.loc) {
      const { start, end } = n.loc as { start: Position; end?: Position };
      start.column = originalColumn(starts, edits, start.line, start.column + 1) - 1;
      if (end) end.column = originalColumn(starts, edits, end.line, end.column + 1) - 1;
    }
    if (n.type === 'PathExpression') headerPath(n as PathNode);
    else if (
      (calledName(n) === 'each' && n.type === 'BlockStatement') ||
      LIST_HELPERS.has(calledName(n) ?? '')
    ) {
      const list = (n as AstNode & { params?: AstNode[] }).params?.[0];
      if (list?.type === 'PathExpression') {
        headerPath(list as PathNode);
        listPath(list as PathNode, true);
      }
    }
  });
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

interface Position {
  line: number;
  column: number;
}
interface PathNode extends AstNode {
  parts: string[];
  original: string;
  depth?: number;
}

/**
 * Request headers are read case-insensitively, as in WireMock: in `request.headers.X-Id`,
 * `request.headers.[X-Id]`, `@root.headers.X-Id` and `@root.request.headers.X-Id` the name is
 * lower-cased at compile time (the context holds the lower-cased names).
 */
function headerPath(n: PathNode): void {
  if (n.depth) return;
  const parts = n.parts;
  const plain = n.original === parts.join('.');
  const root = n.data && parts[0] === 'root' ? 1 : 0;
  const i = parts[root] === 'request' ? root + 1 : root;
  // `headers.X` alone may be a field of a block's context (`{{#each body.items}}`): left as written.
  if (parts[i] === 'headers' && i > 0 && i + 1 < parts.length) parts[i + 1] = parts[i + 1]!.toLowerCase();
  // The fast path of flat.ts takes a path whose text is its parts (Handlebars drops the brackets).
  if (!n.data && plain) n.original = parts.join('.');
  listPath(n);
}

/**
 * WireMock's repeated query parameters and headers: `request.query.x` is the first value,
 * `request.query.x.[1]` the second, and `{{#each request.query.x}}` goes over all of them (same
 * for `request.headers.x`). An index after the name, or the list of an `each`, reads the lists
 * (`request.query[]`, `request.headers[]`: names no template can write as a plain path).
 */
export const VALUE_LISTS = { query: 'query[]', headers: 'headers[]' } as const;
/** Helpers whose first argument is a list: given `request.query.x`, they get every value (WireMock's `size`). */
const LIST_HELPERS = new Set(['size', 'join', 'arrayJoin', 'contains', 'pickRandom']);
function listPath(n: PathNode, each = false): void {
  if (n.depth) return;
  const parts = n.parts;
  const i = (n.data && parts[0] === 'root' ? 1 : 0) + 1;
  const list = parts[i] === 'query' || parts[i] === 'headers' ? VALUE_LISTS[parts[i]] : undefined;
  if (
    parts[i - 1] !== 'request' ||
    !list ||
    parts.length < i + (each ? 2 : 3) ||
    (each && parts.length > i + 2)
  )
    return;
  const plain = !n.data && n.original === parts.join('.');
  parts[i] = list;
  if (plain) n.original = parts.join('.');
}

/** A problem as a sentence's end: `<what> at line L, column C: <message>`, its position once. */
export function problemAfter(what: string, problem: TemplateProblem): string {
  return problem.positioned
    ? `${what}: ${problem.message}`
    : `${what} at line ${problem.line}, column ${problem.column}: ${problem.message}`;
}

export class TemplateError extends Error {
  constructor(readonly problem: TemplateProblem) {
    super(
      problem.positioned
        ? problem.message
        : `line ${problem.line}, column ${problem.column}: ${problem.message}`,
    );
  }
}
