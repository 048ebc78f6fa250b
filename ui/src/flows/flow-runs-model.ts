/** The runs of a flow as the editor shows them, as plain data (unit tested in flow-form.test.ts). */
import { formatDuration } from '../requests/format';
import type { FlowRun, FlowRunStep } from '../types';

/** Runs shown per flow, newest first. */
export const SHOWN_RUNS = 10;

export const STARTED_BY: Record<FlowRun['startedBy'], string> = {
  request: 'a request',
  start: 'the server’s start',
  enabled: 'enabling the flow',
  manual: 'hand',
};

/** The runs a `flow-run` event brought, over those loaded: the newer of each id, newest first. */
export function mergeRuns(loaded: readonly FlowRun[], live: readonly FlowRun[], max = SHOWN_RUNS): FlowRun[] {
  const byId = new Map(loaded.map((r) => [r.id, r]));
  for (const r of live) byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, max);
}

/** What a callback step did, in one line: `POST https://… → 200, 1 attempt, 12 ms`, or its error. */
export function callbackText(step: FlowRunStep): string {
  const c = step.callback;
  if (!c) return '';
  const answer = c.status === null ? 'no answer' : String(c.status);
  const attempts = `${c.attempts} attempt${c.attempts === 1 ? '' : 's'}`;
  return `${c.method} ${c.url} → ${answer}, ${attempts}, ${formatDuration(c.durationMs)}${c.error ? `: ${c.error}` : ''}`;
}
