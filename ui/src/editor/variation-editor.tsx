import { useRef, useState, type FormEvent } from 'react';
import { enc, patch, post } from '../api/client';
import { useConfirm } from '../components/confirm';
import { ErrorMessage, useNotify } from '../components/notices';
import type { Endpoint, ProjectListing, Variation } from '../types';
import { apiFieldProblem } from './api-problem';
import { bodyBlocksSave } from './body-field';
import { TextField, useFocusProblem } from './fields';
import { headerProblems, sameForm } from './form-model';
import { BodyBlocksSave, ResponseFields } from './response-fields';
import { RulesEditor } from './rules-editor';
import {
  ruleProblems,
  variationForm,
  variationInput,
  variationPatch,
  variationProblems,
  type VariationForm,
} from './variation-model';

/** Adds a variation (no `variation`) or changes one: only its changed fields are sent. */
export function VariationEditor({
  project,
  endpoint,
  variation,
  onDone,
  onCancel,
}: {
  project: ProjectListing;
  endpoint: Endpoint;
  variation?: Variation;
  onDone: (v: Variation) => void;
  onCancel: () => void;
}) {
  const notify = useNotify();
  const confirm = useConfirm();
  const [base] = useState<VariationForm>(() => variationForm(variation, endpoint));
  const [form, setForm] = useState<VariationForm>(base);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const formRef = useRef<HTMLFormElement>(null);
  const focusProblem = useFocusProblem(formRef);
  const problems = variationProblems(form);
  const rowProblems = headerProblems(form.headers);
  const rules = ruleProblems(form.rules);
  const blocked =
    !form.inheritBody &&
    bodyBlocksSave(form.body, form.inheritContentType ? endpoint.contentType : form.contentType);
  const shown = (field: keyof typeof problems) =>
    (tried ? problems[field] : undefined) ?? apiFieldProblem(error, field);
  const set = <K extends keyof VariationForm>(key: K, value: VariationForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const path = `/projects/${enc(project.id)}/endpoints/${enc(endpoint.id)}/variations`;
  const titleId = 'variation-editor-title';

  async function save(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (
      Object.keys(problems).length ||
      Object.keys(rowProblems).length ||
      Object.keys(rules).length ||
      blocked
    )
      return focusProblem();
    setBusy(true);
    setError(undefined);
    try {
      let saved: Variation;
      if (variation) {
        const change = variationPatch(base, form);
        if (!Object.keys(change).length) {
          notify.info('Nothing to save: no field changed');
          onCancel();
          return;
        }
        saved = await patch<Variation>(`${path}/${enc(variation.id)}`, change);
      } else saved = await post<Variation>(path, variationInput(form));
      notify.info(`${variation ? 'Saved' : 'Added'} variation ${saved.name}`);
      onDone(saved);
    } catch (err) {
      setError(err);
      focusProblem();
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    if (!sameForm(base, form)) {
      const ok = await confirm({
        title: 'Discard unsaved changes?',
        message: `The ${variation ? `changes to variation ${variation.name}` : 'new variation'} will be lost.`,
        items: [variation ? `Variation ${variation.name}: your edits` : `New variation ${form.name.trim()}`],
        confirmLabel: 'Discard',
      });
      if (!ok) return;
    }
    onCancel();
  }

  return (
    <form ref={formRef} className="variation-editor" onSubmit={save} noValidate aria-labelledby={titleId}>
      <h4 id={titleId}>{variation ? `Edit variation ${variation.name}` : 'New variation'}</h4>
      <ResponseFields
        what="Variation"
        form={form}
        set={set}
        shown={shown}
        apiError={error}
        headerProblems={rowProblems}
        inherited={{
          endpoint,
          body: form.inheritBody,
          contentType: form.inheritContentType,
          onChange: (field, on) => set(field === 'body' ? 'inheritBody' : 'inheritContentType', on),
        }}
        leading={
          <TextField
            label="Variation name"
            value={form.name}
            onChange={(v) => set('name', v)}
            problem={shown('name')}
          />
        }
        beforeHeaders={
          <fieldset className="nested">
            <legend>Rules (all must match)</legend>
            <RulesEditor rows={form.rules} onChange={(r) => set('rules', r)} problems={rules} />
            {apiFieldProblem(error, 'rules') && (
              <p className="field-problem">{apiFieldProblem(error, 'rules')}</p>
            )}
          </fieldset>
        }
      />
      <ErrorMessage error={error} />
      {tried && blocked && <BodyBlocksSave />}
      <div className="actions">
        <button type="button" onClick={cancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || (!!variation && sameForm(base, form))}>
          {variation ? 'Save variation' : 'Add variation'}
        </button>
      </div>
    </form>
  );
}
