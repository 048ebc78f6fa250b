import { compileRoutes, type CompiledRoutes } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import type { ResponseFields } from '../core/model/variation-response.js';
import type { LoggedVariation, NewRequestRecord } from '../core/ports.js';
import { buildAnswer, problemAnswer, type Answer } from './answer.js';
import { MockdevError } from '../core/errors.js';
import type { Exchange } from './exchange.js';
import { compileChoice } from './variations.js';
import { compileForward, type ProxyOptions } from './proxy.js';
import { isTemplated, templatePlan, type TemplateOptions } from './templated.js';
import { planTiming, type PlanTiming } from './timing.js';

/**
 * The endpoints compiled for serving, once per (re)load: routes, and for each endpoint the
 * responses it can give, already encoded. Answering a request is a lookup, a choice and a write.
 */

/**
 * A response an endpoint can give: its delay and fault (timing.ts), and its answer (built once)
 * or how to produce one.
 */
export interface ResponsePlan extends PlanTiming {
  /** The answer when it is the same for every request: built once, sent as is. */
  answer?: Answer;
  /** Builds the answer for one request (templates and proxying produce this way). */
  produce?: (exchange: Exchange) => Answer | Promise<Answer>;
  /** The variation this plan answers for (the request log says which); unset: the endpoint's own. */
  variation?: LoggedVariation;
  /** Producing reads the request body as JSON (a template reads `body`). */
  readsJson?: boolean;
}

export interface CompiledEndpoint {
  id: string;
  method: string;
  path: string;
  enabled: boolean;
  endpoint: Endpoint;
  /**
   * Chooses the response for a request: the variation the request names, the active one, else
   * by the endpoint's mode (rules, sequential, random; variations.ts), else its own response.
   */
  choose: (exchange: Exchange) => ResponsePlan;
  /** A proxy endpoint: the request body is streamed to the target, not read beforehand. */
  streamsBody?: boolean;
  /**
   * Choosing or producing may read the request body as JSON (a body rule, a template reading
   * `body`): the pipeline parses a large body ahead, in slices.
   */
  readsJson?: boolean;
  /** What cannot work as stored (a rule whose pattern the engine refuses: it never matches). */
  warnings?: string[];
  /**
   * Set when a `request` trigger of an enabled flow names the endpoint (flows/compile.ts): starts
   * the runs of a request, after its response was sent and logged. Unset: no flow, no cost.
   */
  startRuns?: (exchange: Exchange, record: NewRequestRecord) => void;
}

export interface CompiledProject {
  routes: CompiledRoutes<CompiledEndpoint>;
  endpoints: Endpoint[];
  /** Request target -> endpoint (null: none), per method: repeated URLs skip matching. */
  cache: Map<string, Map<string, CompiledEndpoint | null>>;
  /** What cannot work as stored, one line each (reported when the endpoints load). */
  warnings: string[];
}

const CACHE_LIMIT = 2048;

/** The endpoint answering METHOD URL, through the per-project cache. */
export function lookup(project: CompiledProject, method: string, url: string): CompiledEndpoint | null {
  let byUrl = project.cache.get(method);
  if (byUrl === undefined) project.cache.set(method, (byUrl = new Map()));
  let hit = byUrl.get(url);
  if (hit === undefined) {
    hit = project.routes.match(method, url)?.endpoint ?? null;
    if (byUrl.size >= CACHE_LIMIT) byUrl.clear();
    byUrl.set(url, hit);
  }
  return hit;
}

function staticPlan(r: ResponseFields, bodyLimitBytes: number): ResponsePlan {
  return {
    ...planTiming(r),
    answer: buildAnswer(
      {
        status: r.status,
        statusText: r.statusText,
        headers: r.headers,
        body: r.body,
        contentType: r.contentType,
      },
      bodyLimitBytes,
      true,
    ),
  };
}

/**
 * A response with a template in its status text, body or a header value is produced per request;
 * one with templating off is sent as written (`{{` included), built once like any static one.
 */
function responsePlan(
  e: Endpoint,
  r: ResponseFields,
  bodyLimitBytes: number,
  templates: TemplateOptions,
): ResponsePlan {
  if (r.templating === false || !isTemplated(r)) return staticPlan(r, bodyLimitBytes);
  const { produce, readsJson } = templatePlan(e, r, bodyLimitBytes, templates);
  return { ...planTiming(r), produce, ...(readsJson ? { readsJson } : {}) };
}

/** A proxy endpoint forwards each request (proxy.ts); one without a target says so (500). */
function proxyPlan(
  e: Endpoint,
  bodyLimitBytes: number,
  proxy: Omit<ProxyOptions, 'bodyLimitBytes'>,
  templates: TemplateOptions = {},
): ResponsePlan {
  if (!e.proxy) {
    return {
      ...planTiming(e),
      answer: problemAnswer(
        new MockdevError(
          'PROXY_NOT_CONFIGURED',
          `Endpoint "${e.name}" (${e.method} ${e.path}) is a proxy endpoint with no proxy.target`,
        ),
        { endpointId: e.id },
        bodyLimitBytes,
        true,
      ),
    };
  }
  // A forwarded answer streams as the target sends it: a drip does not apply (docs/faults.md).
  const { fault, ...timing } = planTiming(e);
  return {
    ...timing,
    ...(fault && fault.kind !== 'drip' ? { fault } : {}),
    produce: compileForward(e, { ...proxy, bodyLimitBytes, templates }),
  };
}

export function compileEndpoint(
  e: Endpoint,
  bodyLimitBytes: number,
  proxy: Omit<ProxyOptions, 'bodyLimitBytes'> = {},
  templates: TemplateOptions = {},
): CompiledEndpoint {
  let choose: CompiledEndpoint['choose'];
  let readsJson = false;
  const streamsBody = e.kind === 'proxy' && e.proxy !== undefined;
  const warnings: string[] = [];
  if (e.kind === 'proxy') {
    const plan = proxyPlan(e, bodyLimitBytes, proxy, templates);
    choose = () => plan;
  } else
    ({ choose, readsJson } = compileChoice(
      e,
      (r) => responsePlan(e, r, bodyLimitBytes, templates),
      (m) => warnings.push(m),
    ));
  return {
    id: e.id,
    method: e.method,
    path: e.path,
    enabled: e.enabled,
    endpoint: e,
    choose,
    ...(streamsBody ? { streamsBody } : {}),
    ...(readsJson ? { readsJson } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * What flows change in the compiled endpoints (flows/compile.ts wireFlows): given them and how to
 * compile an endpoint, the endpoints to serve.
 */
export type WithFlows = (
  compiled: CompiledEndpoint[],
  compileAs: (e: Endpoint) => CompiledEndpoint,
) => CompiledEndpoint[];

export function compileProject(
  endpoints: Endpoint[],
  bodyLimitBytes: number,
  proxy: Omit<ProxyOptions, 'bodyLimitBytes'> = {},
  templates: TemplateOptions = {},
  withFlows?: WithFlows,
): CompiledProject {
  const compileOne = (e: Endpoint) => compileEndpoint(e, bodyLimitBytes, proxy, templates);
  let compiled = endpoints.map(compileOne);
  if (withFlows) compiled = withFlows(compiled, compileOne);
  const warnings = compiled.flatMap((c) => (c.enabled ? (c.warnings ?? []) : []));
  return { routes: compileRoutes(compiled), endpoints, cache: new Map(), warnings };
}
