/**
 * A variation's form as plain data, its rules as rows, and what the variation routes take:
 * the whole input for a new one, only the changed fields for an existing one.
 */
import type { Rule, SelectionMode } from '../../../src/core/model/rules';
import type { Variation } from '../../../src/core/model/endpoint';
import { timingInput, timingPatch, timingValues } from './timing-model';
// The core's words: a rule as the CLI writes it, what a variation takes from its endpoint.
export {
  formatRule as ruleText,
  inheritedText as inheritedLabel,
} from '../../../src/core/model/variation-text';
import {
  headerRows,
  headersPatch,
  newRowId,
  responseProblems,
  rowsToHeaders,
  type ResponseValues,
} from './form-model';

export const RULE_SOURCES = ['query', 'header', 'param', 'body'] as const satisfies readonly Rule['source'][];
export const RULE_OPS = ['equals', 'regex', 'exists'] as const satisfies readonly Rule['op'][];
export const SELECTION_MODES = ['rules', 'sequential', 'random'] as const satisfies readonly SelectionMode[];
// Every source, op and mode the model allows is offered (a compile error names a missing one).
const _all: [
  Exclude<Rule['source'], (typeof RULE_SOURCES)[number]>,
  Exclude<Rule['op'], (typeof RULE_OPS)[number]>,
  Exclude<SelectionMode, (typeof SELECTION_MODES)[number]>,
] extends [never, never, never]
  ? true
  : never = true;
void _all;

export const SOURCE_LABELS: Record<Rule['source'], string> = {
  query: 'Query parameter',
  header: 'Request header',
  param: 'Path parameter',
  body: 'JSON body path',
};
export const OP_LABELS: Record<Rule['op'], string> = {
  equals: 'equals',
  regex: 'matches regex',
  exists: 'exists',
};
export const MODE_LABELS: Record<SelectionMode, string> = {
  rules: 'By rules: the first variation whose rules all match, else the endpoint’s response',
  sequential: 'Sequential: the endpoint’s response, then each variation in turn',
  random: 'Random: any of them, equally likely',
};

export interface RuleRow {
  id: number;
  source: Rule['source'];
  key: string;
  op: Rule['op'];
  value: string;
}

export const newRuleRow = (): RuleRow => ({
  id: newRowId(),
  source: 'query',
  key: '',
  op: 'equals',
  value: '',
});

export interface VariationForm extends ResponseValues {
  name: string;
  rules: RuleRow[];
  /** The body is the endpoint's (the variation sets none); `body` is kept for when it is unticked. */
  inheritBody: boolean;
  /** The content type is the endpoint's (the variation sets none). */
  inheritContentType: boolean;
}

/**
 * The form of a variation; a new one starts with the endpoint's status, and its body and content
 * type (inherited: the variation sets none, so it follows the endpoint's).
 */
export function variationForm(
  v: Variation | undefined,
  endpoint: { status: number; contentType: string },
): VariationForm {
  if (!v)
    return {
      name: '',
      status: String(endpoint.status),
      statusText: '',
      contentType: endpoint.contentType,
      ...timingValues(),
      headers: [],
      body: '',
      templating: true,
      rules: [],
      inheritBody: true,
      inheritContentType: true,
    };
  return {
    name: v.name,
    status: String(v.status),
    statusText: v.statusText ?? '',
    contentType: v.contentType ?? endpoint.contentType,
    ...timingValues(v),
    headers: headerRows(v.headers),
    body: v.body ?? '',
    templating: v.templating !== false,
    rules: (v.rules ?? []).map((r) => ({ id: newRowId(), ...r, value: r.value ?? '' })),
    inheritBody: v.body === undefined,
    inheritContentType: v.contentType === undefined,
  };
}

/** The stored rules of the rows (`exists` has no value). */
export function rowsToRules(rows: RuleRow[]): Rule[] {
  return rows.map((r) => ({
    source: r.source,
    key: r.key.trim(),
    op: r.op,
    ...(r.op === 'exists' ? {} : { value: r.value }),
  }));
}

/**
 * Problems of the rule rows, by row id: an empty key. A regex is checked by the server, on the
 * linear-time engine rules run on (its syntax is not the browser's: no lookaround or
 * backreferences, `(?i)` allowed); its refusal shows under the rules.
 */
export function ruleProblems(rows: RuleRow[]): Record<number, string> {
  const out: Record<number, string> = {};
  for (const r of rows)
    if (!r.key.trim()) out[r.id] = 'Give the rule a key (a parameter or header name, or a body path)';
  return out;
}

export function variationProblems(
  form: VariationForm,
): Partial<Record<'name' | 'status' | 'delay' | 'fault' | 'faultRate' | 'contentType', string>> {
  const out: Partial<Record<'name' | 'status' | 'delay' | 'fault' | 'faultRate' | 'contentType', string>> =
    {};
  if (!form.name.trim()) out.name = 'Give the variation a name';
  Object.assign(out, responseProblems(form));
  if (!form.inheritContentType && !form.contentType.trim())
    out.contentType = "Give a content type, e.g. application/json, or use the endpoint's";
  return out;
}

/** The body of POST …/variations. */
export function variationInput(form: VariationForm): Record<string, unknown> {
  return {
    name: form.name.trim(),
    status: Number(form.status),
    ...(form.statusText ? { statusText: form.statusText } : {}),
    ...(form.inheritContentType ? {} : { contentType: form.contentType.trim() }),
    ...timingInput(form),
    headers: rowsToHeaders(form.headers),
    ...(form.inheritBody ? {} : { body: form.body }),
    ...(form.templating ? {} : { templating: false }),
    rules: rowsToRules(form.rules),
  };
}

/** The body of PATCH …/variations/{v}: only what differs from `base`; `rules` replaces the list. */
export function variationPatch(base: VariationForm, form: VariationForm): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (form.name.trim() !== base.name) p.name = form.name.trim();
  if (form.status !== base.status) p.status = Number(form.status);
  if (form.statusText !== base.statusText) p.statusText = form.statusText;
  // null: the endpoint's again.
  if (form.inheritContentType !== base.inheritContentType || form.contentType.trim() !== base.contentType)
    p.contentType = form.inheritContentType ? null : form.contentType.trim();
  if (form.inheritContentType && base.inheritContentType) delete p.contentType;
  Object.assign(p, timingPatch(base, form));
  if (form.inheritBody !== base.inheritBody || form.body !== base.body)
    p.body = form.inheritBody ? null : form.body;
  if (form.inheritBody && base.inheritBody) delete p.body;
  if (form.templating !== base.templating) p.templating = form.templating;
  const headers = headersPatch(rowsToHeaders(base.headers), rowsToHeaders(form.headers));
  if (Object.keys(headers).length) p.headers = headers;
  const rules = rowsToRules(form.rules);
  if (JSON.stringify(rules) !== JSON.stringify(rowsToRules(base.rules))) p.rules = rules;
  return p;
}
