import type * as z from 'zod';
import type { EndpointInput, Variation } from '../../core/model/endpoint.js';
import { ContentTypeSchema, HeadersSchema, PathSchema, StatusTextSchema } from '../../core/model/fields.js';
import { suggestEndpointName } from '../../core/naming.js';
import { proxyTargetProblem } from '../../core/proxy/target.js';
import { newId } from '../../core/ids.js';
import type { ImportNote } from '../converted.js';
import { cleanName } from '../openapi/import.js';
import type { Mapping } from './mapping.js';
import type { Answer } from './response.js';

/**
 * Mappings sharing a method and a path become one endpoint: in priority order (lower first; the
 * source's order for equal priorities), each mapping with conditions is a variation whose rules
 * are its conditions, and the first without any is the endpoint's own answer; mappings after it
 * are never reached in WireMock either and are skipped. When every mapping has conditions, the
 * endpoint answers what WireMock answers an unmatched request (404 "Request was not matched").
 */

/** WireMock's answer to a request no mapping matches. */
export const NOT_MATCHED = { status: 404, body: 'Request was not matched', contentType: 'text/plain' };

interface Placed {
  mapping: Mapping;
  method: string;
  /** mockdev's path: a template, or a proxy's `…/*`. */
  path: string;
  target?: string;
}

export interface Notes {
  approximate: ImportNote[];
  skipped: ImportNote[];
}

const note = (m: Mapping, message: string): ImportNote => ({
  method: m.method,
  path: m.route.shown,
  name: m.label,
  message,
});

/** Where a mapping goes (path, proxy target), or why it cannot; the approximate said in `lost`. */
function place(m: Mapping): { path: string; target?: string } | string {
  const { route, answer } = m;
  if (answer.proxyBaseUrl === undefined) {
    if (!route.prefix) return { path: route.path };
    const dir = route.path.replace(/\/+$/, '');
    if (dir === '')
      return 'it matches every path, and a mock endpoint needs a path (only a proxy endpoint takes /*)';
    m.lost.push(
      `a mock endpoint takes no wildcard: made as ${dir}/{path}, which matches one more path segment only`,
    );
    return { path: `${dir}/{path}` };
  }
  const base = answer.proxyBaseUrl.replace(/\/+$/, '');
  if (m.rules.length > 0 || route.conditions.lost.length > 0)
    m.lost.push('the proxy forwards every request to its path: the request conditions are not checked');
  const problem = proxyTargetProblem(answer.proxyBaseUrl);
  if (problem) return `proxyBaseUrl ${JSON.stringify(answer.proxyBaseUrl)} ${problem}`;
  const remove = answer.proxyUrlPrefixToRemove;
  if (!route.prefix) {
    if (remove) m.lost.push('proxyUrlPrefixToRemove is not applied: the upstream gets the whole path');
    return { path: route.path, target: base };
  }
  // A wildcard endpoint sends the target's path, then the rest after the prefix: the prefix goes into the target.
  const dir = route.path.replace(/\/+$/, '');
  const kept = remove && dir.startsWith(remove) ? dir.slice(remove.length) : dir;
  if (remove && !dir.startsWith(remove))
    m.lost.push('proxyUrlPrefixToRemove is not applied: the upstream gets the whole path');
  return { path: `${dir}/*`, target: `${base}${kept}` };
}

/**
 * The place, or why the mapping cannot be saved (a path with a space, a header value with a line
 * break…): checked once per mapping with the endpoint rules, so one bad mapping never fails the
 * whole import.
 */
function savable(m: Mapping, where: ReturnType<typeof place>): ReturnType<typeof place> {
  if (typeof where === 'string') return where;
  const a = m.answer;
  const checks: [string, z.ZodType, unknown][] = [
    ['path', PathSchema, where.path],
    ['headers', HeadersSchema, a.headers],
    ['contentType', ContentTypeSchema, a.contentType],
    ...(a.statusText !== undefined
      ? [['statusText', StatusTextSchema, a.statusText] as [string, z.ZodType, unknown]]
      : []),
  ];
  for (const [field, schema, value] of checks) {
    const parsed = schema.safeParse(value);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0]!;
    const at = [field, ...issue.path.map(String)];
    return `${at.join('.')} ${JSON.stringify(pathValue({ [field]: value }, at))}: ${issue.message}`;
  }
  return where;
}

function pathValue(value: unknown, path: PropertyKey[]): unknown {
  let at = value;
  for (const k of path)
    at = at === null || typeof at !== 'object' ? undefined : (at as Record<PropertyKey, unknown>)[k];
  return at;
}

function responseFields(a: Answer) {
  return {
    status: a.status,
    ...(a.statusText !== undefined ? { statusText: a.statusText } : {}),
    headers: a.headers,
    body: a.body,
    contentType: a.contentType,
    delay: a.delay,
    ...(a.fault !== undefined ? { fault: a.fault } : {}),
    ...(a.templating ? {} : { templating: false }),
  };
}

/** Names unique case-insensitively: `name`, else `name-2`, `name-3`, … (linear: one set). */
function namer(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    let candidate = name;
    for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${name.slice(0, 190)}-${i}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}

/** The endpoints of the mappings (already read), in the order their first mapping came. */
export function groupMappings(mappings: Mapping[], notes: Notes): EndpointInput[] {
  const groups = new Map<string, Placed[]>();
  const placedOnes: Mapping[] = [];
  for (const m of mappings) {
    const where = savable(m, place(m));
    if (typeof where === 'string') {
      notes.skipped.push(note(m, where));
      continue;
    }
    placedOnes.push(m);
    for (const method of m.route.methods) {
      const key = `${method} ${where.path}`;
      const list = groups.get(key) ?? [];
      if (list.length === 0) groups.set(key, list);
      list.push({ mapping: m, method, ...where });
    }
  }
  const endpointName = namer();
  const endpoints: EndpointInput[] = [];
  const used = new Set<Mapping>();
  for (const placed of groups.values()) {
    // Lower priority first; Array.prototype.sort is stable, so equal ones keep the source's order.
    placed.sort((a, b) => a.mapping.priority - b.mapping.priority);
    const made = endpointOf(placed, used);
    const first = made.own ?? placed[0]!;
    const named = first.mapping.name ? cleanName(first.mapping.name) : '';
    const suffix = named && first.mapping.route.methods.length > 1 ? ` (${first.method})` : '';
    made.endpoint.name = endpointName(
      named ? `${named}${suffix}` : suggestEndpointName(first.method, first.path),
    );
    endpoints.push(made.endpoint);
  }
  for (const m of placedOnes) {
    if (used.has(m)) for (const lost of new Set(m.lost)) notes.approximate.push(note(m, lost));
    else notes.skipped.push(note(m, SHADOWED));
  }
  return endpoints;
}

const SHADOWED =
  'never answered: another mapping of the same method and path answers first (one without conditions, or a proxy: a proxy endpoint has no variations)';

function endpointOf(placed: Placed[], used: Set<Mapping>): { endpoint: EndpointInput; own?: Placed } {
  const head = placed[0]!;
  if (head.target !== undefined) {
    used.add(head.mapping);
    return {
      own: head,
      endpoint: {
        method: head.method,
        path: head.path,
        kind: 'proxy',
        proxy: { target: head.target, record: false },
      },
    };
  }
  const variationName = namer();
  const variations: Variation[] = [];
  let own: Placed | undefined;
  for (const p of placed) {
    if (own !== undefined || p.target !== undefined) continue;
    used.add(p.mapping);
    if (p.mapping.rules.length === 0) {
      own = p;
      continue;
    }
    variations.push({
      id: newId(),
      name: variationName(cleanName(p.mapping.label) || `variation ${variations.length + 1}`),
      ...responseFields(p.mapping.answer),
      rules: p.mapping.rules,
    });
  }
  const answer = own ? responseFields(own.mapping.answer) : NOT_MATCHED;
  return {
    ...(own ? { own } : {}),
    endpoint: {
      method: head.method,
      path: head.path,
      ...answer,
      ...(variations.length ? { variations } : {}),
    },
  };
}
