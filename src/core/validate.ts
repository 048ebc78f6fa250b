import type * as z from 'zod';
import { MockdevError } from './errors.js';

/**
 * Parses `value` with `schema`; on failure throws one INVALID_ARGUMENT error whose message
 * names the field and the rule, e.g. `Invalid port "80": must be from 1024 to 65535`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'value'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new MockdevError('INVALID_ARGUMENT', `Invalid ${describeIssue(issue, value, what, schema)}`, {
    details: {
      field: issue.path.length ? issue.path.join('.') : what,
      issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

/**
 * `value` when it is a whole number from `min` to `max`; otherwise one INVALID_ARGUMENT naming
 * the field: `Invalid timeout -1: must be a whole number of milliseconds from 0 to 60000`.
 */
export const wholeNumber = (value: unknown, field: string, min: number, max: number, unit = ''): number => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid ${field} ${JSON.stringify(value)}: must be a whole number${unit} from ${min} to ${max}`,
    { details: { field, value } },
  );
};

/** A record key's own message ("may contain only…") rather than zod's "Invalid key in record". */
export const issueMessage = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;

/**
 * A value as an error shows it (after a space): JSON, cut at 60 characters; nothing when it
 * cannot be written (nested too deeply for JSON.stringify): the field and the rule say enough.
 */
export const shownValue = (given: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(given);
  } catch {
    return '';
  }
  return text === undefined ? '' : ` ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
};

/** The value at an issue's path in what was parsed. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    value,
  );
}

/**
 * One issue said for people, after "Invalid ": the field, the value given and the rule, e.g.
 * `port 80: must be from 1024 to 65535`, `header name "X Evil": may contain only …`. The value is
 * never quoted when `schema` marks it sensitive (a secret, a license key, a token) or when it is
 * a credential header's: `secrets.bad-key: must start with a letter …`.
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  value: unknown,
  what = 'value',
  schema?: z.ZodType,
): string {
  const path = issue.path.map(String);
  const hidden = isSensitiveAt(schema, issue.path);
  const given = hidden ? undefined : valueAt(value, issue.path);
  const parent = path.slice(0, -1).join('.');
  const last = path[path.length - 1];
  if (/(^|\.)headers$/.test(parent) && last !== undefined) {
    const where = parent === 'headers' ? '' : ` (${parent})`;
    if (issue.code === 'invalid_key')
      return `header name${where} ${JSON.stringify(last)}: ${issueMessage(issue)}`;
    const quoted = isCredentialHeader(last) ? '' : shownValue(given);
    return `value of header "${last}"${where}${quoted}: ${issueMessage(issue)}`;
  }
  return `${path.length ? path.join('.') : what}${shownValue(given)}: ${issueMessage(issue)}`;
}

// ---- sensitive values: what no error message quotes

/** The definitions of schemas marked sensitive (a definition outlives `.describe()` copies). */
const SENSITIVE = new WeakSet<object>();

/**
 * Marks a schema's values sensitive (environment secrets, license keys, tokens): an error about
 * it or anything inside it names the field, never the value. Returns the schema.
 */
export function sensitive<S extends z.ZodType>(schema: S): S {
  SENSITIVE.add(schema._zod.def);
  return schema;
}

/** Headers whose value is a credential: an error names the header, never its value. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|api-?key|password/i;
export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADER.test(name);

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType;
  getter?: () => z.ZodType;
}
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** Whether the value at `path` of what `schema` parses is sensitive: a marked schema on the way there. */
export function isSensitiveAt(schema: z.ZodType | undefined, path: readonly PropertyKey[]): boolean {
  const visit = (s: z.ZodType | undefined, at: number, steps: number): boolean => {
    const def = s?._zod.def as Def | undefined;
    if (!def || steps > 64) return false;
    if (SENSITIVE.has(def)) return true;
    const next = (inner: z.ZodType | undefined, to = at) => visit(inner, to, steps + 1);
    if (WRAPPERS.has(def.type)) return next(def.innerType);
    if (def.type === 'pipe') return next(def.in) || next(def.out);
    if (def.type === 'lazy') return next(def.getter?.());
    if (def.type === 'union') return (def.options ?? []).some((o) => next(o));
    if (def.type === 'intersection') return next(def.left) || next(def.right);
    if (at >= path.length) return false;
    const key = String(path[at]);
    if (def.type === 'object') return next(def.shape?.[key] ?? def.catchall, at + 1);
    if (def.type === 'record') return next(def.valueType, at + 1);
    if (def.type === 'array') return next(def.element, at + 1);
    if (def.type === 'tuple') return next(def.items?.[Number(key)] ?? def.rest, at + 1);
    return false;
  };
  return visit(schema, 0, 0);
}

/**
 * What a JSON parser's error says, without the text it quotes (V8 shows a piece of the input,
 * which may hold a secret): `Unexpected token`, `Unterminated string in JSON at position 10`.
 */
export function jsonSyntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/^Unexpected token '.*'$/s, 'Unexpected token');
}
