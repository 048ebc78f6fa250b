import type { Endpoint } from '../types';
import { BodyField } from '../editor/body-field';
import { HeadersEditor, SelectField, TextField } from '../editor/fields';
import { headerProblems, METHODS } from '../editor/form-model';
import { FLOW_DELAY_MAX_MS } from '../../../src/core/model/limits';
import {
  ACTIONS,
  endpointName,
  stepName,
  TRIGGERS,
  type ActionType,
  type StepForm,
  type TriggerType,
} from './flow-form';

/**
 * One step of the flow editor: its label, its trigger and its action chosen from menus (the
 * SPEC's words), and the fields of each: endpoints by `METHOD /path`, the step an `after`
 * trigger follows by its label, a callback's method, URL, headers, body, retries and timeout.
 * `problem(field)` gives the problem at a field of this step (`trigger.ms`, `action.url`).
 */
export function StepFields(props: {
  step: StepForm;
  index: number;
  steps: readonly StepForm[];
  endpoints: readonly Endpoint[];
  problem: (field: string) => string | undefined;
  onChange: (change: Partial<StepForm>) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}) {
  const { step, index, steps, endpoints, problem, onChange } = props;
  const title = `Step ${index + 1}`;
  const endpointOptions = (kind?: Endpoint['kind']): [string, string][] => {
    const fit = endpoints.filter((e) => !kind || e.kind === kind);
    const options: [string, string][] = fit.map((e) => [e.id, endpointName(e)]);
    // A step saved with an endpoint this menu would not offer (removed, or of another kind) keeps it shown.
    const chosen = kind ? step.actionEndpoint : step.triggerEndpoint;
    if (chosen && !fit.some((e) => e.id === chosen)) {
      const e = endpoints.find((x) => x.id === chosen);
      options.push([
        chosen,
        e ? `${endpointName(e)} (not a ${kind} endpoint)` : `${chosen} (no such endpoint)`,
      ]);
    }
    return [['', 'Choose an endpoint…'], ...options];
  };
  const others = steps.filter((s) => s.key !== step.key);
  const contentType =
    step.headers.find((h) => h.name.trim().toLowerCase() === 'content-type')?.value.trim() ?? '';

  return (
    <fieldset className="flow-step">
      <legend>
        {title}
        {step.label.trim() && `: ${step.label.trim()}`}
      </legend>
      <div className="step-tools">
        <button
          type="button"
          disabled={index === 0}
          aria-label={`Move up ${title}`}
          onClick={() => props.onMove(-1)}
        >
          Move up
        </button>
        <button
          type="button"
          disabled={index === steps.length - 1}
          aria-label={`Move down ${title}`}
          onClick={() => props.onMove(1)}
        >
          Move down
        </button>
        <button type="button" className="danger" aria-label={`Remove ${title}`} onClick={props.onRemove}>
          Remove step
        </button>
      </div>
      <div className="form-grid">
        <TextField
          label="Label"
          className="wide"
          value={step.label}
          onChange={(v) => onChange({ label: v })}
          problem={problem('label')}
          hint="Optional: names the step in After step and in templates ({{steps.<label>.status}})"
        />
      </div>
      <div className="form-grid">
        <SelectField
          label="Trigger"
          value={step.trigger}
          onChange={(v) => onChange({ trigger: v as TriggerType })}
          options={TRIGGERS}
          problem={problem('trigger.type')}
        />
        {step.trigger === 'request' && (
          <SelectField
            label="Endpoint that fires it"
            className="wide"
            value={step.triggerEndpoint}
            onChange={(v) => onChange({ triggerEndpoint: v })}
            options={endpointOptions()}
            problem={problem('trigger.endpointId')}
          />
        )}
        {step.trigger === 'after' && (
          <SelectField
            label="Step it follows"
            value={step.after ? String(step.after) : ''}
            onChange={(v) => onChange({ after: Number(v) })}
            options={[
              ['', 'Choose a step…'],
              ...others.map((s): [string, string] => [String(s.key), stepName(steps, s.key)]),
            ]}
            problem={problem('trigger.stepId')}
          />
        )}
        {step.trigger !== 'request' && (
          <TextField
            label={
              step.trigger === 'delay' ? 'Delay after the run starts (ms)' : 'Delay after that step (ms)'
            }
            value={step.delay}
            onChange={(v) => onChange({ delay: v })}
            problem={problem(step.trigger === 'delay' ? 'trigger.ms' : 'trigger.delayMs')}
            hint={`Up to ${FLOW_DELAY_MAX_MS} (24 hours)`}
            inputMode="numeric"
          />
        )}
      </div>
      <div className="form-grid">
        <SelectField
          label="Action"
          value={step.action}
          onChange={(v) => onChange({ action: v as ActionType })}
          options={ACTIONS}
          problem={problem('action.type')}
        />
        {step.action !== 'callback' && (
          <SelectField
            label={step.action === 'respond' ? 'Mock endpoint that answers' : 'Proxy endpoint'}
            className="wide"
            value={step.actionEndpoint}
            onChange={(v) => onChange({ actionEndpoint: v })}
            options={endpointOptions(step.action === 'respond' ? 'mock' : 'proxy')}
            problem={problem('action.endpointId')}
          />
        )}
        {step.action === 'callback' && (
          <>
            <SelectField
              label="Method"
              value={step.method}
              onChange={(v) => onChange({ method: v })}
              options={METHODS}
              problem={problem('action.method')}
            />
            <TextField
              label="URL"
              className="wide"
              value={step.url}
              onChange={(v) => onChange({ url: v })}
              problem={problem('action.url')}
              placeholder="https://example.com/hooks/{{body.id}}"
              inputMode="url"
            />
            <TextField
              label="Retries"
              value={step.retries}
              onChange={(v) => onChange({ retries: v })}
              problem={problem('action.retries')}
              hint="500 ms, 1 s, 2 s, … apart"
              inputMode="numeric"
            />
            <TextField
              label="Timeout (ms)"
              value={step.timeout}
              onChange={(v) => onChange({ timeout: v })}
              problem={problem('action.timeoutMs')}
              inputMode="numeric"
            />
          </>
        )}
      </div>
      {step.action === 'callback' && (
        <>
          <h4>Callback headers</h4>
          <HeadersEditor
            rows={step.headers}
            onChange={(headers) => onChange({ headers })}
            problems={headerProblems(step.headers)}
            what="Callback"
          />
          {problem('action.headers') && <p className="field-problem">{problem('action.headers')}</p>}
          <BodyField
            label="Callback body (a template)"
            value={step.body}
            onChange={(body) => onChange({ body })}
            contentType={contentType}
            rows={4}
            apiProblem={problem('action.body') ? new Error(problem('action.body')) : undefined}
          />
        </>
      )}
    </fieldset>
  );
}
