import { newId } from '../../core/ids.js';
import type { EndpointInput, Variation } from '../../core/model/endpoint.js';
import { NAME_MAX } from '../../core/model/limits.js';
import { pathTemplateProblem, splitPath } from '../../core/match/router.js';
import { suggestEndpointName } from '../../core/naming.js';
import type { ImportNote } from '../converted.js';
import { answerKey, answerOf, type Answer } from './answer.js';
import type { HarEntry } from './read.js';
import { queryRules } from './rules.js';

/**
 * The entries of one host into endpoints: one per method and path (as the router sees it: a
 * trailing slash does not count), a variation per distinct answer (status, content type
 * and body; the headers are the first such answer's), chosen by `query.` rules
 * from the query strings it was recorded with. The endpoint's own answer is the one recorded
 * with the fewest query parameters (the first of those): the plainest request gets it. Linear
 * in the entries: each is looked up in maps, never compared with the others.
 */

interface Recorded {
  answer: Answer;
  /** The distinct query strings it was recorded with, parsed, and the fewest parameters of any. */
  queries: URLSearchParams[];
  seen: Set<string>;
  fewest: number;
}

interface Group {
  method: string;
  path: string;
  answers: Map<string, Recorded>;
}

/** Characters the router reads as parameters or a wildcard, percent-encoded: literal segments compare decoded. */
const ROUTER_SIGNS = /[:*{}]/g;
const encodeSign = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A recorded path as an endpoint path matching it literally, and the key of its route. */
function routeOf(pathname: string): { path: string; key: string } {
  const segments = splitPath(pathname.replace(ROUTER_SIGNS, encodeSign));
  return { path: `/${segments.join('/')}`, key: segments.map(decoded).join('/') };
}

/** Names unique case-insensitively (`name`, `name-2`, …): each base remembers its next suffix, so a thousand alike stay linear. */
class Names {
  readonly #taken = new Set<string>();
  readonly #next = new Map<string, number>();
  take(name: string): string {
    const base = name.toLowerCase();
    let candidate = name;
    let i = this.#next.get(base) ?? 2;
    while (this.#taken.has(candidate.toLowerCase())) {
      const suffix = `-${i++}`;
      candidate = `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    }
    this.#next.set(base, i);
    this.#taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** A variation's name from its query string (`page=2&sort=asc`), else its status. */
function variationLabel(r: Recorded): string {
  const query = r.queries[0]?.toString() ?? '';
  const text = decoded(query.replace(/\+/g, ' '))
    .replace(/[/\\]/g, '-')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, NAME_MAX - 4);
  return text && text !== '.' && text !== '..' ? text : String(r.answer.status);
}

const paramCount = (q: URLSearchParams): number => {
  let n = 0;
  for (const _ of q.keys()) n++;
  return n;
};

function groupEntries(entries: readonly HarEntry[], skipped: ImportNote[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const entry of entries) {
    const answer = answerOf(entry.response);
    if ('skip' in answer) {
      skipped.push({ method: entry.method, path: entry.url.pathname, message: answer.skip });
      continue;
    }
    const route = routeOf(entry.url.pathname);
    const problem = pathTemplateProblem(route.path);
    if (problem) {
      skipped.push({ method: entry.method, path: entry.url.pathname, message: `path ${problem}` });
      continue;
    }
    const key = `${entry.method} ${route.key}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { method: entry.method, path: route.path, answers: new Map() }));
    const ak = answerKey(answer);
    let recorded = group.answers.get(ak);
    if (!recorded)
      group.answers.set(ak, (recorded = { answer, queries: [], seen: new Set(), fewest: Infinity }));
    if (recorded.seen.has(entry.url.search)) continue;
    recorded.seen.add(entry.url.search);
    recorded.queries.push(entry.url.searchParams);
    recorded.fewest = Math.min(recorded.fewest, paramCount(entry.url.searchParams));
  }
  return groups;
}

/** The response fields of an answer, as an endpoint's or a variation's (text sent as written). */
const responseOf = (a: Answer) => ({
  status: a.status,
  headers: a.headers,
  body: a.body,
  ...(a.contentType !== undefined ? { contentType: a.contentType } : {}),
  templating: false as const,
});

function endpointOf(group: Group, name: string, approximate: ImportNote[]): EndpointInput {
  const where = { method: group.method, path: group.path, name };
  const recorded = [...group.answers.values()];
  let main = recorded[0]!;
  for (const r of recorded) if (r.fewest < main.fewest) main = r;
  for (const lost of main.answer.lost) approximate.push({ ...where, message: lost });
  const names = new Names();
  const variations: Variation[] = [];
  let unruled = 0;
  for (const r of recorded) {
    if (r === main) continue;
    const { rules, lost } = queryRules(r.queries);
    const vname = names.take(variationLabel(r));
    for (const why of [...r.answer.lost, ...lost])
      approximate.push({ ...where, message: `variation "${vname}": ${why}` });
    if (!rules.length) unruled++;
    variations.push({
      id: newId(),
      name: vname,
      ...responseOf(r.answer),
      delay: 0,
      ...(rules.length ? { rules } : {}),
    });
  }
  if (unruled)
    approximate.push({
      ...where,
      message: `${unruled} answer(s) recorded for the same query string as another: their variations have no rules (chosen by X-Mockdev-Variation, or made active)`,
    });
  // The more rules, the more specific: checked first (the first variation whose rules all match answers).
  variations.sort((a, b) => (b.rules?.length ?? 0) - (a.rules?.length ?? 0));
  return { name, method: group.method, path: group.path, ...responseOf(main.answer), variations };
}

/** The endpoints of one host's entries; entries without an answer are skipped, losses noted. */
export function harEndpoints(
  entries: readonly HarEntry[],
  approximate: ImportNote[],
  skipped: ImportNote[],
): EndpointInput[] {
  const names = new Names();
  return [...groupEntries(entries, skipped).values()].map((group) =>
    endpointOf(group, names.take(suggestEndpointName(group.method, group.path)), approximate),
  );
}
