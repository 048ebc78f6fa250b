import { compileLinearRegex, LinearRegexError } from '../core/linear-regex.js';
import { compileRoutes, parseSegment, splitPath } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { formatRule, type Rule } from '../core/model/rules.js';
import { variationResponse, type ResponseFields } from '../core/model/variation-response.js';
import type { ResponsePlan } from './compile.js';
import { bodyJson, NOT_JSON, type Exchange } from './exchange.js';

/**
 * Choosing among an endpoint's default response and its variations, compiled once per endpoint
 * change (compile.ts): plans are built, regexes compiled and names indexed up front, so a
 * request only evaluates. In order:
 *   1. `X-Mockdev-Variation: <name or id>` on the request picks that variation (an unknown one
 *      is ignored: the request is answered as if the header were absent);
 *   2. the active variation, if set;
 *   3. by the endpoint's mode: `rules` (default) the first variation all of whose rules match,
 *      else the default response; `sequential` the default, then each variation in order, round
 *      and round (one counter per endpoint, restarted when the endpoints are reloaded);
 *      `random` the default or any variation, each as likely.
 * A variation without rules is never chosen by rules (imported OpenAPI responses stay out of the
 * way until activated or named). Regexes run in linear time (core/linear-regex.ts); a stored one
 * the engine cannot run (saved by an earlier mockdev, or a hand edit: saving refuses it) never
 * matches, and `warn` is told once per load.
 */

export const VARIATION_HEADER = 'x-mockdev-variation';

/** What rules read of a request, each part worked out at most once and only when a rule asks. */
interface RequestView {
  query?: URLSearchParams;
  params?: Record<string, string>;
  segments?: string[];
}

type Test = (value: string) => boolean;
type CompiledRule = (ex: Exchange, view: RequestView) => boolean;

/** Told of a rule that can never match (its pattern cannot run), once per load. */
export type CompileWarning = (message: string) => void;

function valueTest(rule: Rule, refused: (why: string) => void): Test {
  if (rule.op === 'exists') return () => true;
  const wanted = rule.value ?? '';
  if (rule.op === 'equals') return (v) => v === wanted;
  try {
    const re = compileLinearRegex(wanted);
    return (v) => re.test(v);
  } catch (e) {
    if (!(e instanceof LinearRegexError)) throw e;
    refused(e.message);
    return () => false;
  }
}

/** A JSON value as rules compare it: strings as they are, anything else as JSON (`2`, `true`). */
const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function bodyAt(body: unknown, path: string[]): unknown {
  let at: unknown = body;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function compileRule(rule: Rule, endpoint: Endpoint, refused: (why: string) => void): CompiledRule {
  const test = valueTest(rule, refused);
  switch (rule.source) {
    case 'query': {
      const key = rule.key;
      return (ex, view) => {
        if (view.query === undefined) {
          const q = ex.url.indexOf('?');
          view.query = new URLSearchParams(q === -1 ? '' : ex.url.slice(q + 1));
        }
        return view.query.getAll(key).some(test);
      };
    }
    case 'header': {
      const name = rule.key.toLowerCase();
      return (ex) => {
        const raw = ex.req.rawHeaders;
        for (let i = 0; i < raw.length; i += 2)
          if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name && test(raw[i + 1]!))
            return true;
        return false;
      };
    }
    case 'param': {
      const key = rule.key;
      // A whole-segment parameter (`:id`, `{id}`) is the request path's segment at its index.
      const template = splitPath(endpoint.path).map(parseSegment);
      const at = template.findIndex((pieces) => {
        const only = pieces.length === 1 ? pieces[0]! : undefined;
        return only !== undefined && 'param' in only && only.param === key;
      });
      if (at !== -1)
        return (ex, view) => {
          view.segments ??= splitPath(ex.url);
          const raw = view.segments[at];
          return raw !== undefined && test(decodeSegment(raw));
        };
      // Otherwise the endpoint's own route reads the parameters from the URL.
      const route = compileRoutes([{ method: endpoint.method, path: endpoint.path, enabled: true }]);
      return (ex, view) => {
        view.params ??= route.match(endpoint.method, ex.url)?.params ?? {};
        const v = view.params[key];
        return v !== undefined && test(v);
      };
    }
    case 'body': {
      const path = rule.key.split('.');
      return (ex) => {
        const body = bodyJson(ex);
        if (body === NOT_JSON) return false;
        const v = bodyAt(body, path);
        return v !== undefined && test(asText(v));
      };
    }
  }
}

function decodeSegment(s: string): string {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** How a mock endpoint chooses its response, and whether choosing or answering reads the body as JSON. */
export interface Choice {
  choose: (ex: Exchange) => ResponsePlan;
  /** A rule in force reads the body, or a response's template does (pipeline.ts parses a large one ahead). */
  readsJson: boolean;
}

/**
 * The choice of a mock endpoint: `plan(response)` builds the plan of the default response or of a
 * variation (once, here).
 */
export function compileChoice(
  e: Endpoint,
  plan: (r: ResponseFields) => ResponsePlan,
  warn?: CompileWarning,
): Choice {
  const fallback = plan(e);
  if (e.variations.length === 0) return { choose: () => fallback, readsJson: fallback.readsJson === true };
  // A variation's unset body, content type and headers are the endpoint's (variation-response.ts).
  // Each plan says which variation it is, for the request log (one object, made here).
  const plans = e.variations.map((v) => ({
    ...plan(variationResponse(e, v)),
    variation: { id: v.id, name: v.name },
  }));
  const byRef = new Map<string, ResponsePlan>();
  // Ids first, names (any case) after: a name never hides an id.
  e.variations.forEach((v, i) => byRef.set(v.id, plans[i]!));
  e.variations.forEach((v, i) => {
    if (!byRef.has(v.name.toLowerCase())) byRef.set(v.name.toLowerCase(), plans[i]!);
  });
  const named = (ex: Exchange): ResponsePlan | undefined => {
    const raw = ex.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length === VARIATION_HEADER.length && raw[i]!.toLowerCase() === VARIATION_HEADER) {
        const ref = raw[i + 1]!.trim();
        return byRef.get(ref) ?? byRef.get(ref.toLowerCase());
      }
    }
    return undefined;
  };

  const activeAt = e.activeVariationId ? e.variations.findIndex((v) => v.id === e.activeVariationId) : -1;
  let otherwise: (ex: Exchange) => ResponsePlan;
  let rulesReadJson = false;
  if (activeAt !== -1) {
    const active = plans[activeAt]!;
    otherwise = () => active;
  } else if (e.mode === 'sequential') {
    const cycle = [fallback, ...plans];
    let next = 0;
    otherwise = () => {
      const p = cycle[next]!;
      next = (next + 1) % cycle.length;
      return p;
    };
  } else if (e.mode === 'random') {
    const all = [fallback, ...plans];
    otherwise = () => all[Math.floor(Math.random() * all.length)]!;
  } else {
    const candidates = e.variations
      .map((v, i) => ({
        rules: (v.rules ?? []).map((r) =>
          compileRule(r, e, (why) =>
            warn?.(
              `Endpoint "${e.name}" (${e.method} ${e.path}), variation "${v.name}": the rule ${formatRule(r)} never matches: ${why}. Change or remove the rule`,
            ),
          ),
        ),
        plan: plans[i]!,
      }))
      .filter((c) => c.rules.length > 0);
    rulesReadJson = e.variations.some((v) => v.rules?.some((r) => r.source === 'body'));
    if (candidates.length === 0) otherwise = () => fallback;
    else
      otherwise = (ex) => {
        const view: RequestView = {};
        for (const c of candidates) {
          let all = true;
          for (const rule of c.rules) {
            if (!rule(ex, view)) {
              all = false;
              break;
            }
          }
          if (all) return c.plan;
        }
        return fallback;
      };
  }
  return {
    choose: (ex) => named(ex) ?? otherwise(ex),
    readsJson: rulesReadJson || [fallback, ...plans].some((p) => p.readsJson === true),
  };
}
