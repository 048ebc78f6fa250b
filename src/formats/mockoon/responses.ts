import { newId } from '../../core/ids.js';
import type { EndpointInput } from '../../core/model/endpoint.js';
import { DELAY_MAX_MS } from '../../core/model/limits.js';
import type { Rule } from '../../core/model/rules.js';
import { checkTemplate } from '../../core/templates/engine.js';
import { uniqueName } from '../../core/naming.js';
import { cleanName } from '../openapi/import.js';
import { describeMockoonRule, translateRule } from './rules.js';
import type { MockoonHeader, MockoonResponse, MockoonRoute } from './shapes.js';

/**
 * A Mockoon route's responses as an endpoint's default response and variations
 * (docs/import-mockoon.md): which response is the default, how `responseMode` and
 * `rulesOperator` become our modes and rules, the environment's headers and latency merged in.
 */

/** What the converter says about one route (the note's method, path and name are the caller's). */
export type Say = (kind: 'approximate' | 'skipped', message: string) => void;

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  contentType: string;
  delay: number;
  templating?: false;
}

export interface EnvironmentDefaults {
  headers: MockoonHeader[];
  latency: number;
  /** A data bucket's text by its id (or uuid), for DATABUCKET bodies. */
  bucketText(id: string): string | undefined;
}

const statusOf = (v: unknown): number => (typeof v === 'number' ? v : parseInt(String(v), 10));

/** The response as we send it: environment headers under its own, Content-Type as the content type. */
export function answerOf(r: MockoonResponse, env: EnvironmentDefaults, label: string, say: Say): Answer {
  const headers: Record<string, string> = {};
  let contentType = '';
  let cookies = 0;
  for (const h of [...env.headers, ...r.headers]) {
    if (!h.key) continue;
    const lower = h.key.toLowerCase();
    if (lower === 'content-type') {
      contentType = h.value;
      continue;
    }
    if (lower === 'set-cookie' && r.headers.includes(h)) cookies++;
    for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) delete headers[k];
    headers[h.key] = h.value;
  }
  if (cookies > 1) say('approximate', `${label}: ${cookies} Set-Cookie headers; only the last is sent`);
  let body = r.body;
  if (r.bodyType === 'DATABUCKET') {
    const bucket = env.bucketText(r.databucketID);
    if (bucket === undefined)
      say(
        'approximate',
        `${label}: its data bucket "${r.databucketID}" is not in the environment; the body is empty`,
      );
    body = bucket ?? '';
  }
  if (r.callbacks > 0)
    say(
      'approximate',
      `${label}: ${r.callbacks} callback${r.callbacks === 1 ? '' : 's'} not imported (mockdev flows can make callbacks)`,
    );
  const answer: Answer = {
    status: statusOf(r.status),
    headers,
    body,
    // Without a Content-Type, Mockoon (Express) sends text as text/html.
    contentType: contentType || 'text/html; charset=utf-8',
    delay: Math.min(DELAY_MAX_MS, Math.max(0, Math.round(env.latency + r.latency))),
  };
  if (r.disableTemplating) answer.templating = false;
  else {
    for (const t of [answer.body, ...Object.values(headers)]) {
      const problem = checkTemplate(t);
      if (!problem) continue;
      say('approximate', `${label}: template sent as written (templating off): ${problem.message}`);
      answer.templating = false;
      break;
    }
  }
  return answer;
}

const responseLabel = (r: MockoonResponse, i: number): string =>
  cleanName(r.label) || `${String(statusOf(r.status))}${i === 0 ? '' : ` (${i + 1})`}`;

type Variation = NonNullable<EndpointInput['variations']>[number];

/**
 * The endpoint fields the responses give: the default response (the `default: true` one, else
 * the first) answers; in rules mode every response with rules, the default's included, is a
 * variation in Mockoon's order; SEQUENTIAL and RANDOM keep Mockoon's order (the first response
 * is the endpoint's own).
 */
export function responsesOf(
  route: MockoonRoute,
  env: EnvironmentDefaults,
  say: Say,
): Pick<
  EndpointInput,
  'status' | 'headers' | 'body' | 'contentType' | 'delay' | 'templating' | 'variations' | 'mode'
> | null {
  const usable = route.responses.filter((r) => {
    if (r.bodyType !== 'FILE') return true;
    say(
      'skipped',
      `response "${r.label || String(statusOf(r.status))}" skipped: its body is the file ${JSON.stringify(r.filePath)}, which an import does not read`,
    );
    return false;
  });
  if (usable.length === 0) {
    say('skipped', 'no response left to import');
    return null;
  }
  const mode = route.responseMode;
  const ordered = mode === 'SEQUENTIAL' || mode === 'RANDOM';
  const main = ordered ? usable[0]! : (usable.find((r) => r.isDefault) ?? usable[0]!);
  const labels = new Map(usable.map((r) => [r, responseLabel(r, route.responses.indexOf(r))]));
  const mainAnswer = answerOf(main, env, `response "${labels.get(main)!}"`, say);
  const taken: string[] = [];
  const variations: Variation[] = [];
  const add = (r: MockoonResponse, rules?: Rule[]): void => {
    const a = r === main ? mainAnswer : answerOf(r, env, `response "${labels.get(r)!}"`, say);
    const name = uniqueName(labels.get(r)!, taken);
    taken.push(name);
    const extra = Object.keys(mainAnswer.headers).filter(
      (k) => !Object.keys(a.headers).some((h) => h.toLowerCase() === k.toLowerCase()),
    );
    if (extra.length && r !== main)
      say(
        'approximate',
        `response "${name}" also sends the default response's header${extra.length === 1 ? '' : 's'} ${extra.join(', ')} (a variation sends the endpoint's headers under its own)`,
      );
    variations.push({ id: newId(), name, ...a, ...(rules && rules.length ? { rules } : {}) });
  };
  if (ordered || mode === 'DISABLE_RULES') {
    for (const r of usable) if (r !== main) add(r);
  } else {
    if (mode === 'FALLBACK')
      say(
        'approximate',
        'responseMode FALLBACK: when no rule matches, Mockoon passes the request on (to a later route or 404); here the default response answers',
      );
    for (const r of usable) {
      if (r.rules.length === 0) {
        if (r !== main) add(r);
        continue;
      }
      const results = r.rules.map((rule) => ({ rule, t: translateRule(rule) }));
      const bad = results.filter((x) => 'problem' in x.t);
      for (const x of bad)
        say(
          'approximate',
          `response "${labels.get(r)!}": rule "${describeMockoonRule(x.rule)}" cannot be said here (${(x.t as { problem: string }).problem})${r.rulesOperator === 'AND' || r.rules.length === 1 ? '; the response is not chosen by rules (name it in X-Mockdev-Variation or make it active)' : '; the response answers for its other rules'}`,
        );
      const good = results.flatMap((x) => ('rule' in x.t ? [x.t.rule] : []));
      if (r.rulesOperator === 'AND' || r.rules.length === 1) add(r, bad.length ? [] : good);
      // OR: one variation per rule, in order (a variation's rules all have to match).
      else if (good.length === 0) add(r);
      else for (const rule of good) add(r, [rule]);
    }
  }
  return {
    ...mainAnswer,
    variations,
    ...(mode === 'SEQUENTIAL'
      ? { mode: 'sequential' as const }
      : mode === 'RANDOM'
        ? { mode: 'random' as const }
        : {}),
  };
}
