import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, enc, patch } from '../api/client';
import { useConfirm } from '../components/confirm';
import { ErrorMessage, useNotify } from '../components/notices';
import { TextField, useFocusProblem, useLeaveGuard } from '../editor/fields';
import type { Endpoint, Flow, ProjectListing } from '../types';
import {
  flowChanged,
  flowForm,
  flowPatch,
  flowProblems,
  newStep,
  problemAt,
  type FlowForm,
  type StepForm,
} from './flow-form';
import { StepFields } from './step-fields';

/** The field an API problem names (`details.field`, a dotted path from the flow) and its words. */
function apiField(error: unknown): { field: string; text: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const field = (error.details as { field?: unknown } | undefined)?.field;
  return typeof field === 'string' ? { field, text: error.detail ?? error.title } : undefined;
}

/**
 * A flow's name, description and steps, in order, each step's trigger and action chosen from
 * menus; saved as the changed fields (PATCH, `steps` replacing them all). Problems the form can
 * see show at the field before saving; the API's, at the field its `details.field` names.
 */
export function FlowEditor(props: {
  project: ProjectListing;
  flow: Flow;
  endpoints: readonly Endpoint[];
  onSaved: (flow: Flow) => void;
  onClose: () => void;
}) {
  const { project, flow, endpoints } = props;
  const notify = useNotify();
  const confirm = useConfirm();
  const [base, setBase] = useState<FlowForm>(() => flowForm(flow));
  const [form, setForm] = useState<FlowForm>(base);
  const [saveError, setSaveError] = useState<unknown>();
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const dirty = flowChanged(base, form);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const formRef = useRef<HTMLFormElement>(null);
  const focusProblem = useFocusProblem(formRef);

  // The flow as the list has it now (saved here, or changed elsewhere): shown at once unless
  // something is typed, which is kept.
  useEffect(() => {
    if (dirtyRef.current) return;
    const f = flowForm(flow);
    setBase(f);
    setForm(f);
  }, [flow]);

  useLeaveGuard(dirty);

  const own = tried ? flowProblems(form) : {};
  const api = apiField(saveError);
  const problem = (field: string) => problemAt(own, api, field);
  const setStep = (key: number, change: Partial<StepForm>) =>
    setForm((f) => ({ ...f, steps: f.steps.map((s) => (s.key === key ? { ...s, ...change } : s)) }));
  const moveStep = (key: number, by: -1 | 1) =>
    setForm((f) => {
      const steps = [...f.steps];
      const i = steps.findIndex((s) => s.key === key);
      const [step] = steps.splice(i, 1);
      steps.splice(i + by, 0, step!);
      return { ...f, steps };
    });

  async function save(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(flowProblems(form)).length) return focusProblem();
    const change = flowPatch(base, form);
    if (!Object.keys(change).length) return notify.info('Nothing to save: no field changed');
    setBusy(true);
    setSaveError(undefined);
    try {
      const saved = await patch<Flow>(`/projects/${enc(project.id)}/flows/${enc(flow.id)}`, change);
      const f = flowForm(saved);
      setBase(f);
      setForm(f);
      setTried(false);
      notify.info(`Saved ${saved.name}`);
      props.onSaved(saved);
    } catch (err) {
      setSaveError(err);
      focusProblem();
    } finally {
      setBusy(false);
    }
  }

  async function close() {
    if (
      dirty &&
      !(await confirm({
        title: 'Discard unsaved changes?',
        message: `The changes to ${flow.name} are not saved.`,
        confirmLabel: 'Discard',
      }))
    )
      return;
    props.onClose();
  }

  return (
    <section className="flow-editor" aria-labelledby="flow-editor-title">
      <div className="editor-head">
        <h2 id="flow-editor-title">Edit {flow.name}</h2>
        {dirty && <span className="badge">Unsaved changes</span>}
      </div>
      <form ref={formRef} onSubmit={(e) => void save(e)} noValidate aria-labelledby="flow-editor-title">
        <div className="form-grid">
          <TextField
            label="Name"
            value={form.name}
            onChange={(v) => setForm((f) => ({ ...f, name: v }))}
            problem={problem('name')}
          />
          <TextField
            label="Description"
            className="wide"
            value={form.description}
            onChange={(v) => setForm((f) => ({ ...f, description: v }))}
            problem={problem('description')}
          />
        </div>
        <h3>Steps</h3>
        {form.steps.length === 0 ? (
          <p className="muted">No steps yet: the flow runs nothing. Add one below.</p>
        ) : (
          <ol className="flow-steps">
            {form.steps.map((step, i) => (
              <li key={step.key}>
                <StepFields
                  step={step}
                  index={i}
                  steps={form.steps}
                  endpoints={endpoints}
                  problem={(field) => problem(`steps.${i}.${field}`)}
                  onChange={(change) => setStep(step.key, change)}
                  onRemove={() =>
                    setForm((f) => ({ ...f, steps: f.steps.filter((s) => s.key !== step.key) }))
                  }
                  onMove={(by) => moveStep(step.key, by)}
                />
              </li>
            ))}
          </ol>
        )}
        {api?.field === 'steps' && <p className="field-problem">{api.text}</p>}
        <button type="button" onClick={() => setForm((f) => ({ ...f, steps: [...f.steps, newStep()] }))}>
          Add step
        </button>
        <ErrorMessage error={saveError} />
        <div className="actions">
          <button type="button" onClick={() => void close()}>
            {dirty ? 'Cancel' : 'Close'}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save flow
          </button>
        </div>
      </form>
    </section>
  );
}
