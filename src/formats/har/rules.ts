import type { Rule } from '../../core/model/rules.js';

/**
 * `query.` rules that pick one recorded answer from the query strings it was recorded with: a
 * parameter every one of them carries becomes `equals` when they agree on its value, else a
 * `regex` of the values they had (`^(?:1|2)$`, at most MAX_VALUES of them). A parameter only
 * some of them carry says nothing (it is left out).
 */

export const MAX_VALUES = 20;

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function queryRules(queries: readonly URLSearchParams[]): { rules: Rule[]; lost: string[] } {
  const rules: Rule[] = [];
  const lost: string[] = [];
  const [first, ...rest] = queries;
  if (!first) return { rules, lost };
  for (const key of new Set(first.keys())) {
    if (!rest.every((q) => q.has(key))) continue;
    const valuesOf = queries.map((q) => q.getAll(key));
    // Values every query had for the key: one equals rule each (a rule holds when any value of the key matches).
    const shared = valuesOf[0]!.filter(
      (v, i, all) => all.indexOf(v) === i && valuesOf.every((vs) => vs.includes(v)),
    );
    if (shared.length) {
      for (const value of shared) rules.push({ source: 'query', key, op: 'equals', value });
      continue;
    }
    const values = [...new Set(valuesOf.flat())];
    if (values.length > MAX_VALUES) {
      lost.push(`query parameter "${key}" had ${values.length} values: no rule on it`);
      continue;
    }
    rules.push({ source: 'query', key, op: 'regex', value: `^(?:${values.map(escapeRegex).join('|')})$` });
  }
  return { rules, lost };
}
