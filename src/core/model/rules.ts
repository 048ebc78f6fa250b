import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { described } from './describe.js';
import { RULE_DOCS } from './descriptions.js';

/**
 * Rules of a response variation: when all of a variation's rules match a request, that
 * variation answers (selection mode `rules`, the default). Stored as
 * `{ source, key, op, value? }`; the CLI writes one as `<source>.<key><op><value>` with op
 * `=` (equals), `~` (regex) or `?` (exists, no value): `query.page=2`, `header.x-role~^adm`,
 * `body.user.id?`. parseRule turns that text into the stored shape for every adapter.
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

/** The problem with a rule, or undefined: a value where one is needed, a regex that compiles. */
export function ruleProblem(rule: Rule): string | undefined {
  if (rule.op === 'exists') return rule.value !== undefined ? 'exists takes no value' : undefined;
  if (rule.value === undefined) return `${rule.op} needs a value`;
  if (rule.op === 'regex') {
    try {
      new RegExp(rule.value);
    } catch (e) {
      return `${JSON.stringify(rule.value)} is not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`;
    }
  }
  return undefined;
}

/** Adds an issue per bad rule of a list (used by the schemas of every adapter). */
export function checkRules(rules: Rule[] | undefined, ctx: z.core.$RefinementCtx<Rule[] | undefined>): void {
  rules?.forEach((rule, i) => {
    const problem = ruleProblem(rule);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [i, 'value'], input: rule.value });
  });
}

/** A variation's rules: all must match for it to answer. Absent or empty: never chosen by rules. */
export const RulesSchema = z.array(RuleObjectSchema).superRefine(checkRules);

const OP_SIGNS: Record<string, Rule['op']> = { '=': 'equals', '~': 'regex', '?': 'exists' };
const SIGN_OF: Record<Rule['op'], string> = { equals: '=', regex: '~', exists: '?' };
const RULE_SYNTAX = /^(query|header|param|body)\.([^=~?]+)([=~?])([\s\S]*)$/;

/** `query.page=2`, `header.x-role~^adm`, `body.user.id?` -> the stored rule; INVALID_ARGUMENT if bad. */
export function parseRule(text: string): Rule {
  const m = RULE_SYNTAX.exec(text.trim());
  const fail = (why: string): never => {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid rule ${JSON.stringify(text)}: ${why}`, {
      hint: 'A rule is <source>.<key><op><value>: source query, header, param or body; op = (equals), ~ (regex) or ? (exists, no value); e.g. query.page=2, header.x-role~^adm, body.user.id?',
    });
  };
  if (!m) {
    const source = /^([^.]*)\./.exec(text.trim())?.[1];
    if (source !== undefined && !(RULE_SOURCES as readonly string[]).includes(source))
      return fail(`unknown source "${source}" (use query, header, param or body)`);
    return fail('expected <source>.<key><op><value>');
  }
  const key = m[2]!.trim();
  if (!key) return fail('the key is empty');
  const op = OP_SIGNS[m[3]!]!;
  const raw = m[4]!;
  if (op === 'exists' && raw !== '') return fail('"?" (exists) takes no value');
  const rule: Rule = { source: m[1] as Rule['source'], key, op };
  if (op !== 'exists') rule.value = raw;
  const problem = ruleProblem(rule);
  if (problem) return fail(problem);
  return rule;
}

/** A rule as the CLI writes it: `query.page=2`. */
export function formatRule(rule: Rule): string {
  return `${rule.source}.${rule.key}${SIGN_OF[rule.op]}${rule.op === 'exists' ? '' : (rule.value ?? '')}`;
}

/** A rule given as CLI text or as the stored object (MCP, admin API): the stored rule. */
export function toRule(rule: string | Rule): Rule {
  return typeof rule === 'string' ? parseRule(rule) : rule;
}
