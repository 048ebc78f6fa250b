import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { linearRegexProblem } from '../linear-regex.js';
import { described } from './describe.js';
import { HEADER_NAME_PATTERN } from './limits.js';
import { RULE_DOCS } from './descriptions.js';
import { ESCAPED_START, formatRule } from './variation-text.js';

export { formatRule };

/**
 * Rules of a response variation: when all of a variation's rules match a request, that
 * variation answers (selection mode `rules`, the default). Stored as
 * `{ source, key, op, value? }`; the CLI writes one as `<source>.<key><op><value>` with op
 * `=` (equals), `~` (regex) or `?` (exists, no value): `query.page=2`, `header.x-role~^adm`,
 * `body.user.id?`. parseRule turns that text into the stored shape for every adapter.
 *
 * Regexes run on the linear-time engine (core/linear-regex.ts): a pattern it cannot run is
 * refused when saved. The stored shape (StoredRulesSchema, what a file is read with) does not
 * check patterns: one stored before, or by a hand edit, loads, never matches and is reported
 * when the server loads the endpoints (runtime/variations.ts).
 */

export const RULE_SOURCES = ['query', 'header', 'param', 'body'] as const;
export const RULE_OPS = ['equals', 'regex', 'exists'] as const;
export const SELECTION_MODES = ['rules', 'sequential', 'random'] as const;

export const RuleSourceSchema = z.enum(RULE_SOURCES);
export const RuleOpSchema = z.enum(RULE_OPS);

/** How an endpoint picks among its default response and its variations (absent: `rules`). */
export const SelectionModeSchema = z.enum(SELECTION_MODES);
export type SelectionMode = z.infer<typeof SelectionModeSchema>;

/** One rule, unchecked across fields (see RulesSchema for the checks). */
const ruleFields = z.object({
  /** Where the value comes from: query parameter, request header, path parameter, JSON body. */
  source: RuleSourceSchema,
  /** Parameter or header name (headers case-insensitive), or a dotted path into the JSON body. */
  key: z.string().trim().min(1, 'must not be empty'),
  /** equals: the value is exactly `value`; regex: `value` matches it; exists: it is present. */
  op: RuleOpSchema,
  /** What equals compares with, or the regular expression; none for exists. */
  value: z.string().optional(),
});
export const RuleObjectSchema = described(ruleFields, RULE_DOCS);
export type Rule = z.infer<typeof RuleObjectSchema>;

/** The problem with a rule's shape, or undefined: a value where one is needed, none for exists. */
function shapeProblem(rule: Rule): string | undefined {
  if (rule.op === 'exists') return rule.value !== undefined ? 'exists takes no value' : undefined;
  if (rule.value === undefined) return `${rule.op} needs a value`;
  return undefined;
}

/**
 * The problem with a rule, or undefined: its shape, and a regex the linear-time engine can run
 * (the message says why not and what to write instead).
 */
export function ruleProblem(rule: Rule): string | undefined {
  return (
    shapeProblem(rule) ??
    headerKeyProblem(rule) ??
    (rule.op === 'regex' ? linearRegexProblem(rule.value!) : undefined)
  );
}

/**
 * A header rule names a header a request can carry: a name with a space or a colon never
 * matches, so it is refused when saved (a stored one still loads, as a pattern does).
 */
function headerKeyProblem(rule: Rule): string | undefined {
  if (rule.source !== 'header' || HEADER_NAME_PATTERN.test(rule.key)) return undefined;
  return `${JSON.stringify(rule.key)} is not a header name (letters, digits and !#$%&'*+-.^_\`|~, no spaces or colons), so no request could match it`;
}

/** A refinement adding an issue per rule of a list that `problem` finds wrong. */
const addIssues =
  (problem: (rule: Rule) => string | undefined) =>
  (rules: Rule[] | undefined, ctx: z.core.$RefinementCtx<Rule[] | undefined>): void => {
    rules?.forEach((rule, i) => {
      const why = problem(rule);
      if (why) ctx.addIssue({ code: 'custom', message: why, path: [i, 'value'], input: rule.value });
    });
  };

/** Rules given to be saved: all must match for the variation to answer; patterns checked. */
export const RulesSchema = z.array(RuleObjectSchema).superRefine(addIssues(ruleProblem));

/**
 * A variation's rules as stored: all must match for it to answer (absent or empty: never chosen
 * by rules). Shapes are checked; patterns are checked when saved (assertRulesSavable), not when
 * read, so a file holding a pattern the engine refuses still loads.
 */
export const StoredRulesSchema = z.array(RuleObjectSchema).superRefine(addIssues(shapeProblem));

/**
 * Refuses (INVALID_ARGUMENT) a rule of `variations` the linear-time engine cannot run, unless
 * the same rule is already stored on the endpoint (`before`): a pattern saved by an earlier
 * mockdev or a hand edit does not block other changes; it never matches, and the server says so.
 */
export function assertRulesSavable(
  variations: { name: string; rules?: Rule[] }[],
  before: { rules?: Rule[] }[] = [],
): void {
  const stored = new Set(before.flatMap((v) => (v.rules ?? []).map((r) => formatRule(r))));
  for (const v of variations)
    for (const rule of v.rules ?? []) {
      if (rule.op !== 'regex' || stored.has(formatRule(rule))) continue;
      const problem = ruleProblem(rule);
      if (problem)
        throw new MockdevError(
          'INVALID_ARGUMENT',
          `Invalid rule ${JSON.stringify(formatRule(rule))} of variation "${v.name}": ${problem}`,
          { details: { field: 'rules', variation: v.name } },
        );
    }
}

const OP_SIGNS: Record<string, Rule['op']> = { '=': 'equals', '~': 'regex', '?': 'exists' };
const RULE_SYNTAX = /^(query|header|param|body)\.([^=~?]+)([=~?])([\s\S]*)$/;
/**
 * Signs other tools use in operators (`!=`, `=~`, `==`, `<=`, `>`, `!~`, and CSS's `^=`, `$=`,
 * `*=`, `|=`): never the last character of a key.
 */
const OTHER_OP_SIGNS = '!<>^$*|';

const RULE_HINT =
  'A rule is <source>.<key><op><value>: source query, header, param or body; op = (equals), ~ (regex) or ? (exists, no value); e.g. query.page=2, header.x-role~^adm, body.user.id?. A value that starts with = or ~ is written with a backslash before it: query.q=\\=x';

/**
 * `query.page=2`, `header.x-role~^adm`, `body.user.id?` -> the stored rule; INVALID_ARGUMENT if
 * bad. The operator is `=`, `~` or `?` and nothing else: `query.q!=x` and `header.x=~abc` are
 * refused rather than read as key `q!` or the value `~abc`. A value that really starts with `=`
 * or `~` is written `\=…` / `\~…` (and one starting with a backslash before those, `\\…`).
 */
export function parseRule(text: string): Rule {
  const m = RULE_SYNTAX.exec(text.trim());
  const fail = (why: string): never => {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid rule ${JSON.stringify(text)}: ${why}`, {
      hint: RULE_HINT,
    });
  };
  const badOperator = (op: string): never =>
    fail(`unknown operator "${op}": use = (equals), ~ (regex) or ? (exists)`);
  if (!m) {
    const other = /^(?:query|header|param|body)\.[^=~?!<>]+([!<>]+)/.exec(text.trim());
    if (other) return badOperator(other[1]!);
    const source = /^([^.]*)\./.exec(text.trim())?.[1];
    if (source !== undefined && !(RULE_SOURCES as readonly string[]).includes(source))
      return fail(`unknown source "${source}" (use query, header, param or body)`);
    return fail('expected <source>.<key><op><value>');
  }
  const rawKey = m[2]!;
  const sign = m[3]!;
  const raw = m[4]!;
  const last = rawKey.trimEnd().slice(-1);
  if (last && OTHER_OP_SIGNS.includes(last)) return badOperator(`${last}${sign}`);
  const key = rawKey.trim();
  if (!key) return fail('the key is empty');
  const op = OP_SIGNS[sign]!;
  if (op === 'exists') {
    if (raw !== '')
      return /^[=~]/.test(raw) ? badOperator(`?${raw[0]!}`) : fail('"?" (exists) takes no value');
    const exists: Rule = { source: m[1] as Rule['source'], key, op };
    const problem = ruleProblem(exists);
    return problem ? fail(problem) : exists;
  }
  if (/^[=~]/.test(raw)) return badOperator(`${sign}${raw[0]!}`);
  // equals compares text: the escaping backslash goes; a regex keeps it (`\=` matches "=").
  const value = op === 'equals' && ESCAPED_START.test(raw) ? raw.slice(1) : raw;
  const rule: Rule = { source: m[1] as Rule['source'], key, op, value };
  const problem = ruleProblem(rule);
  if (problem) return fail(problem);
  return rule;
}

/** A rule given as CLI text or as the stored object (MCP, admin API): the stored rule. */
export function toRule(rule: string | Rule): Rule {
  return typeof rule === 'string' ? parseRule(rule) : rule;
}
