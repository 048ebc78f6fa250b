import { MockdevError } from '../core/errors.js';
import type { Flow, FlowStep } from '../core/model/flow.js';
import type { StoredProject } from '../core/ports.js';
import { findNamed } from './named-refs.js';

/** How a flow and its steps are named by those who use them: flows by id or name, steps by id or label. */

/** A flow by id, exact name or name in any case; NOT_FOUND naming the project's flows otherwise. */
export function findFlowByRef(state: StoredProject, ref: string): Flow {
  return findNamed(state, state.flows, ref, 'flow');
}

/** A step of a flow by id, or by label (exact, then in any case); NOT_FOUND naming its steps otherwise. */
export function findStepByRef(flow: Flow, ref: string): FlowStep {
  const found = lookupStep(flow.steps, ref);
  if (found) return found;
  const steps = flow.steps.map((s, i) => (s.label ? `${s.label} (${s.id})` : `step ${i + 1} (${s.id})`));
  throw new MockdevError('NOT_FOUND', `Step "${ref.trim()}" not found in flow "${flow.name}"`, {
    hint: steps.length ? `Its steps: ${steps.join(', ')}` : 'It has no steps',
    details: { step: ref.trim(), flowId: flow.id },
  });
}

export function lookupStep(steps: FlowStep[], ref: string): FlowStep | undefined {
  const wanted = ref.trim();
  return (
    steps.find((s) => s.id === wanted) ??
    steps.find((s) => s.label === wanted) ??
    steps.find((s) => s.label?.toLowerCase() === wanted.toLowerCase())
  );
}
