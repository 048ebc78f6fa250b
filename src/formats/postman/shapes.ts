/**
 * Reading the pieces of a Postman collection (v2.0 and v2.1) the way Postman writes them, each
 * tolerant of the shapes either version allows: a URL as text or as an object (`raw`, `host`,
 * `path` as a list or as text, `query`), headers as a list of `{key, value, disabled}` or (v2.0)
 * as `Name: value` lines, descriptions as text or `{content}`. Pure.
 */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** A description as text: a string, or the `content` of `{content, type}`; else undefined. */
export function describedText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObj(v) && typeof v.content === 'string') return v.content;
  return undefined;
}

/** A scalar as text (Postman stores numbers and booleans in values too); else undefined. */
export function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export interface Pair {
  key: string;
  value: string;
}

/**
 * The enabled `{key, value}` pairs of a header or query list (`disabled: true` left out), in
 * order; v2.0's header text (`Name: value` lines) read as such. Anything else: none.
 */
export function readPairs(list: unknown): Pair[] {
  if (typeof list === 'string') {
    return list.split(/\r?\n/).flatMap((line) => {
      const colon = line.indexOf(':');
      if (colon <= 0) return [];
      return [{ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() }];
    });
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((p) => {
    if (!isObj(p) || p.disabled === true) return [];
    const key = scalarText(p.key) ?? scalarText(p.name);
    if (key === undefined) return [];
    return [{ key, value: scalarText(p.value) ?? '' }];
  });
}

/** What an endpoint needs of a request's URL: its path segments (as written) and its query. */
export interface ReadUrl {
  segments: string[];
  query: Pair[];
}

/** `a=1&b=two` -> pairs (a key without `=` has the value ''), not decoded: Postman keeps text raw. */
function queryPairs(text: string): Pair[] {
  return text
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq === -1 ? { key: p, value: '' } : { key: p.slice(0, eq), value: p.slice(eq + 1) };
    });
}

/**
 * A raw URL (`{{baseUrl}}/users/:id?x=1`, `https://api.example.com/users`, `/users`) as path
 * segments and query: the scheme and the host (a `{{variable}}` standing for the base URL
 * included) are left out, the fragment too.
 */
function readRawUrl(raw: string): ReadUrl {
  let rest = raw.trim();
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const query = q === -1 ? [] : queryPairs(rest.slice(q + 1));
  if (q !== -1) rest = rest.slice(0, q);
  rest = rest.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, '');
  if (!rest.startsWith('/')) {
    const slash = rest.indexOf('/');
    rest = slash === -1 ? '' : rest.slice(slash);
  }
  return { segments: rest.split('/').filter((s) => s !== ''), query };
}

/** A `path` of a URL object: a list of texts (or v2.0's `{value}` objects), or text. */
function pathSegments(path: unknown): string[] {
  if (typeof path === 'string') return path.split('/').filter((s) => s !== '');
  if (!Array.isArray(path)) return [];
  return path
    .map((s) => scalarText(s) ?? (isObj(s) ? scalarText(s.value) : undefined) ?? '')
    .flatMap((s) => s.split('/'))
    .filter((s) => s !== '');
}

/**
 * A request's URL (text or object) as path segments and query. An object's `path` and `query`
 * are what Postman itself sends; without them its `raw` is read.
 */
export function readUrl(url: unknown): ReadUrl {
  if (typeof url === 'string') return readRawUrl(url);
  if (!isObj(url)) return { segments: [], query: [] };
  const fromRaw = typeof url.raw === 'string' ? readRawUrl(url.raw) : undefined;
  const segments = url.path !== undefined ? pathSegments(url.path) : (fromRaw?.segments ?? []);
  const query = Array.isArray(url.query) ? readPairs(url.query) : (fromRaw?.query ?? []);
  return { segments, query };
}

/** A name in a path template: what our router takes between braces. */
const cleanParam = (name: string): string => name.trim().replace(/[{}/]/g, '');

/**
 * One URL segment as a segment of our path template: `:id` -> `{id}`, `{{userId}}` (anywhere in
 * the segment) -> `{userId}`; `param` is the parameter's name when the whole segment is one.
 */
export function templateSegment(segment: string): { text: string; param?: string } {
  const colon = /^:([^:{}]+)$/.exec(segment);
  if (colon) {
    const name = cleanParam(colon[1]!);
    return { text: `{${name}}`, param: name };
  }
  const whole = /^\{\{([^{}]+)\}\}$/.exec(segment);
  if (whole) {
    const name = cleanParam(whole[1]!);
    return { text: `{${name}}`, param: name };
  }
  return { text: segment.replace(/\{\{([^{}]+)\}\}/g, (_, name: string) => `{${cleanParam(name)}}`) };
}
