import { endpointKey } from '../core/match/route-key.js';
import { pathParamNames } from '../core/match/router.js';
import type { Endpoint, EndpointInput, Variation } from '../core/model/endpoint.js';
import { faultText, formatDelay, hasDelay } from '../core/latency.js';
import { assertRouteFree, buildNamedEndpoint, checkEndpoint } from './endpoint-build.js';

/**
 * The one rule for an endpoint coming into a project, whoever brings it (`endpoint add`, MCP
 * `create_endpoint`, the OpenAPI and cURL imports): validated, given an id and a name unique in
 * the project; when its route (method + path, any parameter names) is taken, what `onClash` says:
 *   - `refuse`: CONFLICT naming the endpoint that has it (endpoint add, cURL import);
 *   - `skip`: left out (an import without --overwrite);
 *   - `update`: the existing endpoint takes what the incoming one describes and keeps what only
 *     mockdev has (import --overwrite; see updateFromIncoming);
 *   - `replace`: the incoming one takes its place whole, keeping only its id and name
 *     (import --replace).
 */

export type RouteClash = 'refuse' | 'skip' | 'update' | 'replace';

export type Placement =
  | { outcome: 'created'; endpoint: Endpoint }
  | { outcome: 'skipped'; endpoint: Endpoint; existing: Endpoint }
  | { outcome: 'updated'; endpoint: Endpoint; kept: string[] }
  | { outcome: 'replaced'; endpoint: Endpoint; dropped: string[] };

/** A project's endpoints as they take new ones: indexed by route and name, so thousands stay linear. */
export class EndpointList {
  #endpoints: Endpoint[];
  readonly #byKey = new Map<string, Endpoint>();
  readonly #names = new Set<string>();

  constructor(endpoints: Endpoint[]) {
    this.#endpoints = [...endpoints];
    for (const e of endpoints) {
      this.#byKey.set(endpointKey(e.method, e.path), e);
      this.#names.add(e.name.toLowerCase());
    }
  }

  get endpoints(): Endpoint[] {
    return this.#endpoints;
  }

  /** Adds an endpoint, or applies `onClash` when its route is taken; throws when it is invalid. */
  place(input: EndpointInput, onClash: RouteClash): Placement {
    const candidate = buildNamedEndpoint(input, this.#names);
    const key = endpointKey(candidate.method, candidate.path);
    const existing = this.#byKey.get(key);
    if (!existing) {
      this.#byKey.set(key, candidate);
      this.#names.add(candidate.name.toLowerCase());
      this.#endpoints.push(candidate);
      return { outcome: 'created', endpoint: candidate };
    }
    if (onClash === 'refuse') assertRouteFree([existing], candidate);
    if (onClash === 'skip') return { outcome: 'skipped', endpoint: candidate, existing };
    const { endpoint: updated, kept } = updateFromIncoming(existing, candidate, new Set(Object.keys(input)));
    const next = onClash === 'update' ? updated : { ...candidate, id: existing.id, name: existing.name };
    this.#endpoints = this.#endpoints.map((e) => (e.id === existing.id ? next : e));
    this.#byKey.set(key, next);
    return onClash === 'update'
      ? { outcome: 'updated', endpoint: next, kept }
      : { outcome: 'replaced', endpoint: next, dropped: kept };
  }
}

/** Fields of an endpoint that only mockdev has, kept unless the incoming input sets them. */
const MOCKDEV_FIELDS = [
  'statusText',
  'delay',
  'fault',
  'faultRate',
  'enabled',
  'kind',
  'proxy',
  'mode',
  'request',
] as const;

/** How a kept field is listed in a report. */
function describeField(e: Endpoint, field: (typeof MOCKDEV_FIELDS)[number]): string | undefined {
  switch (field) {
    case 'statusText':
      return e.statusText !== undefined ? `status text "${e.statusText}"` : undefined;
    case 'delay':
      return hasDelay(e.delay) ? `delay ${formatDelay(e.delay)}` : undefined;
    case 'fault':
      return e.fault !== undefined ? `fault ${faultText(e)}` : undefined;
    case 'faultRate':
      return undefined; // listed with the fault
    case 'enabled':
      return e.enabled ? undefined : 'disabled';
    case 'kind':
      return e.kind === 'proxy' ? 'kind proxy' : undefined;
    case 'proxy':
      return e.proxy ? `proxy settings (target ${e.proxy.target})` : undefined;
    case 'mode':
      return e.mode !== undefined ? `mode ${e.mode}` : undefined;
    case 'request':
      return e.request ? 'the captured cURL request' : undefined;
  }
}

/**
 * Headers the incoming response describes replace those of the same name (any case) where they
 * stood; the others stay, unless they came from the document before (a header definition the
 * last import kept, `fromDocument`) and the document no longer has them.
 */
function mergeResponseHeaders(
  existing: Record<string, string>,
  incoming: Record<string, string>,
  fromDocument: Set<string>,
  label: string,
  kept: string[],
): Record<string, string> {
  const lower = (k: string) => k.toLowerCase();
  const incomingNames = new Map(Object.keys(incoming).map((k) => [lower(k), k]));
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(existing)) {
    const replacing = incomingNames.get(lower(name));
    if (replacing !== undefined) {
      out.push([replacing, incoming[replacing]!]);
      incomingNames.delete(lower(name));
    } else if (!fromDocument.has(lower(name))) {
      out.push([name, value]);
      kept.push(`${label}header "${name}"`);
    }
  }
  for (const name of incomingNames.values()) out.push([name, incoming[name]!]);
  return Object.fromEntries(out);
}

/** Header names the last import took from the document for this status (lower case). */
const documentHeaders = (e: Endpoint, status: number): Set<string> =>
  new Set(Object.keys(e.openapi?.responseHeaders?.[String(status)] ?? {}).map((k) => k.toLowerCase()));

/** The incoming response with the existing one's id, name and the headers merged into it. */
function describedResponse<R extends Pick<Endpoint, 'id' | 'name' | 'status' | 'headers'>>(
  existing: R,
  incoming: R,
  owner: Endpoint,
  label: string,
  kept: string[],
): R {
  const headers = mergeResponseHeaders(
    existing.headers,
    incoming.headers,
    documentHeaders(owner, existing.status),
    label,
    kept,
  );
  return { ...incoming, id: existing.id, name: existing.name, headers };
}

/** A variation the document describes again: its response from the document, the rest kept. */
function updateVariation(
  existing: Variation,
  incoming: Variation,
  owner: Endpoint,
  kept: string[],
): Variation {
  const label = `variation "${existing.name}" `;
  const next = describedResponse(existing, incoming, owner, label, kept);
  if (incoming.rules === undefined && existing.rules?.length) {
    next.rules = existing.rules;
    kept.push(`${label}rules`);
  }
  if (incoming.delay === 0 && hasDelay(existing.delay)) {
    next.delay = existing.delay;
    kept.push(`${label}delay ${formatDelay(existing.delay)}`);
  }
  if (incoming.statusText === undefined && existing.statusText !== undefined) {
    next.statusText = existing.statusText;
    kept.push(`${label}status text "${existing.statusText}"`);
  }
  if (incoming.fault === undefined && existing.fault !== undefined) {
    next.fault = existing.fault;
    if (existing.faultRate !== undefined) next.faultRate = existing.faultRate;
    kept.push(`${label}fault ${faultText(existing)}`);
  }
  return next;
}

/**
 * The existing endpoint updated from an incoming one (built from a document): what the document
 * describes (status, body, content type, its headers, its variations by name, its OpenAPI facts,
 * and any mockdev field it sets: `described` are the keys its input gave) is taken; what only
 * mockdev has is kept and listed: the fields of MOCKDEV_FIELDS the input does not set, headers
 * and variations made by hand (and a variation's rules, delay and status text), the active
 * variation. The id and name stay.
 */
export function updateFromIncoming(
  existing: Endpoint,
  incoming: Endpoint,
  described: Set<string>,
): { endpoint: Endpoint; kept: string[] } {
  const kept: string[] = [];
  const next = describedResponse(existing, incoming, existing, '', kept);
  for (const field of MOCKDEV_FIELDS) {
    if (described.has(field)) continue;
    const label = describeField(existing, field);
    if (existing[field] === undefined) delete next[field];
    else (next as Record<string, unknown>)[field] = existing[field];
    if (label) kept.push(label);
  }

  // Variations by name (any case): described ones updated in place, hand-made ones kept.
  const incomingByName = new Map(incoming.variations.map((v) => [v.name.toLowerCase(), v]));
  const variations: Variation[] = [];
  const ids = new Map<string, string>(); // incoming id -> the id it keeps
  for (const v of existing.variations) {
    const match = incomingByName.get(v.name.toLowerCase());
    if (match) {
      variations.push(updateVariation(v, match, existing, kept));
      ids.set(match.id, v.id);
      incomingByName.delete(v.name.toLowerCase());
    } else {
      variations.push(v);
      kept.push(`variation "${v.name}"`);
    }
  }
  variations.push(...incomingByName.values());
  next.variations = variations;

  const active = described.has('activeVariationId') ? incoming.activeVariationId : existing.activeVariationId;
  const activeId = active !== undefined ? (ids.get(active) ?? active) : undefined;
  if (activeId !== undefined && variations.some((v) => v.id === activeId)) {
    next.activeVariationId = activeId;
    if (!described.has('activeVariationId'))
      kept.push(`active variation "${variations.find((v) => v.id === activeId)!.name}"`);
  } else delete next.activeVariationId;
  // Rules on path parameters name the existing path's: a document spelling them otherwise
  // (`{petId}` for `:id`, the same route) leaves the path as it was.
  const params = pathParamNames(next.path);
  const ruleParams = variations.flatMap((v) => (v.rules ?? []).filter((r) => r.source === 'param'));
  if (ruleParams.some((r) => !params.includes(r.key))) {
    next.path = existing.path;
    kept.push(`path ${existing.path} (variation rules name its parameters)`);
  }
  return { endpoint: checkEndpoint(next, existing), kept };
}
