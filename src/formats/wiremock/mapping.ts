import type { Rule } from '../../core/model/rules.js';
import type { WireMockSource } from '../converted.js';
import { readRequest, type Route } from './request.js';
import { readResponse, type Answer } from './response.js';
import { isObject } from './matchers.js';

/**
 * One WireMock mapping read on its own: its route, its conditions as rules, its answer, and what
 * was approximate; or why it is skipped. Grouping by method and path is group.ts's.
 */

/** WireMock's priority when a mapping gives none (1 is the highest). */
export const DEFAULT_PRIORITY = 5;

export interface Mapping {
  /** The mapping's name for the report: its `name`, else the file (and index within it). */
  label: string;
  /** Its own `name`, when it has one. */
  name?: string;
  /** WireMock's `method` as written (ANY when none), for the report. */
  method: string;
  priority: number;
  route: Route;
  rules: Rule[];
  answer: Answer;
  /** What was lost in translation (one line each). */
  lost: string[];
}

export type MappingRead = Mapping | { label: string; method: string; shown: string; skipped: string };

/** Transformers whose absence or presence changes nothing here besides templating. */
const TEMPLATE_TRANSFORMER = 'response-template';

/** Reads one mapping (`label` names it in the report). */
export function readMapping(raw: unknown, label: string, source: WireMockSource): MappingRead {
  const m = isObject(raw) ? raw : {};
  const name = typeof m.name === 'string' && m.name.trim() ? m.name.trim() : undefined;
  const shownLabel = name ?? label;
  const request = isObject(m.request) ? m.request : undefined;
  const method = typeof request?.method === 'string' ? request.method.toUpperCase() : 'ANY';
  const shownUrl = (['url', 'urlPath', 'urlPathTemplate', 'urlPattern', 'urlPathPattern'] as const)
    .map((k) => request?.[k])
    .find((v): v is string => typeof v === 'string');
  const skip = (why: string): MappingRead => ({
    label: shownLabel,
    method,
    shown: shownUrl ?? '(any URL)',
    skipped: why,
  });
  if (!isObject(raw)) return skip('the mapping is not an object');
  const lost: string[] = [];
  const response = isObject(m.response) ? m.response : undefined;
  const transformers = [
    ...(Array.isArray(response?.transformers) ? response.transformers : []),
    ...(Array.isArray(m.transformers) ? m.transformers : []),
  ].map(String);
  const templating = transformers.includes(TEMPLATE_TRANSFORMER);
  for (const t of transformers)
    if (t !== TEMPLATE_TRANSFORMER) lost.push(`transformer "${t}" is not applied`);

  const route = readRequest(m.request, lost);
  if (typeof route === 'string') return skip(route);
  const answer = readResponse(m.response, templating, source, lost);
  if (typeof answer === 'string') return skip(answer);
  lost.push(...route.conditions.lost);

  if (typeof m.scenarioName === 'string') {
    const state = typeof m.requiredScenarioState === 'string' ? ` (state "${m.requiredScenarioState}")` : '';
    lost.push(`scenario "${m.scenarioName}"${state} is not followed: the mapping answers in every state`);
  }
  if (m.postServeActions !== undefined || m.serveEventListeners !== undefined)
    lost.push('postServeActions and serveEventListeners (webhooks) are not performed');
  const priority =
    typeof m.priority === 'number' && Number.isFinite(m.priority) ? m.priority : DEFAULT_PRIORITY;
  return {
    label: shownLabel,
    ...(name !== undefined ? { name } : {}),
    method,
    priority,
    route,
    rules: route.conditions.rules,
    answer,
    lost,
  };
}
