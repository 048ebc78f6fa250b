import { useEffect, useState, type FormEvent } from 'react';
import { enc, patch, post, put } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { ErrorMessage, useNotify } from '../components/notices';
import { useAction } from '../components/use-action';
import { apiFieldProblem } from '../editor/api-problem';
import { TextField, useLeaveGuard } from '../editor/fields';
import type { ResourceData, ResourceView } from '../types';
import { ItemsField } from './items-field';
import { itemsProblem, itemsText, parseItems } from './resource-model';
import { SeedEditor } from './seed-editor';

/**
 * One resource: its definition (name, path, id field; as `resource update`), its seed, and its current
 * items as one editable JSON document (as `resource data --set`), checked as you type, with
 * Reset back to the seed (asked first). The items are read again when the resource is
 * requested on the running server (its `request` events) while nothing is being edited.
 */
export function ResourceEditor(props: {
  base: string;
  projectId: string;
  resource: ResourceView;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { resource } = props;
  const notify = useNotify();
  const confirm = useConfirm();
  const path = `${props.base}/resources/${enc(resource.id)}`;
  const data = useData<ResourceData>(`${path}/data`);
  const [text, setText] = useState<string>();
  const loaded = data.data ? itemsText(data.data.items) : undefined;
  const dirty = text !== undefined && text !== loaded;
  useLeaveGuard(dirty);
  // A new answer replaces the text unless it is being edited.
  useEffect(() => {
    if (!dirty) setText(undefined);
  }, [loaded]);
  useEvent(
    'request',
    (e) => e.projectId === props.projectId && e.endpointId === resource.id && !dirty && data.reload(),
  );
  useEvent('resources', (e) => e.projectId === props.projectId && !dirty && data.reload());

  // The text as loaded is no edit (the code editor tells back each new value it is given).
  const edit = (value: string) => setText(value === loaded ? undefined : value);
  const shown = text ?? loaded ?? '';
  const problem = itemsProblem(shown);
  const [dataError, setDataError] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const { busy: acting, act } = useAction(data.reload);
  const busy = saving || acting;

  const saveData = async () => {
    setDataError(undefined);
    setSaving(true);
    try {
      const saved = await put<ResourceData>(`${path}/data`, parseItems(shown));
      notify.info(`Saved ${saved.items.length} item(s) of ${resource.name}`);
      setText(undefined);
      data.reload();
      props.onSaved();
    } catch (e) {
      setDataError(e);
    } finally {
      setSaving(false);
    }
  };

  const reset = async () => {
    const ok = await confirm({
      title: `Reset ${resource.name} to its seed?`,
      items: [
        `${data.data?.items.length ?? resource.itemCount} current item(s) replaced by the ${resource.seed.length} of the seed`,
      ],
      confirmLabel: 'Reset',
    });
    if (!ok) return;
    await act(`Could not reset ${resource.name}`, async () => {
      await post(`${path}/reset`);
      notify.info(`${resource.name} is back to its seed`);
      setText(undefined);
      props.onSaved();
    });
  };

  return (
    <section className="resource-editor" aria-labelledby="resource-editor-title">
      <div className="editor-head">
        <h2 id="resource-editor-title">
          {resource.name} <span className="muted">{resource.path}</span>
        </h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <Definition key={`${resource.id}:${resource.name}:${resource.path}:${resource.idField}`} {...props} />
      <SeedEditor key={`${resource.id}:${resource.revision}`} {...props} />
      <h3>Data</h3>
      <p className="muted small">
        What the running server answers now (requests change it), else what it held when it stopped, else the
        seed.
      </p>
      <ErrorMessage error={data.error} />
      {data.data || text !== undefined ? (
        <ItemsField
          label={`Items of ${resource.name}`}
          value={shown}
          onChange={edit}
          apiProblem={dataError}
          rows={12}
        />
      ) : (
        <p className="loading">Loading…</p>
      )}
      <div className="toolbar">
        <button
          type="button"
          className="primary"
          disabled={busy || !dirty || !!problem}
          onClick={() => void saveData()}
        >
          Save data
        </button>
        <button type="button" disabled={busy || !dirty} onClick={() => setText(undefined)}>
          Discard changes
        </button>
        <button type="button" disabled={busy} className="danger" onClick={() => void reset()}>
          Reset to seed
        </button>
      </div>
    </section>
  );
}

/** The definition's fields, saved with PATCH (the seed has an editor of its own, SeedEditor). */
function Definition(props: { base: string; resource: ResourceView; onSaved: () => void }) {
  const { resource } = props;
  const notify = useNotify();
  const [name, setName] = useState(resource.name);
  const [path, setPath] = useState(resource.path);
  const [idField, setIdField] = useState(resource.idField);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const changes = {
    ...(name.trim() !== resource.name ? { name: name.trim() } : {}),
    ...(path.trim() !== resource.path ? { path: path.trim() } : {}),
    ...(idField.trim() !== resource.idField ? { idField: idField.trim() } : {}),
  };
  const at = (field: string) => apiFieldProblem(error, field);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await patch<ResourceView>(`${props.base}/resources/${enc(resource.id)}`, changes);
      notify.info(`Saved ${saved.name}`);
      props.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={`Definition of ${resource.name}`} onSubmit={(e) => void submit(e)}>
      <div className="form-grid">
        <TextField label="Name" value={name} onChange={setName} problem={at('name')} />
        <TextField label="Collection path" value={path} onChange={setPath} problem={at('path')} />
        <TextField label="Id field" value={idField} onChange={setIdField} problem={at('idField')} />
      </div>
      <div className="toolbar">
        <button type="submit" disabled={busy || Object.keys(changes).length === 0}>
          Save definition
        </button>
      </div>
      {!at('name') && !at('path') && !at('idField') && <ErrorMessage error={error} />}
    </form>
  );
}
