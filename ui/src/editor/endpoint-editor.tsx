import { useEffect, useRef, useState, type FormEvent } from 'react';
import { del, enc, patch, post } from '../api/client';
import { Checkbox } from '../components/choice';
import { useConfirm } from '../components/confirm';
import { ErrorMessage, useNotify } from '../components/notices';
import { useShared } from '../state';
import { useTunnel } from '../tunnels/use-tunnel';
import type { Endpoint, ProjectListing } from '../types';
import { apiFieldProblem } from './api-problem';
import { bodyBlocksSave } from './body-field';
import { SelectField, TextField, useFocusProblem, useLeaveGuard } from './fields';
import {
  createInput,
  endpointForm,
  endpointPatch,
  endpointProblems,
  FIELD_LABELS,
  headerProblems,
  METHODS,
  type EndpointPrefill,
  sameForm,
  type EndpointForm,
} from './form-model';
import { BodyBlocksSave, ResponseFields } from './response-fields';
import { Variations } from './variations';
import './editor.css';

export interface EndpointEditorProps {
  project: ProjectListing;
  /** The endpoint edited; absent: a new endpoint. */
  endpoint?: Endpoint;
  /** Values a new endpoint starts with (the folder's path prefix, a logged request's method). */
  prefill?: EndpointPrefill;
  onSaved: (endpoint: Endpoint) => void;
  onClose: () => void;
}

/**
 * Where the saved endpoint answers while the project's server runs (live, as the top bar): a
 * link a browser can follow for a GET without parameters, the URL as text otherwise; and its
 * public URL too while a tunnel forwards to that server (a tunnel is Pro: without a license the
 * question is refused, and only the local URL shows).
 */
function ServedAt({ project, endpoint }: { project: ProjectListing; endpoint: Endpoint }) {
  const running = useShared().servers.find((s) => s.projectId === project.id);
  const tunnel = useTunnel(project.id, !running || running.tunnelUrl !== undefined).data;
  if (!running) return null;
  const publicBase = running.tunnelUrl ?? (tunnel && tunnel.port === running.port ? tunnel.url : undefined);
  const followable = endpoint.method === 'GET' && endpoint.enabled && !/[{:*]/.test(endpoint.path);
  const at = (base: string) => {
    const url = `${base.replace(/\/$/, '')}${endpoint.path}`;
    return followable ? (
      <a href={url} target="_blank" rel="noreferrer">
        {url}
      </a>
    ) : (
      <code>{url}</code>
    );
  };
  return (
    <p className="served-at muted">
      Served at {at(running.url)}
      {publicBase && <> and, through the tunnel, at {at(publicBase)}</>}
      {!endpoint.enabled && ' (when enabled)'}
    </p>
  );
}

/**
 * Every field of an endpoint (method, path, status, headers, body, content type, delay, enabled,
 * kind and proxy settings), saved as a whole for a new one and as the changed fields for an
 * existing one; its variations below. Problems the form can see are shown at the field before
 * saving; the API's answer to a failed save is shown in place with its detail.
 */
export function EndpointEditor({ project, endpoint, prefill, onSaved, onClose }: EndpointEditorProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  const [base, setBase] = useState<EndpointForm>(() => endpointForm(endpoint, prefill));
  const [form, setForm] = useState<EndpointForm>(base);
  const [latest, setLatest] = useState<Endpoint | undefined>(endpoint);
  const [saveError, setSaveError] = useState<unknown>();
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const dirty = !sameForm(base, form);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const formRef = useRef<HTMLFormElement>(null);
  const focusProblem = useFocusProblem(formRef);

  // The endpoint as the list has it now (saved here, or changed elsewhere): shown at once
  // unless something is typed, which is kept.
  useEffect(() => {
    if (!endpoint) return;
    setLatest(endpoint);
    if (!dirtyRef.current) {
      const f = endpointForm(endpoint);
      setBase(f);
      setForm(f);
    }
  }, [endpoint]);

  useLeaveGuard(dirty);

  const isNew = !endpoint;
  const problems = endpointProblems(form, isNew);
  const rowProblems = headerProblems(form.headers);
  const blocked = bodyBlocksSave(form.body, form.contentType);
  const shown = (field: keyof typeof problems) =>
    (tried ? problems[field] : undefined) ?? apiFieldProblem(saveError, field);
  const set = <K extends keyof EndpointForm>(key: K, value: EndpointForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const listPath = `/projects/${enc(project.id)}/endpoints`;
  const title = isNew ? 'New endpoint' : `Edit ${latest?.method ?? ''} ${latest?.path ?? ''}`;

  async function save(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(problems).length || Object.keys(rowProblems).length || blocked) return focusProblem();
    setBusy(true);
    setSaveError(undefined);
    try {
      let saved: Endpoint;
      if (endpoint) {
        const change = endpointPatch(base, form);
        if (!Object.keys(change).length) {
          notify.info('Nothing to save: no field changed');
          return;
        }
        saved = await patch<Endpoint>(`${listPath}/${enc(endpoint.id)}`, change);
      } else {
        saved = await post<Endpoint>(listPath, createInput(form));
      }
      const f = endpointForm(saved);
      setBase(f);
      setForm(f);
      setLatest(saved);
      setTried(false);
      notify.info(`${isNew ? 'Created' : 'Saved'} ${saved.method} ${saved.path}`);
      onSaved(saved);
    } catch (err) {
      setSaveError(err);
      focusProblem();
    } finally {
      setBusy(false);
    }
  }

  async function close() {
    if (dirty) {
      const changed = isNew
        ? ['The new endpoint']
        : Object.keys(endpointPatch(base, form)).map((k) => FIELD_LABELS[k] ?? k);
      const ok = await confirm({
        title: 'Discard unsaved changes?',
        message: 'These changes are not saved:',
        items: changed.length ? changed : ['Your edits'],
        confirmLabel: 'Discard',
      });
      if (!ok) return;
    }
    onClose();
  }

  async function remove() {
    if (!latest) return;
    const items = [`${latest.method} ${latest.path} (${latest.name})`];
    if (latest.variations.length)
      items.push(
        `Its ${latest.variations.length} variation(s): ${latest.variations.map((v) => v.name).join(', ')}`,
      );
    if (latest.kind === 'proxy' || latest.proxy) items.push('Its recordings');
    if (!(await confirm({ title: 'Delete this endpoint?', items, confirmLabel: 'Delete endpoint' }))) return;
    try {
      await del(`${listPath}/${enc(latest.id)}`);
      notify.info(`Deleted ${latest.method} ${latest.path}`);
      onClose();
    } catch (err) {
      notify.error(err, 'Could not delete the endpoint');
    }
  }

  return (
    <section className="endpoint-editor" aria-labelledby="endpoint-editor-title">
      <div className="editor-head">
        <h2 id="endpoint-editor-title">{title}</h2>
        {dirty && <span className="badge">Unsaved changes</span>}
      </div>
      {latest && <ServedAt project={project} endpoint={latest} />}
      <form ref={formRef} onSubmit={save} noValidate aria-labelledby="endpoint-editor-title">
        <fieldset>
          <legend>Request</legend>
          <div className="form-grid">
            <TextField
              label="Name"
              value={form.name}
              onChange={(v) => set('name', v)}
              problem={shown('name')}
              placeholder={isNew ? 'generated from method and path' : undefined}
            />
            <SelectField
              label="Method"
              value={form.method}
              onChange={(v) => set('method', v)}
              options={METHODS}
            />
            <TextField
              label="Path"
              className="wide"
              value={form.path}
              onChange={(v) => set('path', v)}
              problem={shown('path')}
              hint="Parameters as :id or {id}; a proxy may end in /*"
            />
            <SelectField
              label="Kind"
              value={form.kind}
              onChange={(v) => set('kind', v as EndpointForm['kind'])}
              options={[
                ['mock', 'mock (answers itself)'],
                ['proxy', 'proxy (forwards to a target)'],
              ]}
            />
            <Checkbox checked={form.enabled} onChange={(v) => set('enabled', v)}>
              Enabled
            </Checkbox>
          </div>
        </fieldset>

        {form.kind === 'proxy' && (
          <fieldset>
            <legend>Proxy settings</legend>
            <div className="form-grid">
              <TextField
                label="Target URL"
                className="wide"
                value={form.proxyTarget}
                onChange={(v) => set('proxyTarget', v)}
                problem={shown('proxy.target')}
                placeholder="https://api.example.com"
                inputMode="url"
              />
              <TextField
                label="Timeout (ms)"
                value={form.proxyTimeout}
                onChange={(v) => set('proxyTimeout', v)}
                problem={shown('proxy.timeoutMs')}
                hint="Empty: 30000"
                inputMode="numeric"
              />
              <Checkbox checked={form.proxyRecord} onChange={(v) => set('proxyRecord', v)}>
                Record forwarded exchanges
              </Checkbox>
            </div>
          </fieldset>
        )}

        <fieldset>
          <legend>Response{form.kind === 'proxy' ? ' (used when the endpoint is a mock)' : ''}</legend>
          <ResponseFields
            what="Response"
            form={form}
            set={set}
            shown={shown}
            apiError={saveError}
            headerProblems={rowProblems}
          />
          {(form.status.trim() === '204' || form.status.trim() === '304') && (
            <p className="hint">A {form.status.trim()} is sent without a body or Content-Type.</p>
          )}
        </fieldset>

        <ErrorMessage error={saveError} />
        {tried && blocked && <BodyBlocksSave />}
        <div className="actions">
          {latest && (
            <button type="button" className="danger push-left" onClick={remove}>
              Delete endpoint
            </button>
          )}
          <button type="button" onClick={close}>
            {dirty ? 'Cancel' : 'Close'}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {isNew ? 'Create endpoint' : 'Save'}
          </button>
        </div>
      </form>
      {latest && (
        <Variations
          project={project}
          endpoint={latest}
          onChanged={(e) => {
            setLatest(e);
            onSaved(e);
          }}
        />
      )}
    </section>
  );
}
