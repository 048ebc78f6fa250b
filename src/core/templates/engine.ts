import type { HelperDelegate, HelperOptions } from 'handlebars';
import { MockdevError } from '../errors.js';
import { FAKER_HELPERS } from './fake.js';
import { compileFlat } from './flat.js';
import { hbs, hbModule, type Handlebars } from './handlebars.js';
import { HELPER_NAMES, helpers, resetRandom } from './helpers.js';
import { KEEP_MARKS, resetVars } from './helpers-mockoon.js';
import type { TemplateResources } from './helpers-resources.js';
import { helperProblem, usesBlocks } from './known-helpers.js';
import {
  checkOutput,
  countedBlock,
  countEach,
  isStringOverflow,
  OutputLimitError,
  startRender,
} from './limits.js';
import { literalProblem } from './literals.js';
import type { RequestPath } from './request-path.js';
import { markedJson, trackingHelper, unmarkCondition, unmarkWith } from './marks.js';
import {
  namesIn,
  parse,
  problemAfter,
  problemOf,
  reachesEnvironment,
  readsParsedBody,
  TemplateError,
  VALUE_LISTS,
  type Ast,
  type TemplateProblem,
} from './syntax.js';

export { engineLoaded } from './handlebars.js';
export { problemAfter, TemplateError, VALUE_LISTS, type TemplateProblem } from './syntax.js';

export { formatDate } from './dates.js';
export { valueAtPath } from './helpers.js';
export { fakerLoaded, loadFaker } from './fake.js';
export { OutputLimitError, RENDER_ITERATION_BUDGET, RENDER_OUTPUT_MAX, REPEAT_MAX } from './limits.js';

/**
 * Templated responses (docs/templates.md): Handlebars, configured so that a template reaches no
 * prototype (Handlebars' own-property lookups; allowProto* left off), runs no code (no partials,
 * only the helpers of helpers.ts: knownHelpersOnly), stays within the limits of limits.ts (loops,
 * fake-data sizes and the output counted as they grow; a literal over a limit refused at save)
 * and writes its output as is (noEscape: bodies are JSON or text). A missing value renders empty,
 * as in Mockoon. Templates compile once (per endpoint change); a render is synchronous. Fake data
 * comes from @faker-js/faker, loaded only when a template uses it (loadFaker, before compiling).
 * A template compiled with `trackSecrets` that reads the environment marks what derives from a
 * secret (marks.ts).
 */

/** What a template sees: the request, read lazily, and the environment's variables. */
export interface TemplateContext {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  bodyRaw: string;
  method: string;
  path: string;
  env: Record<string, string>;
  /** The project's public tunnel URL (`{{tunnel.url}}`), empty when none runs. */
  tunnel: { url: string };
  /** Mockoon's `hostname` and `ip`: the request's host name (no port) and the client's address. */
  hostname?: string;
  ip?: string;
  /** The served project's resources (`{{resource 'users'}}`, helpers-resources.ts); unset: none. */
  resources?: TemplateResources;
  /** WireMock's names: request.path, request.pathSegments, request.query, request.headers, … */
  request: {
    url: string;
    /** The path; `request.path.[0]` its first segment (a RequestPath) */
    path: string | RequestPath;
    /** The request's cookies by name (WireMock's request.cookies.x). */
    cookies?: Record<string, string>;
    /** `http://host:port` as the client reached the server (WireMock's request.baseUrl). */
    baseUrl?: string;
    pathSegments: string[];
    query: Record<string, string>;
    headers: Record<string, string>;
    /** All the values of each query parameter and header (`request.query.x.[1]`). */
    [VALUE_LISTS.query]?: Record<string, readonly string[]>;
    [VALUE_LISTS.headers]?: Record<string, readonly string[]>;
    body: string;
    method: string;
  };
}

export interface Template {
  /** Renders for one request; throws on a helper error (the caller answers 500). */
  render(context: TemplateContext): string;
  /** Whether it uses fake data (faker must be loaded first). */
  usesFaker: boolean;
  /** Whether it reads the request body. */
  usesBody: boolean;
  /** Whether it reads the body as JSON (`body`, not `bodyRaw` or `request.body`). */
  parsesBody: boolean;
  /** Whether it renders on the fast path of flat templates (flat.ts) rather than through Handlebars. */
  flat: boolean;
  /**
   * Whether it tracks secrets (compiled with `trackSecrets` and reaching the environment): its
   * output marks what derives from a marked value (marks.ts).
   */
  tracked: boolean;
}

/** A text is a template when it has `{{`: anything else is served as is. */
export const isTemplate = (text: string): boolean => text.includes('{{');

/** Handlebars' built-in helpers a template may use (`log` is never registered). */
const BUILT_IN = ['if', 'unless', 'each', 'with', 'lookup'];

/**
 * An environment for one template with only the helpers it uses: Handlebars wraps every
 * registered helper on each render, so a full set would cost microseconds per request.
 */
function templateEnv(
  names: Set<string>,
  own: Record<string, HelperDelegate>,
  tracked: boolean,
  blocks: boolean,
): Handlebars {
  const env = (hbModule() ?? (hbs(), hbModule()!)).create();
  env.unregisterHelper('log');
  // Built-ins call one another (`unless` calls `if`, a block over a list calls `each`): a template
  // with blocks keeps them all; one without can only call those it names.
  if (blocks) names = new Set([...names, ...BUILT_IN]);
  for (const name of BUILT_IN) if (!names.has(name)) env.unregisterHelper(name);
  type Helper = (this: unknown, ...a: unknown[]) => unknown;
  const wrap = (name: string, wrapper: (builtIn: Helper) => Helper) => {
    if (names.has(name)) env.registerHelper(name, wrapper(env.helpers[name] as Helper));
  };
  // `each` is a loop: its iterations and what they write are counted (limits.ts).
  wrap(
    'each',
    (each) =>
      function (this: unknown, ...a: unknown[]) {
        const o = a[a.length - 1] as HelperOptions | undefined;
        if (o?.fn) a[a.length - 1] = { ...o, fn: countedBlock(o.fn, countEach) };
        return each.apply(this, a);
      },
  );
  if (tracked) {
    // A secret-derived false or 0 stays falsy; a secret-derived key marks what it looks up.
    const condition = (unmark: (v: unknown) => unknown) => (builtIn: Helper) =>
      function (this: unknown, ...a: unknown[]) {
        if (a.length === 2) a[0] = unmark(a[0]);
        return builtIn.apply(this, a);
      };
    wrap('if', condition(unmarkCondition));
    wrap('unless', condition(unmarkCondition));
    wrap('with', condition(unmarkWith));
    wrap('lookup', (lookup) => trackingHelper('lookup', lookup, [0]));
  }
  for (const name of names)
    if (Object.prototype.hasOwnProperty.call(own, name)) env.registerHelper(name, own[name]!);
  return env;
}

const call = (helper: HelperDelegate, a: unknown[], self?: unknown): unknown =>
  (helper as (...args: unknown[]) => unknown).apply(self, a);
/** The helpers of a template that tracks secrets (marks.ts), made when first needed. */
let tracking: Record<string, HelperDelegate> | undefined;
const trackingHelpers = (): Record<string, HelperDelegate> =>
  (tracking ??= Object.fromEntries(
    Object.entries(helpers).map(([name, helper]) => [
      name,
      name === 'json'
        ? trackingHelper(name, (...a: unknown[]) => markedJson(call(helper, a) as string | undefined), [0])
        : trackingHelper(
            name,
            function (this: unknown, ...a: unknown[]) {
              return call(helper, a, this);
            },
            KEEP_MARKS[name],
          ),
    ]),
  ));
const knownHelpers: Record<string, boolean> = {
  if: true,
  unless: true,
  each: true,
  with: true,
  lookup: true,
};
for (const name of HELPER_NAMES) knownHelpers[name] = true;

const COMPILE_OPTIONS = {
  noEscape: true,
  strict: false,
  knownHelpers,
  knownHelpersOnly: true,
} as const;
/**
 * The context's parts that may be getters on its class's prototype (the runtime computes each
 * only when read, and a class instance is far cheaper to make per request than an object with
 * own getters). Only these names are allowed from a prototype; no method ever is.
 */
export const CONTEXT_GETTERS = [
  'params',
  'query',
  'headers',
  'body',
  'bodyRaw',
  'request',
  'tunnel',
  'cookies',
  'baseUrl',
  'hostname',
  'ip',
  VALUE_LISTS.query,
  VALUE_LISTS.headers,
] as const;
const RUNTIME_OPTIONS = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowedProtoProperties: Object.fromEntries(CONTEXT_GETTERS.map((name) => [name, true])),
};

/** The first problem of a template (syntax, unknown helper), or null when it compiles. */
export function checkTemplate(source: string): TemplateProblem | null {
  if (!isTemplate(source)) return null;
  try {
    const ast = parse(source);
    const unknown = helperProblem(ast, knownHelpers);
    if (unknown) return unknown;
    hbs().precompile(ast, COMPILE_OPTIONS);
    return literalProblem(ast);
  } catch (e) {
    return e instanceof TemplateError ? e.problem : problemOf(e);
  }
}

/** Refuses a template with a problem: INVALID_ARGUMENT naming the field, line and column. */
export function assertTemplate(source: string, field: string): void {
  const problem = checkTemplate(source);
  if (!problem) return;
  throw new MockdevError('INVALID_ARGUMENT', problemAfter(`Invalid template in ${field}`, problem), {
    hint: 'Templates use Handlebars syntax, e.g. {{params.id}}, {{query.page}}, {{faker "person.firstName"}} (docs/templates.md)',
    details: { field, line: problem.line, column: problem.column },
  });
}

/**
 * Whether a template can read the environment: `env.…`, or the whole context (`this`, `@root`,
 * `..`), which holds it. Such a template tracks secrets when there are any (compileTemplate).
 */
export function readsEnvironment(source: string): boolean {
  if (!isTemplate(source)) return false;
  try {
    return reachesEnvironment(parse(source));
  } catch {
    return false;
  }
}

/** Whether a template uses fake data: a cheap text check (loadFaker before compiling then). */
export function mentionsFaker(source: string): boolean {
  if (!isTemplate(source)) return false;
  try {
    for (const n of namesIn(parse(source))) if (FAKER_HELPERS.has(n)) return true;
    return false;
  } catch {
    return false;
  }
}

/**
 * Compiles a template (once per endpoint change); a syntax error throws TemplateError. A flat
 * template (text and expressions, no blocks) renders through flat.ts unless `handlebarsOnly`.
 * With `trackSecrets` (the environment has secrets), a template that reads it tracks them.
 */
export function compileTemplate(
  source: string,
  { handlebarsOnly = false, trackSecrets = false } = {},
): Template {
  let ast: Ast;
  try {
    ast = parse(source);
  } catch (e) {
    throw e instanceof TemplateError ? e : new TemplateError(problemOf(e));
  }
  const unknown = helperProblem(ast, knownHelpers);
  if (unknown) throw new TemplateError(unknown);
  const names = namesIn(ast);
  const usesFaker = [...names].some((n) => FAKER_HELPERS.has(n));
  const usesBody = names.has('body') || names.has('bodyRaw') || names.has('request');
  const tracked = trackSecrets && reachesEnvironment(ast);
  const own = tracked ? trackingHelpers() : helpers;
  const flat = handlebarsOnly
    ? undefined
    : compileFlat(ast, { helpers: own, builtIns: BUILT_IN, allowedProto: CONTEXT_GETTERS });
  const fn = flat ?? templateEnv(names, own, tracked, usesBlocks(ast)).compile(ast, COMPILE_OPTIONS);
  return {
    usesFaker,
    usesBody,
    // `bodyRaw 'path'` reads the parsed body, and `jsonPath` given the body's text reads it too.
    parsesBody: names.has('body') || (usesBody && readsParsedBody(ast)),
    flat: flat !== undefined,
    tracked,
    render(context) {
      startRender();
      try {
        return checkOutput(fn(context, RUNTIME_OPTIONS));
      } catch (e) {
        throw isStringOverflow(e) ? new OutputLimitError() : e;
      } finally {
        resetRandom();
        resetVars();
      }
    },
  };
}
