import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { endpointKey } from '../core/match/route-key.js';
import { pathParamNames, wildcardProblem } from '../core/match/router.js';
import {
  EndpointInputSchema,
  EndpointPatchSchema,
  EndpointSchema,
  mergeProxySettings,
  type Endpoint,
  type EndpointInput,
  type EndpointPatch,
} from '../core/model/endpoint.js';
import { assertRulesSavable } from '../core/model/rules.js';
import { suggestEndpointName, uniqueName } from '../core/naming.js';
import { assertTemplate } from '../core/templates/engine.js';
import { parseInput } from '../core/validate.js';
import { assertSomethingToChange } from './projects.js';

/**
 * Building and checking endpoints, without a store: an input validated into an endpoint (an id,
 * a unique name, the endpoint rules), a patch applied, a route checked free. The use cases
 * (endpoints.ts, variations.ts, the imports) call these inside a store update.
 */
const describe = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path}`;

/** Refuses an endpoint whose method + path (with any parameter names) is already taken. */
export function assertRouteFree(
  endpoints: Endpoint[],
  candidate: Pick<Endpoint, 'method' | 'path'>,
  exceptId?: string,
): void {
  const key = endpointKey(candidate.method, candidate.path);
  const clash = endpoints.find((e) => e.id !== exceptId && endpointKey(e.method, e.path) === key);
  if (clash) {
    throw new MockdevError(
      'CONFLICT',
      `${describe(candidate)} clashes with endpoint "${clash.name}" (${describe(clash)}, id ${clash.id})`,
      {
        hint: 'Update or remove the existing endpoint, or use another method or path',
        details: { existingId: clash.id },
      },
    );
  }
}

/**
 * Validates an input and gives it an id and a name unique among `names` (lower-cased, as a
 * set, so that thousands of endpoints stay linear; `names` is not changed), then checks the
 * endpoint rules (checkEndpoint).
 */
export function buildNamedEndpoint(input: EndpointInput, names: Set<string>): Endpoint {
  const parsed = parseInput(EndpointInputSchema, input, 'endpoint');
  const wanted = parsed.name ?? suggestEndpointName(parsed.method, parsed.path);
  const name = names.has(wanted.toLowerCase()) ? uniqueName(wanted, names) : wanted;
  return checkEndpoint({ ...parsed, id: newId(), name });
}

/**
 * What means "the default" is left out (of the endpoint and of each variation), so the stored
 * JSON has a key only when it says something: an empty status text (the standard reason phrase)
 * and `templating: true` (templates render).
 */
function withoutDefaults<T extends { statusText?: unknown; templating?: unknown; variations?: unknown }>(
  e: T,
): T {
  const drop = <R extends { statusText?: unknown; templating?: unknown }>(r: R): R => {
    if (r.statusText !== '' && r.templating !== true) return r;
    const copy = { ...r };
    if (copy.statusText === '') delete copy.statusText;
    if (copy.templating === true) delete copy.templating;
    return copy;
  };
  const out = drop(e);
  return Array.isArray(out.variations)
    ? { ...out, variations: (out.variations as { statusText?: unknown; templating?: unknown }[]).map(drop) }
    : out;
}

/**
 * Every template of an endpoint compiles (status text, body, header values, proxy target, the
 * same of each variation, unless that response has templating off): one that does not is refused
 * with its line and column (docs/templates.md).
 */
export function assertTemplates(
  e: Pick<Endpoint, 'statusText' | 'body' | 'headers' | 'templating' | 'proxy' | 'variations'>,
): void {
  const check = (
    r: Pick<Endpoint, 'statusText' | 'headers' | 'templating'> & { body?: string },
    where: string,
  ) => {
    if (r.templating === false) return; // sent as written: not a template
    if (r.statusText) assertTemplate(r.statusText, `${where}statusText`);
    if (r.body !== undefined) assertTemplate(r.body, `${where}body`); // a variation's: unset is the endpoint's
    for (const [name, value] of Object.entries(r.headers)) assertTemplate(value, `${where}header "${name}"`);
  };
  check(e, '');
  if (e.proxy) assertTemplate(e.proxy.target, 'proxy.target');
  for (const v of e.variations) check(v, `variation "${v.name}" `);
}

/** Only a proxy endpoint's path may end in `/*` (it forwards the whole subtree). */
function assertWildcardAllowed(e: Pick<Endpoint, 'kind' | 'path'>): void {
  const problem = wildcardProblem(e.kind, e.path);
  if (problem) {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid path ${JSON.stringify(e.path)}: ${problem}`, {
      details: { field: 'path', value: e.path },
    });
  }
}

/** A variation rule on a path parameter names one the path has (else it could never match). */
function assertRulesFitPath(e: Pick<Endpoint, 'method' | 'path' | 'variations'>): void {
  const params = pathParamNames(e.path);
  for (const v of e.variations) {
    const rule = v.rules?.find((r) => r.source === 'param' && !params.includes(r.key));
    if (!rule) continue;
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Variation "${v.name}" has a rule on path parameter "${rule.key}", which ${e.method} ${e.path} does not have`,
      {
        hint: params.length ? `Its parameters: ${params.join(', ')}` : 'Its path has no parameters',
        details: { field: 'rules', value: rule.key },
      },
    );
  }
}

/** Builds a list of new endpoints, refusing duplicates among them. */
export function buildEndpoints(inputs: EndpointInput[]): Endpoint[] {
  const out: Endpoint[] = [];
  const keys = new Set<string>();
  const names = new Set<string>();
  for (const input of inputs) {
    // Checking against sets keeps large imports (thousands of operations) linear.
    const endpoint = buildNamedEndpoint(input, names);
    const key = endpointKey(endpoint.method, endpoint.path);
    if (keys.has(key)) assertRouteFree(out, endpoint);
    keys.add(key);
    names.add(endpoint.name.toLowerCase());
    out.push(endpoint);
  }
  return out;
}

/** Applies a patch to an endpoint found by ref; `null` removes an optional field. */
export function applyEndpointPatch(endpoint: Endpoint, patch: EndpointPatch): Endpoint {
  const parsed = parseInput(EndpointPatchSchema, patch, 'endpoint');
  assertSomethingToChange(parsed, Object.keys(EndpointPatchSchema.shape));
  const merged: Record<string, unknown> = { ...endpoint };
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (key === 'headers') merged.headers = mergeHeaders(endpoint, parsed.headers!);
    else if (key === 'proxy' && value !== null) merged.proxy = mergeProxySettings(endpoint, parsed.proxy!);
    else if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return checkEndpoint(merged, endpoint);
}

/**
 * An endpoint made of another and some change (a patch, an import's update) checked as a new one
 * is: the schema, a proxy's target, a wildcard path, rules that fit the path and that the
 * linear-time engine can run (those `before` already had are not checked again), templates,
 * the active variation.
 */
export function checkEndpoint(merged: Record<string, unknown> | Endpoint, before?: Endpoint): Endpoint {
  const next = EndpointSchema.parse(withoutDefaults(merged));
  if (next.kind === 'proxy' && !next.proxy) {
    throw new MockdevError('INVALID_ARGUMENT', 'A proxy endpoint needs a proxy target', {
      hint: 'Give proxy.target, e.g. https://api.example.com',
    });
  }
  assertWildcardAllowed(next);
  assertRulesFitPath(next);
  assertRulesSavable(next.variations, before?.variations);
  assertTemplates(next);
  if (next.activeVariationId && !next.variations.some((v) => v.id === next.activeVariationId)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Variation "${next.activeVariationId}" does not exist on endpoint "${next.name}"`,
      {
        hint: `Use one of: ${next.variations.map((v) => v.id).join(', ') || '(no variations)'}`,
      },
    );
  }
  return next;
}

/**
 * A header change: each named header is added, or replaces the one of the same name (in any
 * case) where it stood; `null` removes it, and naming a header the endpoint lacks is an error.
 */
export function mergeHeaders(
  endpoint: Pick<Endpoint, 'name' | 'headers'>,
  changes: Record<string, string | null>,
): Record<string, string> {
  const entries = Object.entries(endpoint.headers);
  for (const [name, value] of Object.entries(changes)) {
    const at = entries.findIndex(([k]) => k.toLowerCase() === name.toLowerCase());
    if (value !== null) {
      if (at === -1) entries.push([name, value]);
      else entries[at] = [name, value];
    } else if (at !== -1) {
      entries.splice(at, 1);
    } else {
      const names = entries.map(([k]) => k);
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Endpoint "${endpoint.name}" has no header "${name}" to remove`,
        { hint: names.length ? `Its headers: ${names.join(', ')}` : 'It has no headers' },
      );
    }
  }
  return Object.fromEntries(entries);
}
