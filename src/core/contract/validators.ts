import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { MockdevError } from '../errors.js';
import { compileLinearRegex, LinearRegexError } from '../linear-regex.js';
import type { ContractDialect, ContractViolation } from '../model/contract.js';
import type { NodeMeta } from './schema.js';

/**
 * The JSON Schema validators of a contract (ajv 8: draft-04 for OpenAPI 3.0 and Swagger 2.0,
 * 2020-12 for 3.1), compiled once per document, and ajv's errors turned into violations.
 *
 * `pattern` runs on the linear-time engine (core/linear-regex.ts): the traffic is client input,
 * and a backtracking engine could take minutes on one value. A pattern that engine cannot run
 * (lookaround, backreferences) is not checked.
 */

type Obj = Record<string, unknown>;

/** ajv's pattern engine: RE2's, linear in the text. */
const linearRegExp = Object.assign(
  (pattern: string) => {
    try {
      return compileLinearRegex(pattern);
    } catch (e) {
      if (e instanceof LinearRegexError) return { test: () => true };
      throw e;
    }
  },
  { code: 'mockdev-linear-regexp' },
);

function newAjv(dialect: ContractDialect, coerce: boolean) {
  const options: Options = {
    allErrors: true,
    verbose: true,
    strict: false,
    validateSchema: false,
    addUsedSchema: false,
    discriminator: true,
    logger: false,
    coerceTypes: coerce ? 'array' : false,
    code: { regExp: linearRegExp, optimize: false },
  };
  const ajv = dialect === '3.1' ? new Ajv2020(options) : new AjvDraft04.default(options);
  // CommonJS modules: the default export is the module object, whose `default` is the export.
  addFormats.default(ajv as never);
  return ajv;
}

export type AjvInstance = ReturnType<typeof newAjv>;

/** The two validators of a document: bodies as parsed, and strings (parameters, headers, forms) coerced. */
export interface AjvPair {
  plain: AjvInstance;
  coerced: AjvInstance;
}

export const newAjvPair = (dialect: ContractDialect): AjvPair => ({
  plain: newAjv(dialect, false),
  coerced: newAjv(dialect, true),
});

/** One compiled schema: `base` is the pointer it was converted under. */
export interface Checker {
  validate: ValidateFunction;
  base: string;
}

/** Compiles a converted schema; INVALID_INPUT naming its place when ajv cannot. */
export function compileSchema(ajv: AjvInstance, schema: Obj, base: string): Checker {
  try {
    return { validate: ajv.compile(schema), base };
  } catch (e) {
    throw new MockdevError(
      'INVALID_INPUT',
      `The contract's schema at ${base} cannot be compiled: ${e instanceof Error ? e.message : String(e)}`,
      { hint: 'Fix the schema there and import the document again' },
    );
  }
}

/** Everything a violation says besides what the error gives. */
export interface ViolationContext {
  requestId: string;
  method: string;
  path: string;
  operation: string | null;
  in: 'request' | 'response';
  /** Where the validated value sits: `body`, `header.x-rate`; '' for a parameters object (`/query/limit`). */
  location: string;
  /** The pointer this use of the checker stands at (its schema may have been converted elsewhere). */
  prefix: string;
}

const RULES: Record<string, string> = {
  exclusiveMinimum: 'minimum',
  exclusiveMaximum: 'maximum',
  'false schema': 'schema',
};

/** Combinators whose own error says all: the errors of their branches are left out. */
const BRANCHING = new Set(['oneOf', 'anyOf']);

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** `/items/2/id` under `body` → `body.items[2].id`; under '' the first segment is the place (`query`) and the second a name, as written. */
export function locationOf(base: string, instancePath: string): string {
  if (!instancePath) return base;
  const segs = instancePath.slice(1).split('/');
  let out = base;
  let i = 0;
  if (!base) {
    out = unescape(segs[0]!);
    if (segs.length > 1) out += `.${unescape(segs[1]!)}`;
    i = 2;
  }
  for (; i < segs.length; i++) out += member(unescape(segs[i]!));
  return out;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
export const member = (key: string): string =>
  /^\d+$/.test(key) ? `[${key}]` : IDENT.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;

/** A value as a violation shows it: long strings and big values cut short. */
export function shown(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 200 ? `${v.slice(0, 200)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  const text = JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 200)}…` : v;
}

const said = (v: unknown): string => {
  const s = shown(v);
  return typeof s === 'string' ? JSON.stringify(s) : (JSON.stringify(s) ?? String(s));
};

function expectedOf(e: ErrorObject, meta: NodeMeta | undefined): unknown {
  if (meta?.expected !== undefined) return meta.expected;
  const p = e.params as Obj;
  switch (e.keyword) {
    case 'type':
      return p.type;
    case 'enum':
      return p.allowedValues;
    case 'const':
      return p.allowedValue;
    case 'format':
      return p.format;
    case 'pattern':
      return p.pattern;
    case 'required':
      return 'present';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'no other properties';
    case 'multipleOf':
      return p.multipleOf;
    default:
      return 'limit' in p ? p.limit : undefined;
  }
}

/** ajv's errors as violations: one per failing rule, the branches of a failing oneOf/anyOf left out. */
export function violationsOf(
  errors: ErrorObject[],
  checker: Checker,
  metaOf: WeakMap<object, NodeMeta>,
  cx: ViolationContext,
): ContractViolation[] {
  const out: ContractViolation[] = [];
  const summaries: ErrorObject[] = [];
  for (let k = errors.length - 1; k >= 0; k--) {
    const e = errors[k]!;
    if (e.keyword === 'if') continue;
    if (summaries.some((s) => within(e, s))) continue;
    if (BRANCHING.has(e.keyword)) summaries.push(e);
    out.push(violationOf(e, checker, metaOf, cx));
  }
  return out.reverse();
}

const within = (e: ErrorObject, s: ErrorObject): boolean =>
  e.schemaPath.startsWith(`${s.schemaPath}/`) &&
  (e.instancePath === s.instancePath || e.instancePath.startsWith(`${s.instancePath}/`));

function violationOf(
  e: ErrorObject,
  checker: Checker,
  metaOf: WeakMap<object, NodeMeta>,
  cx: ViolationContext,
): ContractViolation {
  const meta = e.parentSchema ? metaOf.get(e.parentSchema) : undefined;
  const p = e.params as Obj;
  let location = locationOf(cx.location, e.instancePath);
  let actual: unknown = e.data;
  let message: string;
  if (e.keyword === 'required') {
    location += member(String(p.missingProperty));
    actual = undefined;
    message = `${location} is required but missing`;
  } else if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
    const name = String(p.additionalProperty ?? p.unevaluatedProperty);
    location += member(name);
    actual = name;
    message = `${location} is not allowed (no other properties are declared there)`;
  } else if (meta?.rule === 'readOnly' || meta?.rule === 'writeOnly') {
    message = `${location} is ${meta.rule} and may not be sent in a ${cx.in}`;
  } else if (e.keyword === 'discriminator') {
    location += member(String(p.tag));
    actual = p.tagValue;
    message = `${location} must be one of ${JSON.stringify(meta?.expected ?? [])}, got ${said(p.tagValue)}`;
  } else {
    const detail =
      e.keyword === 'enum'
        ? `must be one of ${JSON.stringify(p.allowedValues)}`
        : e.keyword === 'false schema' || meta?.rule === 'schema'
          ? 'is not allowed here (the schema admits nothing)'
          : e.keyword === 'type'
            ? `must be ${String(p.type).split(',').join(' or ')}`
            : (e.message ?? 'is invalid');
    message = `${location} ${detail}, got ${said(e.data)}`;
  }
  const rule = meta?.rule ?? RULES[e.keyword] ?? e.keyword;
  let schemaPath = meta ? (meta.exact ? meta.pointer : `${meta.pointer}/${e.keyword}`) : cx.prefix;
  if (cx.prefix !== checker.base && schemaPath.startsWith(checker.base)) {
    schemaPath = cx.prefix + schemaPath.slice(checker.base.length);
  }
  const v: ContractViolation = {
    requestId: cx.requestId,
    method: cx.method,
    path: cx.path,
    operation: cx.operation,
    in: cx.in,
    location,
    rule,
    message: message.replace(/\s*\n\s*/g, ' '),
    schemaPath,
  };
  const expected = expectedOf(e, meta);
  if (expected !== undefined) v.expected = expected;
  if (actual !== undefined) v.actual = shown(actual);
  return v;
}
