import { useEffect, useId, useState, type FormEvent } from 'react';
import { enc, get, patch as patchApi } from '../api/client';
import { ErrorMessage, useNotify } from '../components/notices';
import { rowListEdits } from '../components/row-list';
import { RowTable } from '../components/row-table';
import type { EnvironmentView } from '../import/types';
import { MASK, newRow, patchOf, removedKeys, revealRows, rowsOf, type Row } from './rows';

/** How a variable row is named in its controls' labels: its name, else its place. */
const varLabel = (r: Row, i: number) => r.key.trim() || `row ${i + 1}`;

/**
 * One environment's name, variables and secrets as editable rows. Secrets stay masked until
 * "Reveal secrets" fetches them (`?reveal=true`); a hidden secret left alone keeps its value.
 */
export function EnvironmentEditor(props: { env: EnvironmentView; onSaved: () => void; onClose: () => void }) {
  const { env } = props;
  const notify = useNotify();
  const id = useId();
  const [name, setName] = useState(env.name);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(env));
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  // Shown again from the API once it changed (saved here or elsewhere), not on every reload of
  // the list (an activation elsewhere on the screen keeps the edits in progress).
  const [shownVersion, setShownVersion] = useState(env.updatedAt);
  useEffect(() => {
    if (env.updatedAt === shownVersion) return;
    setShownVersion(env.updatedAt);
    setName(env.name);
    setRows(rowsOf(env));
    setRevealed(false);
  }, [env, shownVersion]);

  const edit = rowListEdits<Row>(setRows);

  const reveal = async () => {
    setError(undefined);
    try {
      const full = await get<EnvironmentView>(`/environments/${enc(env.id)}?reveal=true`);
      setRows((all) => revealRows(all, full));
      setRevealed(true);
    } catch (e) {
      setError(e);
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const result = patchOf(rows, removedKeys(env, rows), { from: env.name, to: name });
    if ('error' in result) {
      setError(new Error(result.error));
      return;
    }
    if (Object.keys(result.patch).length === 0) {
      notify.info('Nothing to save: no change');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await patchApi<EnvironmentView>(`/environments/${enc(env.id)}`, result.patch);
      notify.info(`Saved ${name.trim()}`);
      props.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const hasSecrets = rows.some((r) => r.secret && !r.known);
  return (
    <form className="env-editor" aria-labelledby={`${id}-h`} onSubmit={(e) => void save(e)}>
      <h2 id={`${id}-h`}>
        Edit {env.name}{' '}
        <span className="muted small">({env.scope === 'global' ? 'global' : 'this project'})</span>
      </h2>
      <label>
        Environment name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <RowTable
        className="env-vars"
        caption="Variables"
        columns={['Name', 'Value', 'Secret']}
        rows={rows}
        empty="No variables yet."
        onRemove={edit.remove}
        removeLabel={(r, i) => `Remove ${varLabel(r, i)}`}
        cells={(r, i) => (
          <>
            <td>
              <input
                aria-label={`Name of variable ${i + 1}`}
                className="mono"
                value={r.key}
                onChange={(e) => edit.update(r.id, { key: e.target.value })}
              />
            </td>
            <td>
              <input
                aria-label={`Value of ${varLabel(r, i)}`}
                className="mono"
                type={r.secret && !revealed ? 'password' : 'text'}
                autoComplete="off"
                value={r.value}
                placeholder={r.known ? undefined : `${MASK} (hidden)`}
                onChange={(e) => edit.update(r.id, { value: e.target.value, known: true })}
              />
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={`${varLabel(r, i)} is a secret`}
                checked={r.secret}
                onChange={(e) => edit.update(r.id, { secret: e.target.checked })}
              />
            </td>
          </>
        )}
      />
      <div className="toolbar">
        <button type="button" onClick={() => edit.add(newRow())}>
          Add variable
        </button>
        {!revealed && env.secretKeys.length > 0 && (
          <button type="button" onClick={() => void reveal()}>
            Reveal secrets
          </button>
        )}
        {revealed && (
          <button type="button" onClick={() => setRevealed(false)}>
            Hide secrets
          </button>
        )}
        {hasSecrets && (
          <span className="muted">Hidden secrets keep their values unless you type a new one.</span>
        )}
      </div>
      <ErrorMessage error={error} />
      <div className="actions start">
        <button type="submit" className="primary" disabled={busy}>
          Save environment
        </button>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
