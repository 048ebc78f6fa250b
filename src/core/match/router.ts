import { compileLinearCapture, type LinearCapture } from '../linear-regex.js';

/**
 * The compiled route matcher of the mock server (DECISIONS "Mock server behaviour").
 *
 * Endpoints are compiled into one segment tree per method. Matching walks the request path one
 * segment at a time, so its cost depends on the path's depth, not on how many endpoints exist:
 * a project of 1,000 endpoints matches as fast as one of 4.
 *
 * Rules, in order of precedence at each segment:
 *   1. a literal segment (`/api/users/me`),
 *   2. a segment mixing literals and parameters (`/Calls/{Sid}.json`, `/compare/{a}...{b}`),
 *      more literal characters first,
 *   3. a whole-segment parameter (`:id`, `{id}`, `{enterprise-team}`).
 * A more specific branch that dead-ends further down falls back to the next (backtracking).
 * A trailing slash and the query string never block a match. Disabled endpoints are skipped.
 * Literal segments compare percent-decoded: `/ü` matches the `/%C3%BC` every client sends.
 */

/** The minimal endpoint shape the matcher needs; any richer object is passed through. */
export interface RouteLike {
  method: string;
  path: string;
  enabled?: boolean;
}

export interface RouteMatch<E> {
  endpoint: E;
  params: Record<string, string>;
}

/** One piece of a path template segment. */
type Piece = { lit: string } | { param: string };

interface PatternChild<E> {
  /** Number of literal characters: more literal wins. */
  weight: number;
  /** RegExp with one parameter; with more, the linear-time engine (a backtracking one is polynomial there). */
  regex: RegExp | LinearCapture;
  node: Node<E>;
  source: string;
}

interface Node<E> {
  literal: Map<string, Node<E>> | undefined;
  patterns: PatternChild<E>[] | undefined;
  param: { name: string; node: Node<E> } | undefined;
  /** The endpoint ending here, with its own parameter names in path order ({id} vs :userId). */
  endpoint: { value: E; paramNames: string[] } | undefined;
  /** A final `/*` here: the node of the endpoint that takes every deeper path (proxy endpoints). */
  wild: Node<E> | undefined;
}

const newNode = <E>(): Node<E> => ({
  literal: undefined,
  patterns: undefined,
  param: undefined,
  endpoint: undefined,
  wild: undefined,
});

/** The name a wildcard's rest is captured under in RouteMatch.params. */
export const WILDCARD_PARAM = '*';

/** Characters allowed in a parameter name: `{enterprise-team}`, `{user_id}`, `{id}`, `:id`. */
const COLON_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const BRACE_PARAM = /\{([^{}]+)\}/g;

/** Splits one template segment into literal and parameter pieces. */
export function parseSegment(segment: string): Piece[] {
  const pieces: Piece[] = [];
  // Whole-segment colon parameter, including names with hyphens (`:enterprise-team`).
  if (/^:[^:{}]+$/.test(segment)) return [{ param: segment.slice(1) }];
  const re = new RegExp(`${BRACE_PARAM.source}|${COLON_PARAM.source}`, 'g');
  let last = 0;
  for (let m = re.exec(segment); m; m = re.exec(segment)) {
    if (m.index > last) pieces.push({ lit: segment.slice(last, m.index) });
    pieces.push({ param: (m[1] ?? m[2])!.trim() });
    last = m.index + m[0].length;
  }
  if (last < segment.length) pieces.push({ lit: segment.slice(last) });
  return pieces.length ? pieces : [{ lit: '' }];
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Splits a path into segments without the leading slash, a trailing slash and any query. */
export function splitPath(path: string): string[] {
  let end = path.length;
  const q = path.indexOf('?');
  if (q !== -1) end = q;
  const h = path.indexOf('#');
  if (h !== -1 && h < end) end = h;
  let start = path.charCodeAt(0) === 47 /* / */ ? 1 : 0;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  if (end <= start) return [];
  // Collapse leading duplicate slashes too ("//api/users").
  while (start < end && path.charCodeAt(start) === 47) start++;
  return path.slice(start, end).split('/');
}

const safeDecode = (s: string): string => {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A literal part of a mixed segment as a regex: as written, or percent-encoded as clients send
 * non-ASCII text and spaces (`{id}-ü` matches `7-%C3%BC`).
 */
const literalRegex = (lit: string): string => {
  let encoded: string;
  try {
    encoded = encodeURI(safeDecode(lit));
  } catch {
    encoded = lit; // a lone surrogate: only the text as written can match
  }
  return encoded === lit ? escapeRegex(lit) : `(?:${escapeRegex(lit)}|${escapeRegex(encoded)})`;
};

export interface CompiledRoutes<E extends RouteLike> {
  /** The endpoint answering METHOD PATH (path may carry a query string), with its parameters. */
  match(method: string, path: string): RouteMatch<E> | undefined;
  /** True when any enabled endpoint has this method (used for HEAD -> GET and OPTIONS). */
  hasMethod(method: string): boolean;
  /** The endpoints compiled in (enabled only), in their original order. */
  readonly endpoints: readonly E[];
}

/**
 * Compiles endpoints into a matcher. Disabled endpoints are left out. When two enabled endpoints
 * claim the same method and route, the first one listed wins.
 */
export function compileRoutes<E extends RouteLike>(endpoints: readonly E[]): CompiledRoutes<E> {
  const roots = new Map<string, Node<E>>();
  const enabled: E[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.enabled === false) continue;
    enabled.push(endpoint);
    const method = endpoint.method.toUpperCase();
    let node: Node<E> | undefined = roots.get(method);
    if (!node) roots.set(method, (node = newNode<E>()));
    const names: string[] = [];
    const segments = splitPath(endpoint.path);
    const wildcard = segments[segments.length - 1] === '*';
    if (wildcard) segments.pop();
    for (const segment of segments) {
      const pieces = parseSegment(segment);
      if (pieces.length === 1 && 'lit' in pieces[0]!) {
        // Kept decoded: a client sends `/ü/日本` as `/%C3%BC/%E6%97%A5%E6%9C%AC`.
        const lit = safeDecode(pieces[0].lit);
        node.literal ??= new Map();
        let next = node.literal.get(lit);
        if (!next) node.literal.set(lit, (next = newNode<E>()));
        node = next;
      } else if (pieces.length === 1 && 'param' in pieces[0]!) {
        // Endpoints sharing this position may name the parameter differently ({id} vs :userId):
        // the tree slot is shared and each endpoint keeps its own names (applied on a match).
        node.param ??= { name: pieces[0].param, node: newNode<E>() };
        names.push(pieces[0].param);
        node = node.param.node;
      } else {
        const key = pieces.map((p) => ('lit' in p ? `L:${p.lit}` : 'P')).join('\u0000');
        node.patterns ??= [];
        let child: PatternChild<E> | undefined = node.patterns.find((p) => p.source === key);
        if (!child) {
          const paramCount = pieces.filter((p) => 'param' in p).length;
          let seen = 0;
          const source = `^${pieces
            .map((p) => {
              if ('lit' in p) return literalRegex(p.lit);
              seen++;
              return seen === paramCount ? '(.+)' : '(.+?)';
            })
            .join('')}$`;
          // One parameter: V8 tries each split once (linear). Two or more: `^(.+?)-(.+)x$` over
          // `a-a-a-…` tries every pair of splits (a 4 KB segment took minutes), so RE2's engine.
          const regex = paramCount >= 2 ? compileLinearCapture(source) : new RegExp(source);
          child = {
            weight: pieces.reduce((n, p) => n + ('lit' in p ? p.lit.length : 0), 0),
            regex,
            node: newNode<E>(),
            source: key,
          };
          node.patterns.push(child);
          node.patterns.sort((a, b) => b.weight - a.weight);
        }
        for (const p of pieces) if ('param' in p) names.push(p.param);
        node = child.node;
      }
    }
    if (wildcard) {
      node.wild ??= newNode<E>();
      node = node.wild;
      names.push(WILDCARD_PARAM);
    }
    if (!node.endpoint) node.endpoint = { value: endpoint, paramNames: names };
  }

  const values: string[] = [];

  /** Depth-first walk with backtracking; fills `values` with the captured raw values. */
  const walk = (node: Node<E>, segments: string[], i: number): Node<E> | undefined => {
    if (i === segments.length) {
      if (node.endpoint) return node;
      if (node.wild) {
        values.push('');
        return node.wild;
      }
      return undefined;
    }
    const segment = segments[i]!;
    const mark = values.length;
    if (node.literal) {
      let next = node.literal.get(segment);
      if (!next && segment.indexOf('%') !== -1) next = node.literal.get(safeDecode(segment));
      if (next) {
        const found = walk(next, segments, i + 1);
        if (found) return found;
      }
    }
    if (node.patterns) {
      for (const p of node.patterns) {
        const m = p.regex.exec(segment);
        if (!m) continue;
        for (let k = 1; k < m.length; k++) values.push(m[k]!);
        const found = walk(p.node, segments, i + 1);
        if (found) return found;
        values.length = mark;
      }
    }
    if (node.param && segment !== '') {
      values.push(segment);
      const found = walk(node.param.node, segments, i + 1);
      if (found) return found;
      values.length = mark;
    }
    // A wildcard comes last: every literal or parameter route below this node beats it.
    if (node.wild) {
      values.length = mark;
      values.push(segments.slice(i).join('/'));
      return node.wild;
    }
    return undefined;
  };

  return {
    endpoints: enabled,
    hasMethod: (method) => roots.has(method.toUpperCase()),
    match(method, path) {
      const root = roots.get(method) ?? roots.get(method.toUpperCase());
      if (!root) return undefined;
      values.length = 0;
      const found = walk(root, splitPath(path), 0);
      if (!found || !found.endpoint) return undefined;
      const { value, paramNames } = found.endpoint;
      const params: Record<string, string> = {};
      for (let k = 0; k < paramNames.length; k++) params[paramNames[k]!] = safeDecode(values[k]!);
      return { endpoint: value, params };
    },
  };
}

/** What a mock endpoint's path with `*` is told (wildcards are for proxy endpoints only). */
export const NO_WILDCARD =
  'must not contain "*": wildcards are not supported; use a parameter such as /files/{name}';

/** Whether a path ends in the wildcard segment `/*` (a proxy endpoint's whole subtree). */
export const hasFinalWildcard = (path: string): boolean => /\/\*\/?$/.test(path);

/**
 * What is wrong with a path template, or undefined when the router can serve it: balanced
 * braces with a name inside, a name after every colon that starts one, each parameter named
 * once, and no `*` except a final `/*` segment (allowed here; only proxy endpoints may use it,
 * a rule of the endpoint: see `wildcardProblem`). Said as the end of "Invalid path …: …".
 */
export function pathTemplateProblem(path: string): string | undefined {
  const wildcard = hasFinalWildcard(path);
  const rest = wildcard ? path.replace(/\/\*\/?$/, '') : path;
  if (rest.includes('*')) {
    return wildcard
      ? 'may contain "*" only as its last segment ("/api/*"), and only on a proxy endpoint'
      : NO_WILDCARD;
  }
  const seen = new Set<string>();
  for (const segment of splitPath(rest)) {
    const outside = segment.replace(BRACE_PARAM, (whole, name: string) => (name.trim() ? '' : whole));
    if (/\{\s*\}/.test(outside)) return `has an empty parameter "{}" in "${segment}"; name it, e.g. {id}`;
    if (/[{}]/.test(outside)) {
      return `has an unbalanced "{" or "}" in "${segment}"; write a parameter as {id} or :id`;
    }
    if (outside.endsWith(':')) {
      return `has a ":" with no parameter name after it in "${segment}"; write a parameter as :id or {id}`;
    }
    for (const piece of parseSegment(segment)) {
      if (!('param' in piece)) continue;
      if (seen.has(piece.param)) {
        return `uses the parameter "${piece.param}" twice; give each parameter its own name`;
      }
      seen.add(piece.param);
    }
  }
  return undefined;
}

/**
 * The endpoint rule on wildcards: only a proxy endpoint's path may end in `/*`. Said as the end
 * of "Invalid path …: …"; undefined when the path is fine for this kind.
 */
export function wildcardProblem(kind: string, path: string): string | undefined {
  return kind !== 'proxy' && hasFinalWildcard(path) ? NO_WILDCARD : undefined;
}

/** The parameter names of a path template, in order: `/users/{id}/posts/:postId` -> id, postId. */
export function pathParamNames(path: string): string[] {
  return splitPath(path).flatMap((segment) =>
    parseSegment(segment).flatMap((piece) => ('param' in piece ? [piece.param] : [])),
  );
}
