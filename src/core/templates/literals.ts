import { FAKE_SHORT } from './fake.js';
import { wiremockLiteralProblem } from './literals-wiremock.js';
import { checkFakeArguments, REPEAT_MAX } from './limits.js';
import { calledName, walkAst, type Ast, type AstNode, type TemplateProblem } from './syntax.js';

/**
 * The limits a template's own text already breaks, found at save rather than per request: a
 * literal size over a fake-data limit (`{{faker 'string.alpha' 100000000}}`), a literal `repeat`
 * count over REPEAT_MAX. Arguments that come from the request are checked when it renders.
 */

interface Node extends AstNode {
  type: string;
  value?: unknown;
  params?: Node[];
  hash?: { pairs: { key: string; value: Node }[] };
}

const LITERALS = new Set(['StringLiteral', 'NumberLiteral', 'BooleanLiteral']);
/** A literal's value; `undefined` for anything computed when the template renders. */
const literal = (n: Node): unknown => (LITERALS.has(n.type) ? n.value : undefined);

/** The fake-data call a node makes, with its literal arguments (as the helpers pass them). */
function fakeCall(name: string, n: Node): { method: string; args: unknown[] } | undefined {
  const params = n.params ?? [];
  const named: Record<string, unknown> = {};
  for (const { key, value } of n.hash?.pairs ?? []) named[key] = literal(value);
  const withNamed = (args: unknown[]) => (n.hash?.pairs.length ? [...args, named] : args);
  if (name === 'faker') {
    const method = params[0] && literal(params[0]);
    if (typeof method !== 'string') return undefined;
    return { method, args: withNamed(params.slice(1).map(literal)) };
  }
  const method = FAKE_SHORT[name];
  return method === undefined ? undefined : { method, args: params.map(literal) };
}

/** What is over a limit in the literal arguments of a call to `name`, or undefined. */
function problemIn(name: string, n: Node): string | undefined {
  if (name === 'repeat') {
    const counts = (n.params ?? []).map(literal).filter((v): v is number => typeof v === 'number');
    const over = counts.find((c) => c > REPEAT_MAX);
    return over === undefined
      ? undefined
      : `repeat gives at most ${REPEAT_MAX} items, and ${over} were asked for`;
  }
  const named: Record<string, unknown> = {};
  for (const { key, value } of n.hash?.pairs ?? []) named[key] = literal(value);
  const wiremock = wiremockLiteralProblem(name, (n.params ?? []).map(literal), named);
  if (wiremock) return wiremock;
  const call =
    Object.prototype.hasOwnProperty.call(FAKE_SHORT, name) || name === 'faker'
      ? fakeCall(name, n)
      : undefined;
  if (!call) return undefined;
  try {
    checkFakeArguments(call.method, call.args);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The first literal argument over a limit, with where it is; null when there is none. */
export function literalProblem(ast: Ast): TemplateProblem | null {
  let found: TemplateProblem | null = null;
  walkAst(ast, (n) => {
    const name = calledName(n);
    const message = name === undefined ? undefined : problemIn(name, n as Node);
    if (!message) return;
    found = { message, line: n.loc?.start.line ?? 1, column: (n.loc?.start.column ?? 0) + 1 };
    return 'stop';
  });
  return found;
}
