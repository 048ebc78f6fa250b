import { randomUUID } from 'node:crypto';
import type { HelperDelegate, HelperOptions } from 'handlebars';
import { MockdevError } from '../errors.js';
import { formatDate, UNITS } from './dates.js';
import { fake, FAKE_SHORT, FAKER_HELPERS, seedFaker } from './fake.js';
import { compileFlat } from './flat.js';
import { hbs, hbModule, type Handlebars } from './handlebars.js';
import { namesIn, parse, problemOf, TemplateError, type Ast, type TemplateProblem } from './syntax.js';

export { engineLoaded } from './handlebars.js';
export { TemplateError, type TemplateProblem } from './syntax.js';

export { formatDate } from './dates.js';
export { fakerLoaded, loadFaker } from './fake.js';

/**
 * Templated responses (docs/templates.md): Handlebars, configured so that a template reaches no
 * prototype (Handlebars' own-property lookups; allowProto* left off), runs no code (no partials,
 * only the helpers below: knownHelpersOnly), loops a bounded number of times (`repeat` capped,
 * a budget per render) and writes its output as is (noEscape: bodies are JSON or text). A missing
 * value renders empty, as in Mockoon. Templates compile once (per endpoint change); a render is
 * synchronous. Fake data comes from @faker-js/faker, loaded only when a template uses it
 * (loadFaker, before compiling).
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
  /** WireMock's names: request.path, request.pathSegments, request.query, request.headers, … */
  request: {
    url: string;
    path: string;
    pathSegments: string[];
    query: Record<string, string>;
    headers: Record<string, string>;
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
  /** Whether it renders on the fast path of flat templates (flat.ts) rather than through Handlebars. */
  flat: boolean;
}

/** Most items one `repeat` gives, and all `repeat`s of one render together. */
export const REPEAT_MAX = 1000;
export const RENDER_ITERATION_BUDGET = 10_000;

/** A text is a template when it has `{{`: anything else is served as is. */
export const isTemplate = (text: string): boolean => text.includes('{{');

// ---- randomness, seeded inside {{#seed}}

let random: () => number = Math.random;

/** A small seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a key: the seed of `{{#seed key}}`. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function uuid(): string {
  if (random === Math.random) return randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

// ---- helpers

type Hash = Record<string, unknown>;
/** A helper's arguments without Handlebars' options object, and that object. */
function split(args: unknown[]): [unknown[], HelperOptions] {
  const options = args[args.length - 1] as HelperOptions;
  return [args.slice(0, -1), options];
}
const num = (v: unknown, fallback: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
};
const text = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
const hasOwn = (o: unknown, k: string): boolean =>
  typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, k);

/** The value at a dotted path (`user.name`, `items.0.id`) through own properties only. */
export function valueAtPath(value: unknown, path: string): unknown {
  if (path === '' || path === '$') return value;
  let at = value;
  for (const key of path
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter(Boolean)) {
    if (!hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The render's root context (Mockoon's helpers read the request from it). */
const root = (options: HelperOptions): TemplateContext => (options.data as { root: TemplateContext }).root;

let iterations = 0;

const helpers: Record<string, HelperDelegate> = {
  // request (Mockoon names)
  urlParam: (...a: unknown[]) => {
    const [[name], o] = split(a);
    return root(o).params[text(name)] ?? '';
  },
  queryParam: (...a: unknown[]) => {
    const [[name, fallback], o] = split(a);
    return root(o).query[text(name)] ?? (fallback === undefined ? '' : fallback);
  },
  header: (...a: unknown[]) => {
    const [[name, fallback], o] = split(a);
    return root(o).headers[text(name).toLowerCase()] ?? (fallback === undefined ? '' : fallback);
  },
  body: (...a: unknown[]) => {
    const [[path, fallback], o] = split(a);
    const b = root(o).body;
    if (path === undefined) return text(b);
    const v = valueAtPath(b, text(path));
    return v === undefined ? (fallback === undefined ? '' : fallback) : v;
  },
  bodyRaw: (...a: unknown[]) => root(split(a)[1]).bodyRaw,
  method: (...a: unknown[]) => root(split(a)[1]).method,
  jsonPath: (...a: unknown[]) => {
    const [[value, path]] = split(a);
    let v = value;
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        return '';
      }
    }
    return valueAtPath(v, text(path)) ?? '';
  },
  // data
  uuid: () => uuid(),
  now: (...a: unknown[]) => {
    const [[format], o] = split(a);
    let t = Date.now();
    for (const [unit, ms] of Object.entries(UNITS))
      if (o.hash[unit] !== undefined) t += num(o.hash[unit], 0) * ms;
    return formatDate(new Date(t), typeof format === 'string' ? format : 'iso');
  },
  int: (...a: unknown[]) => {
    const [[min, max], o] = split(a);
    const lo = Math.ceil(num(min ?? (o.hash as Hash).min, 0));
    const hi = Math.floor(num(max ?? (o.hash as Hash).max, lo + 100));
    return lo + Math.floor(random() * (hi - lo + 1));
  },
  float: (...a: unknown[]) => {
    const [[min, max, decimals], o] = split(a);
    const lo = num(min ?? (o.hash as Hash).min, 0);
    const hi = num(max ?? (o.hash as Hash).max, lo + 1);
    const d = Math.min(15, Math.max(0, Math.floor(num(decimals ?? (o.hash as Hash).decimals, 2))));
    return Number((lo + random() * (hi - lo)).toFixed(d));
  },
  oneOf: (...a: unknown[]) => {
    const [args] = split(a);
    const items = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    return items.length ? items[Math.floor(random() * items.length)] : '';
  },
  repeat: function (this: unknown, ...a: unknown[]) {
    const [[first, second], o] = split(a);
    let count = num(first, 1);
    if (second !== undefined) {
      const lo = num(first, 0);
      count = lo + Math.floor(random() * (num(second, lo) - lo + 1));
    }
    count = Math.max(0, Math.min(REPEAT_MAX, Math.floor(count)));
    if (!o.fn) return '';
    const separator = typeof o.hash.separator === 'string' ? o.hash.separator : '';
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      if (++iterations > RENDER_ITERATION_BUDGET)
        throw new Error(`repeat: more than ${RENDER_ITERATION_BUDGET} iterations in one response`);
      const data = hbs().createFrame(o.data) as Record<string, unknown>;
      data.index = i;
      data.first = i === 0;
      data.last = i === count - 1;
      out.push(o.fn(this, { data }));
    }
    return out.join(separator);
  },
  lowercase: (...a: unknown[]) => text(split(a)[0][0]).toLowerCase(),
  uppercase: (...a: unknown[]) => text(split(a)[0][0]).toUpperCase(),
  json: (...a: unknown[]) => {
    const [[value, indent]] = split(a);
    return JSON.stringify(value ?? null, null, typeof indent === 'number' ? Math.min(indent, 8) : undefined);
  },
  urlEncode: (...a: unknown[]) => encodeURIComponent(text(split(a)[0][0])),
  faker: (...a: unknown[]) => {
    const o = a[a.length - 1] as HelperOptions;
    const args = a.length > 2 ? a.slice(1, -1) : [];
    for (const _ in o.hash) {
      args.push({ ...o.hash });
      break;
    }
    return fake(text(a[0]), args);
  },
  seed: function (this: unknown, ...a: unknown[]) {
    const [[key], o] = split(a);
    if (!o.fn) return '';
    const h = hash(text(key));
    const before = random;
    random = seeded(h);
    seedFaker(h);
    try {
      return o.fn(this);
    } finally {
      random = before;
      seedFaker();
    }
  },
};
// Aliases: Mockoon's and common names.
helpers.randomInt = helpers.int!;
helpers.randomFloat = helpers.float!;
helpers.pick = helpers.oneOf!;
for (const [short, method] of Object.entries(FAKE_SHORT)) {
  // A field of the current item wins over fake data: {{#each body.users}}{{email}}{{/each}}.
  helpers[short] = function (this: unknown, ...a: unknown[]) {
    if (a.length === 1 && hasOwn(this, short)) return (this as Record<string, unknown>)[short];
    return fake(method, split(a)[0]);
  };
}

export const HELPER_NAMES: readonly string[] = Object.keys(helpers);

/** Handlebars' built-in helpers a template may use (`log` is never registered). */
const BUILT_IN = ['if', 'unless', 'each', 'with', 'lookup'];

/**
 * An environment for one template with only the helpers it uses: Handlebars wraps every
 * registered helper on each render, so a full set would cost microseconds per request.
 */
function templateEnv(names: Set<string>): Handlebars {
  const env = (hbModule() ?? (hbs(), hbModule()!)).create();
  env.unregisterHelper('log');
  for (const name of BUILT_IN) if (!names.has(name)) env.unregisterHelper(name);
  for (const name of names)
    if (Object.prototype.hasOwnProperty.call(helpers, name)) env.registerHelper(name, helpers[name]!);
  return env;
}
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
export const CONTEXT_GETTERS = ['params', 'query', 'headers', 'body', 'bodyRaw', 'request'] as const;
const RUNTIME_OPTIONS = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowedProtoProperties: Object.fromEntries(CONTEXT_GETTERS.map((name) => [name, true])),
};

/** The first problem of a template (syntax, unknown helper), or null when it compiles. */
export function checkTemplate(source: string): TemplateProblem | null {
  if (!isTemplate(source)) return null;
  try {
    hbs().precompile(parse(source), COMPILE_OPTIONS);
    return null;
  } catch (e) {
    return e instanceof TemplateError ? e.problem : problemOf(e);
  }
}

/** Refuses a template with a problem: INVALID_ARGUMENT naming the field, line and column. */
export function assertTemplate(source: string, field: string): void {
  const problem = checkTemplate(source);
  if (!problem) return;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid template in ${field} at line ${problem.line}, column ${problem.column}: ${problem.message}`,
    {
      hint: 'Templates use Handlebars syntax, e.g. {{params.id}}, {{query.page}}, {{faker "person.firstName"}} (docs/templates.md)',
      details: { field, line: problem.line, column: problem.column },
    },
  );
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
 */
export function compileTemplate(source: string, { handlebarsOnly = false } = {}): Template {
  let ast: Ast;
  try {
    ast = parse(source);
  } catch (e) {
    throw e instanceof TemplateError ? e : new TemplateError(problemOf(e));
  }
  const names = namesIn(ast);
  const usesFaker = [...names].some((n) => FAKER_HELPERS.has(n));
  const usesBody = names.has('body') || names.has('bodyRaw') || names.has('request');
  const flat = handlebarsOnly
    ? undefined
    : compileFlat(ast, { helpers, builtIns: BUILT_IN, allowedProto: CONTEXT_GETTERS });
  const fn = flat ?? templateEnv(names).compile(ast, COMPILE_OPTIONS);
  return {
    usesFaker,
    usesBody,
    flat: flat !== undefined,
    render(context) {
      iterations = 0;
      try {
        return fn(context, RUNTIME_OPTIONS);
      } finally {
        random = Math.random;
      }
    },
  };
}
