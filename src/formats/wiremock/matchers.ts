import { linearRegexProblem } from '../../core/linear-regex.js';
import { ruleProblem, type Rule } from '../../core/model/rules.js';

/**
 * WireMock's request matchers (`queryParameters`, `headers`, `pathParameters`, `bodyPatterns`)
 * as variation rules (core/model/rules.ts: equals, regex, exists on query, header, param and
 * JSON body fields). What a rule cannot say is returned as a note (what was lost); the caller
 * reports the mapping as approximate. docs/import-wiremock.md lists the translations.
 */

export interface Translated {
  rules: Rule[];
  /** What could not be said, one line each (`header "X-Role": doesNotMatch is not supported`). */
  lost: string[];
}

const REGEX_SPECIALS = /[\\^$.*+?()[\]{}|]/g;
/** A text as a pattern that matches exactly it. */
export const escapeRegex = (s: string): string => s.replace(REGEX_SPECIALS, '\\$&');

/** A JSON object (not a list, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value WireMock compares as text (a number or a boolean written in JSON too). */
const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * One string matcher (`{ "equalTo": "x" }`, `{ "matches": "…" }`, `{ "contains": "…" }`,
 * `{ "absent": false }`) on `source.key` as a rule, or why it cannot be said.
 */
export function valueRule(
  source: Rule['source'],
  key: string,
  matcher: unknown,
  label: string,
): Rule | string {
  if (!isObject(matcher)) return `${label}: the matcher is not an object`;
  const caseless = matcher.caseInsensitive === true;
  const equalTo = textOf(matcher.equalTo);
  if (equalTo !== undefined)
    return caseless
      ? regexRule(source, key, `(?i)^${escapeRegex(equalTo)}$`, label)
      : { source, key, op: 'equals', value: equalTo };
  const matches = textOf(matcher.matches);
  // WireMock's `matches` is a whole-value match: anchored here.
  if (matches !== undefined) return regexRule(source, key, `^(?:${matches})$`, label);
  const contains = textOf(matcher.contains);
  if (contains !== undefined) return regexRule(source, key, escapeRegex(contains), label);
  if (matcher.absent === false) return { source, key, op: 'exists' };
  if (matcher.absent === true)
    return `${label}: "absent" is not supported (a rule cannot ask for a missing value), so it is not checked`;
  const kind = Object.keys(matcher)[0] ?? '(none)';
  return `${label}: the matcher "${kind}" is not supported, so it is not checked`;
}

function regexRule(source: Rule['source'], key: string, pattern: string, label: string): Rule | string {
  const problem = linearRegexProblem(pattern);
  if (problem) return `${label}: the pattern cannot be used (${problem}), so it is not checked`;
  return { source, key, op: 'regex', value: pattern };
}

/** `{ name: matcher }` (queryParameters, headers, pathParameters) as rules of `source`. */
export function namedRules(source: Rule['source'], field: string, matchers: unknown, out: Translated): void {
  if (matchers === undefined) return;
  if (!isObject(matchers)) {
    out.lost.push(`${field} is not an object, so it is not checked`);
    return;
  }
  for (const [name, matcher] of Object.entries(matchers)) {
    const made = valueRule(source, name, matcher, `${field} "${name}"`);
    if (typeof made === 'string') {
      out.lost.push(made);
      continue;
    }
    const problem = ruleProblem(made);
    if (problem) out.lost.push(`${field} "${name}": ${problem}, so it is not checked`);
    else out.rules.push(made);
  }
}

/** A JSONPath WireMock users write (`$.a.b`, `$.items[0].id`, `$['a']`) as a dotted key, or undefined. */
export function jsonPathKey(path: string): string | undefined {
  const m = /^\$((?:\.[A-Za-z_][\w-]*|\[\d+\]|\['[^'.]+'\]|\["[^".]+"\])+)$/.exec(path.trim());
  if (!m) return undefined;
  return m[1]!
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\[['"]([^'"]+)['"]\]/g, '.$1')
    .slice(1);
}

/** `equalToJson`'s document as equals rules on each leaf (objects and arrays walked, keys without dots). */
function jsonLeafRules(value: unknown, prefix: string, out: Translated): void {
  if (isObject(value) || Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) {
      out.rules.push({ source: 'body', key: prefix, op: 'equals', value: JSON.stringify(value) });
      return;
    }
    for (const [k, v] of entries) {
      if (k === '' || k.includes('.')) {
        out.lost.push(
          `bodyPatterns equalToJson: the field "${k}" cannot be named in a rule, so it is not checked`,
        );
        continue;
      }
      jsonLeafRules(v, prefix ? `${prefix}.${k}` : k, out);
    }
    return;
  }
  if (!prefix) {
    out.lost.push('bodyPatterns equalToJson: a body that is not an object or a list is not checked');
    return;
  }
  out.rules.push({
    source: 'body',
    key: prefix,
    op: 'equals',
    value: typeof value === 'string' ? value : JSON.stringify(value),
  });
}

/** One of `bodyPatterns`: JSON fields as body rules; what a rule cannot say about the whole body, lost. */
function bodyRule(pattern: unknown, out: Translated): void {
  if (!isObject(pattern)) {
    out.lost.push('bodyPatterns: an entry is not an object, so it is not checked');
    return;
  }
  if ('equalToJson' in pattern) {
    let doc = pattern.equalToJson;
    if (typeof doc === 'string') {
      try {
        doc = JSON.parse(doc);
      } catch {
        out.lost.push('bodyPatterns equalToJson: the JSON cannot be read, so it is not checked');
        return;
      }
    }
    const before = out.rules.length;
    jsonLeafRules(doc, '', out);
    if (out.rules.length > before)
      out.lost.push(
        'bodyPatterns equalToJson: compared field by field (other fields in the body are accepted)',
      );
    return;
  }
  if ('matchesJsonPath' in pattern) {
    const jp = pattern.matchesJsonPath;
    const expression = typeof jp === 'string' ? jp : isObject(jp) ? textOf(jp.expression) : undefined;
    const key = expression === undefined ? undefined : jsonPathKey(expression);
    if (key === undefined) {
      out.lost.push(
        `bodyPatterns matchesJsonPath ${JSON.stringify(expression ?? jp)}: only plain paths ($.a.b, $.items[0]) are supported, so it is not checked`,
      );
      return;
    }
    if (typeof jp === 'string') {
      out.rules.push({ source: 'body', key, op: 'exists' });
      return;
    }
    const { expression: _e, ...matcher } = jp as Record<string, unknown>;
    void _e;
    const made = valueRule('body', key, matcher, `bodyPatterns matchesJsonPath "${expression}"`);
    if (typeof made === 'string') out.lost.push(made);
    else out.rules.push(made);
    return;
  }
  const kind = Object.keys(pattern)[0] ?? '(none)';
  out.lost.push(
    `bodyPatterns ${kind}: a rule reads JSON fields of the body, not the whole body, so it is not checked`,
  );
}

/** `bodyPatterns` (all must match) as body rules. */
export function bodyRules(patterns: unknown, out: Translated): void {
  if (patterns === undefined) return;
  if (!Array.isArray(patterns)) {
    out.lost.push('bodyPatterns is not a list, so it is not checked');
    return;
  }
  for (const p of patterns) bodyRule(p, out);
}
