import { compileRoutes, splitPath, type CompiledRoutes } from '../match/router.js';
import type { ContractDialect } from '../model/contract.js';

/**
 * Which operation a logged request is: its path after the prefix a `servers` URL (3.x) or the
 * `basePath` (2.0) puts before every path, matched against the path templates with the mock
 * server's own router (literal segments before templated ones). A server URL's variables
 * (`/api/{version}`) match any segment, or only their `enum`. The path as logged is tried too,
 * without a prefix: an imported project serves the paths as the document writes them.
 * A HEAD request with no HEAD operation is its GET's.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A prefix segment: literal text, or a server variable (any value, or one of its enum). */
type PrefixSegment = string | { values?: string[] };

/** `:` is a literal in OpenAPI templates but a parameter to the router: kept out of its sight. */
const COLON = '\uE000';

export interface OperationMatch<O> {
  op: O;
  /** Path parameters by name, percent-decoded. */
  params: Record<string, string>;
}

export interface OperationMatcher<O> {
  match(method: string, path: string): OperationMatch<O> | undefined;
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The path of a server URL (`https://api.example.com/v1` → `/v1`), its variables kept. */
function serverPath(url: string): string {
  let rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (rest.startsWith('//')) rest = rest.replace(/^\/\/[^/]*/, '');
  return rest.split(/[?#]/)[0]!;
}

function prefixesOf(doc: Obj, dialect: ContractDialect): PrefixSegment[][] {
  const paths: { path: string; vars: Obj }[] = [];
  if (dialect === '2.0') {
    if (typeof doc.basePath === 'string') paths.push({ path: doc.basePath, vars: {} });
  } else if (Array.isArray(doc.servers)) {
    for (const s of doc.servers) {
      if (isObj(s) && typeof s.url === 'string')
        paths.push({ path: serverPath(s.url), vars: isObj(s.variables) ? s.variables : {} });
    }
  }
  const out: PrefixSegment[][] = [];
  for (const { path, vars } of paths) {
    const segs: PrefixSegment[] = splitPath(path).map((seg) => {
      const m = /^\{([^{}]+)\}$/.exec(seg);
      if (!m) return safeDecode(seg);
      const v = vars[m[1]!];
      const values = isObj(v) && Array.isArray(v.enum) ? v.enum.map(String) : undefined;
      return values ? { values } : {};
    });
    if (segs.length && !out.some((o) => JSON.stringify(o) === JSON.stringify(segs))) out.push(segs);
  }
  // Longest first: `/api/v2` before `/api`.
  return out.sort((a, b) => b.length - a.length);
}

const prefixMatches = (prefix: PrefixSegment[], segs: string[]): boolean => {
  if (segs.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const p = prefix[i]!;
    const s = segs[i]!;
    if (typeof p === 'string') {
      if (p !== s && p !== safeDecode(s)) return false;
    } else if (s === '' || (p.values && !p.values.includes(safeDecode(s)))) return false;
  }
  return true;
};

export function operationMatcher<O extends { method: string; path: string }>(
  doc: Obj,
  dialect: ContractDialect,
  ops: O[],
): OperationMatcher<O> {
  const routes: CompiledRoutes<{ method: string; path: string; op: O }> = compileRoutes(
    ops.map((op) => ({ method: op.method, path: op.path.replaceAll(':', COLON), op })),
  );
  const prefixes = prefixesOf(doc, dialect);
  const hasHead = routes.hasMethod('HEAD');

  const find = (method: string, path: string): OperationMatch<O> | undefined => {
    const m = routes.match(method, path);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.params))
      params[k.replaceAll(COLON, ':')] = v.replaceAll(COLON, ':');
    return { op: m.endpoint.op, params };
  };

  const tryAll = (method: string, path: string): OperationMatch<O> | undefined => {
    if (prefixes.length) {
      const segs = splitPath(path);
      for (const prefix of prefixes) {
        if (!prefixMatches(prefix, segs)) continue;
        const found = find(method, `/${segs.slice(prefix.length).join('/')}`);
        if (found) return found;
      }
    }
    return find(method, path);
  };

  return {
    match(method, rawPath) {
      const path = rawPath.includes(':') ? rawPath.replaceAll(':', COLON) : rawPath;
      const m = method.toUpperCase();
      const found = tryAll(m, path);
      if (found || m !== 'HEAD' || hasHead) return found;
      return tryAll('GET', path);
    },
  };
}
