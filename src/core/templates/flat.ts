import type { HelperDelegate } from 'handlebars';

/**
 * The fast path of flat templates: text and `{{…}}` expressions with no blocks (`{{params.id}}`,
 * `{{faker 'person.firstName'}}`, `{{int 1 9}}`, `{{lowercase (queryParam 'q')}}`), the shape of
 * nearly every response template. Such a template renders here as a concatenation of its pieces,
 * with Handlebars' semantics for what it can express (own-property lookups plus the allowed
 * prototype names, a missing value rendering empty, a helper called with `this` the context and
 * an options object `{ name, hash, data: { root } }`), without Handlebars' per-render set-up
 * (merging and wrapping the helpers, building the prototype access control), which cost more
 * than the rendering itself. Anything else (blocks, `@data`, `../`, `this`, built-in helpers,
 * partials) is left to Handlebars: compileFlat returns undefined.
 */

interface AstNode {
  type: string;
}
interface PathNode extends AstNode {
  type: 'PathExpression';
  data: boolean;
  depth: number;
  parts: string[];
  original: string;
}
interface CallNode extends AstNode {
  path: AstNode;
  params: AstNode[];
  hash?: { pairs: { key: string; value: AstNode }[] };
}

type Data = { root: object };
type Evaluate = (ctx: object, data: Data) => unknown;

const hasOwn = (o: unknown, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

export interface FlatOptions {
  /** The helpers a template may call, by name. */
  helpers: Readonly<Record<string, HelperDelegate>>;
  /** Names Handlebars' built-in helpers take: such a template is left to Handlebars. */
  builtIns: readonly string[];
  /** Prototype properties a lookup may read (the context's lazy getters). */
  allowedProto: readonly string[];
}

/** The renderer of a flat template, or undefined when it is not one (Handlebars renders it). */
export function compileFlat(program: unknown, options: FlatOptions): ((ctx: object) => string) | undefined {
  const { helpers, builtIns } = options;
  const allowed = new Set(options.allowedProto);

  /** Handlebars' lookupProperty: own properties, and the allowed prototype names (never methods). */
  const property = (parent: unknown, name: string): unknown => {
    if (parent === null || parent === undefined) return parent;
    const value = (parent as Record<string, unknown>)[name];
    if (value === null || value === undefined) return value;
    if (hasOwn(parent, name)) return value;
    return allowed.has(name) && typeof value !== 'function' ? value : undefined;
  };

  /** A context lookup (`params.id`, `env.KEY`); undefined when the path is beyond the fast path. */
  const lookup = (node: PathNode): Evaluate | undefined => {
    if (node.data || node.depth !== 0 || node.parts.length === 0) return undefined;
    if (node.original !== node.parts.join('.')) return undefined; // this, ./, [..] segments
    const parts = node.parts;
    if (parts.length === 1) {
      const name = parts[0]!;
      return (ctx) => property(ctx, name);
    }
    return (ctx) => {
      let at: unknown = ctx;
      for (let i = 0; i < parts.length && at !== null && at !== undefined; i++) at = property(at, parts[i]!);
      return at;
    };
  };

  const value = (node: AstNode): Evaluate | undefined => {
    switch (node.type) {
      case 'StringLiteral':
      case 'NumberLiteral':
      case 'BooleanLiteral': {
        const v = (node as AstNode & { value: unknown }).value;
        return () => v;
      }
      case 'UndefinedLiteral':
        return () => undefined;
      case 'NullLiteral':
        return () => null;
      case 'PathExpression':
        return lookup(node as PathNode);
      case 'SubExpression':
        return call(node as CallNode);
      default:
        return undefined;
    }
  };

  /** A helper call: the head must be one of the helpers (Handlebars refuses any other). */
  const call = (node: CallNode): Evaluate | undefined => {
    const head = node.path as PathNode;
    if (head.type !== 'PathExpression' || head.data || head.depth !== 0 || head.parts.length !== 1)
      return undefined;
    const name = head.parts[0]!;
    if (head.original !== name || builtIns.includes(name) || !hasOwn(helpers, name)) return undefined;
    const helper = helpers[name]!;
    const params: Evaluate[] = [];
    for (const p of node.params) {
      const v = value(p);
      if (!v) return undefined;
      params.push(v);
    }
    const pairs: [string, Evaluate][] = [];
    for (const { key, value: v } of node.hash?.pairs ?? []) {
      const evaluate = value(v);
      if (!evaluate) return undefined;
      pairs.push([key, evaluate]);
    }
    const n = params.length;
    return (ctx, data) => {
      const args: unknown[] = new Array(n + 1);
      for (let i = 0; i < n; i++) args[i] = params[i]!(ctx, data);
      const hash: Record<string, unknown> = {};
      for (const [key, evaluate] of pairs) hash[key] = evaluate(ctx, data);
      args[n] = { name, hash, data };
      return (helper as (...a: unknown[]) => unknown).apply(ctx, args);
    };
  };

  const body = (program as { type?: string; body?: AstNode[] }).body;
  if ((program as AstNode).type !== 'Program' || !Array.isArray(body)) return undefined;
  const pieces: (string | Evaluate)[] = [];
  for (const statement of body) {
    if (statement.type === 'ContentStatement') {
      const text = (statement as AstNode & { value: string }).value;
      if (typeof pieces[pieces.length - 1] === 'string') pieces[pieces.length - 1] += text;
      else pieces.push(text);
    } else if (statement.type === 'CommentStatement') continue;
    else if (statement.type === 'MustacheStatement') {
      const m = statement as CallNode;
      const head = m.path as PathNode;
      // `{{name}}` alone calls the helper of that name (Handlebars' knownHelpers), else looks it up.
      const isCall =
        m.params.length > 0 ||
        (m.hash?.pairs.length ?? 0) > 0 ||
        (head.type === 'PathExpression' &&
          head.parts.length === 1 &&
          head.original === head.parts[0] &&
          (hasOwn(helpers, head.parts[0]!) || builtIns.includes(head.parts[0]!)));
      const evaluate = isCall ? call(m) : head.type === 'PathExpression' ? lookup(head) : undefined;
      if (!evaluate) return undefined;
      pieces.push(evaluate);
    } else return undefined;
  }
  const n = pieces.length;
  return (ctx) => {
    const data: Data = { root: ctx };
    let out = '';
    for (let i = 0; i < n; i++) {
      const piece = pieces[i]!;
      if (typeof piece === 'string') out += piece;
      else {
        const v = piece(ctx, data);
        if (v !== null && v !== undefined) out += v as string;
      }
    }
    return out;
  };
}
