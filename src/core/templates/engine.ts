import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { HelperDelegate, HelperOptions } from 'handlebars';
import { MockdevError } from '../errors.js';
import { compileFlat } from './flat.js';

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

/** Where a template error was found, 1-based. */
export interface TemplateProblem {
  message: string;
  line: number;
  column: number;
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

// ---- fake data, loaded lazily

type FakerModule = typeof import('@faker-js/faker/locale/en');
type Faker = FakerModule['faker'];
let faker: Faker | undefined;
let fakerLoading: Promise<void> | undefined;

/** Loads the fake-data library (English locale only: the full import costs half a second). */
export function loadFaker(): Promise<void> {
  return (fakerLoading ??= import('@faker-js/faker/locale/en').then((m) => {
    faker = m.faker;
  }));
}

/** Whether Handlebars has been loaded (tests check a static server never loads it). */
export const engineLoaded = (): boolean => hbEnv !== undefined;

/** Whether the fake-data library has been loaded (tests check it stays unloaded). */
export const fakerLoaded = (): boolean => faker !== undefined;

/** The faker modules a template may call (`faker 'person.firstName'`). */
const FAKER_MODULES = new Set([
  'airline',
  'animal',
  'book',
  'color',
  'commerce',
  'company',
  'database',
  'datatype',
  'date',
  'finance',
  'food',
  'git',
  'hacker',
  'image',
  'internet',
  'location',
  'lorem',
  'music',
  'number',
  'person',
  'phone',
  'science',
  'string',
  'system',
  'vehicle',
  'word',
]);

/** Short names for common fake data: helper -> faker method. */
const FAKE_SHORT: Record<string, string> = {
  firstName: 'person.firstName',
  lastName: 'person.lastName',
  fullName: 'person.fullName',
  name: 'person.fullName',
  email: 'internet.email',
  phone: 'phone.number',
  city: 'location.city',
  street: 'location.street',
  address: 'location.streetAddress',
  country: 'location.country',
  zipCode: 'location.zipCode',
  company: 'company.name',
  lorem: 'lorem.sentence',
  sentence: 'lorem.sentence',
  paragraph: 'lorem.paragraph',
  word: 'lorem.word',
};
const FAKER_HELPERS = new Set(['faker', ...Object.keys(FAKE_SHORT)]);

type FakeCall = (args: unknown[]) => unknown;
/** Faker methods resolved (and checked) once per name: a render only calls them. */
const fakeCalls = new Map<string, FakeCall>();

function resolveFake(method: string): FakeCall {
  if (!faker) throw new Error('the fake-data library is not loaded');
  const [mod, fn, ...rest] = method.split('.');
  if (!mod || !fn || rest.length || !FAKER_MODULES.has(mod) || fn.startsWith('_') || fn === 'constructor')
    throw new Error(`unknown faker method "${method}" (use module.method, e.g. person.firstName)`);
  const target = (faker as unknown as Record<string, Record<string, unknown>>)[mod]!;
  const call = target[fn];
  if (typeof call !== 'function') throw new Error(`unknown faker method "${method}"`);
  const f = call as (...a: unknown[]) => unknown;
  return (args) => (args.length === 0 ? f.call(target) : f.apply(target, args));
}

function fake(method: string, args: unknown[]): unknown {
  let call = fakeCalls.get(method);
  if (call === undefined) {
    call = resolveFake(method);
    // Names can come from request data ({{faker query.kind}}): the map stays small.
    if (fakeCalls.size >= 256) fakeCalls.clear();
    fakeCalls.set(method, call);
  }
  return call(args);
}

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

// ---- dates

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A date in a format: `iso` (default), `unix` (seconds), `ms`, or tokens YYYY/yyyy, MM, DD/dd,
 * HH, mm, ss, SSS (UTC); anything else in the format is kept as is.
 */
export function formatDate(d: Date, format = 'iso'): string {
  if (format === 'iso' || format === '') return d.toISOString();
  if (format === 'unix' || format === 'X') return String(Math.floor(d.getTime() / 1000));
  if (format === 'ms' || format === 'x') return String(d.getTime());
  return format.replace(/YYYY|yyyy|SSS|MM|DD|dd|HH|mm|ss/g, (t) => {
    switch (t) {
      case 'YYYY':
      case 'yyyy':
        return String(d.getUTCFullYear());
      case 'MM':
        return pad(d.getUTCMonth() + 1);
      case 'DD':
      case 'dd':
        return pad(d.getUTCDate());
      case 'HH':
        return pad(d.getUTCHours());
      case 'mm':
        return pad(d.getUTCMinutes());
      case 'ss':
        return pad(d.getUTCSeconds());
      default:
        return pad(d.getUTCMilliseconds(), 3);
    }
  });
}

const UNITS: Record<string, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

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
    faker?.seed(h);
    try {
      return o.fn(this);
    } finally {
      random = before;
      faker?.seed();
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

type Handlebars = typeof import('handlebars');
let hbModule: Handlebars | undefined;
let hbEnv: Handlebars | undefined;
/**
 * The Handlebars environment parsing and checking templates, loaded on first use
 * (synchronously: compiling is), so commands and servers without templates never load it.
 */
function hbs(): Handlebars {
  if (hbEnv) return hbEnv;
  hbModule = createRequire(import.meta.url)('handlebars') as Handlebars;
  return (hbEnv = hbModule.create());
}

/** Handlebars' built-in helpers a template may use (`log` is never registered). */
const BUILT_IN = ['if', 'unless', 'each', 'with', 'lookup'];

/**
 * An environment for one template with only the helpers it uses: Handlebars wraps every
 * registered helper on each render, so a full set would cost microseconds per request.
 */
function templateEnv(names: Set<string>): Handlebars {
  const env = (hbModule ?? (hbs(), hbModule!)).create();
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

// ---- parsing and checking

function problemOf(e: unknown): TemplateProblem {
  const err = e as Error & { lineNumber?: number; column?: number };
  const first = err.message.split('\n')[0]!;
  if (typeof err.lineNumber === 'number' && typeof err.column === 'number')
    return { message: first.replace(/ - \d+:\d+$/, ''), line: err.lineNumber, column: err.column + 1 };
  const at = (
    hbs() as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } }
  ).Parser.lexer.yylloc;
  const got = /got '([^']+)'$/.exec(err.message)?.[1];
  const what =
    got === 'EOF'
      ? 'the template ends inside an expression or block (an unclosed {{…}} or {{#block}}?)'
      : got === 'INVALID'
        ? 'invalid expression (a missing "}}"?)'
        : got
          ? `unexpected ${got.toLowerCase().replace(/_/g, ' ')}`
          : first;
  return { message: what, line: at?.first_line ?? 1, column: (at?.first_column ?? 0) + 1 };
}

type Ast = ReturnType<Handlebars['parse']>;

/** Names used as helpers or single-segment paths anywhere in the template. */
function namesIn(ast: Ast): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; original?: unknown; parts?: string[] };
    if (n.type === 'PathExpression') {
      if (typeof n.original === 'string') names.add(n.original.split('.')[0]!);
      return;
    }
    for (const v of Object.values(node)) if (v && typeof v === 'object') visit(v);
  };
  visit(ast);
  return names;
}

/**
 * JSON templates often end an expression right before a brace: `{"n": {{int 1 9}}}`. Handlebars
 * reads that `}}}` as the close of a `{{{…}}}`; when the expression opened with `{{`, the
 * closing `}}` is followed by an empty comment here so the brace stays text. Returns the text and
 * where comments were put (line, column) so error positions are given in the original.
 */
const SPLIT = '{{!}}';
function normalize(source: string): { text: string; inserted: { line: number; column: number }[] } {
  if (!source.includes('}}}')) return { text: source, inserted: [] };
  let out = '';
  let from = 0;
  const inserted: { line: number; column: number }[] = [];
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i)) {
    if (i > 0 && source[i - 1] === '\\') {
      i += 2;
      continue;
    }
    let close: number;
    if (source[i + 2] === '{') {
      close = source.indexOf('}}}', i + 3);
      i = close === -1 ? source.length : close + 3;
      continue;
    }
    if (source.startsWith('{{!--', i)) {
      close = source.indexOf('--}}', i + 5);
      i = close === -1 ? source.length : close + 4;
      continue;
    }
    close = source.indexOf('}}', i + 2);
    if (close === -1) break;
    if (source[close + 2] === '}') {
      out += source.slice(from, close + 2) + SPLIT;
      from = close + 2;
      const before = source.slice(0, close + 2);
      const line = before.split('\n').length;
      inserted.push({ line, column: close + 2 - (before.lastIndexOf('\n') + 1) });
    }
    i = close + 2;
  }
  return { text: out + source.slice(from), inserted };
}

function parse(source: string): Ast {
  const { text, inserted } = normalize(source);
  let ast: Ast;
  try {
    ast = hbs().parse(text);
  } catch (e) {
    throw withOriginalPosition(problemOf(e), inserted);
  }
  // Partials are never loaded: refuse them at save rather than failing per request.
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; loc?: { start: { line: number; column: number } } };
    if (
      n.type === 'PartialStatement' ||
      n.type === 'PartialBlockStatement' ||
      n.type === 'DecoratorBlock' ||
      n.type === 'Decorator'
    ) {
      const err = new Error('partials and decorators are not supported') as Error & {
        lineNumber?: number;
        column?: number;
      };
      err.lineNumber = n.loc?.start.line ?? 1;
      err.column = n.loc?.start.column ?? 0;
      throw err;
    }
    for (const v of Object.values(node)) if (v && typeof v === 'object') walk(v);
  };
  walk(ast);
  return ast;
}

/** A problem's column in the original text (before normalize's comments). */
function withOriginalPosition(
  problem: TemplateProblem,
  inserted: { line: number; column: number }[],
): TemplateError {
  const shift = inserted.filter((p) => p.line === problem.line && p.column < problem.column - 1).length;
  return new TemplateError({ ...problem, column: problem.column - shift * SPLIT.length });
}

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

export class TemplateError extends Error {
  constructor(readonly problem: TemplateProblem) {
    super(`line ${problem.line}, column ${problem.column}: ${problem.message}`);
  }
}
