import { ruleProblem, type Rule } from '../../core/model/rules.js';

/**
 * Mockoon's response rules (`{ target, modifier, operator, value, invert }`) as mockdev's
 * variation rules (core/model/rules.ts: query, header, param, body; equals, regex, exists), or
 * why one cannot be said. What translates (docs/import-mockoon.md):
 *   - targets query (a `a.b` modifier is the parameter `a[b]`), header, params (→ param), body
 *     with a modifier (a dotted path; a `$` JSONPath cannot), cookie (equals: a regex on the
 *     Cookie header);
 *   - operators equals, regex, regex_i (`(?i)` before the pattern), empty_array on the body
 *     (the value's JSON is `[]`), and `null` inverted (present and not empty: regex `.`).
 * The rest (path, method, request_number, global_var, data_bucket, templating targets; the
 * null, array_includes and valid_json_schema operators; invert elsewhere; a `{{…}}` in a
 * modifier or value; a pattern the linear-time engine cannot run) cannot.
 */

export interface MockoonRule {
  target?: unknown;
  modifier?: unknown;
  value?: unknown;
  operator?: unknown;
  invert?: unknown;
  /** Before Mockoon's migration 18 a regex was `isRegex: true` (operator absent). */
  isRegex?: unknown;
}

export type Translated = { rule: Rule } | { problem: string };

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** How a Mockoon rule reads in the report: `query page equals 2`, `not header x regex ^a`. */
export function describeMockoonRule(r: MockoonRule): string {
  const parts = [r.invert === true ? 'not' : '', str(r.target) || '(no target)', str(r.modifier)];
  const op = operatorOf(r);
  parts.push(op);
  if (op !== 'null' && op !== 'empty_array') parts.push(JSON.stringify(str(r.value)));
  return parts.filter(Boolean).join(' ');
}

function operatorOf(r: MockoonRule): string {
  if (typeof r.operator === 'string' && r.operator) return r.operator;
  return r.isRegex === true ? 'regex' : 'equals';
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function keyOf(target: string, modifier: string): { source: Rule['source']; key: string } | string {
  switch (target) {
    case 'query':
      if (!modifier) return 'a rule on the whole query string';
      // Mockoon reads the query with qs: `filter.name` is the parameter written filter[name].
      return {
        source: 'query',
        key: modifier.split('.').reduce((acc, part, i) => (i === 0 ? part : `${acc}[${part}]`), ''),
      };
    case 'header':
      return modifier ? { source: 'header', key: modifier } : 'a header rule without a header name';
    case 'params':
      return modifier ? { source: 'param', key: modifier } : 'a params rule without a parameter name';
    case 'body':
      if (!modifier) return 'a rule on the whole body text';
      if (modifier.startsWith('$')) return 'a JSONPath body rule';
      return { source: 'body', key: modifier };
    default:
      return `the ${target || 'missing'} target`;
  }
}

/** The mockdev rule saying `r`, or the problem (the report's wording after "cannot be said: "). */
export function translateRule(r: MockoonRule): Translated {
  const target = str(r.target);
  const modifier = str(r.modifier).trim();
  const value = str(r.value);
  const op = operatorOf(r);
  const invert = r.invert === true;
  if (modifier.includes('{{') || value.includes('{{'))
    return { problem: 'a template in a rule is rendered per request by Mockoon' };
  if (target === 'cookie') {
    if (!modifier) return { problem: 'a cookie rule without a cookie name' };
    if (op !== 'equals' || invert)
      return { problem: `the ${invert ? 'inverted ' : ''}${op} operator on a cookie` };
    const pattern = `(?:^|;\\s*)${escapeRegex(modifier)}=${escapeRegex(value)}(?:;|$)`;
    return checked({ source: 'header', key: 'cookie', op: 'regex', value: pattern });
  }
  const at = keyOf(target, modifier);
  if (typeof at === 'string') return { problem: at };
  if (op === 'null')
    return invert
      ? checked({ ...at, op: 'regex', value: '.' })
      : { problem: 'the null operator (absent or empty)' };
  if (invert) return { problem: 'an inverted rule' };
  switch (op) {
    case 'equals':
      return checked({ ...at, op: 'equals', value });
    case 'regex':
      return checked({ ...at, op: 'regex', value });
    case 'regex_i':
      return checked({ ...at, op: 'regex', value: `(?i)${value}` });
    case 'empty_array':
      return at.source === 'body'
        ? checked({ ...at, op: 'equals', value: '[]' })
        : { problem: `the empty_array operator on ${target}` };
    default:
      return { problem: `the ${op} operator` };
  }
}

function checked(rule: Rule): Translated {
  const problem = ruleProblem(rule);
  return problem ? { problem } : { rule };
}
