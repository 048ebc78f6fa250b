import { useState } from 'react';
import { del, enc, get, patch, put } from '../api/client';
import { useConfirm } from '../components/confirm';
import { TableHead } from '../components/table-head';
import { useNotify } from '../components/notices';
import type { Endpoint, ProjectListing, Variation } from '../types';
import { SelectField } from './fields';
import { VariationEditor } from './variation-editor';
import { inheritedLabel, MODE_LABELS, ruleText, SELECTION_MODES } from './variation-model';

/**
 * An endpoint's variations: the list (name, status, rules, which one is active), add, edit,
 * delete, make one active or go back to selection by mode, and the selection mode itself.
 * Each change answers with the endpoint as it now is (`onChanged`).
 */
export function Variations({
  project,
  endpoint,
  onChanged,
}: {
  project: ProjectListing;
  endpoint: Endpoint;
  onChanged: (endpoint: Endpoint) => void;
}) {
  const notify = useNotify();
  const confirm = useConfirm();
  /** The variation edited: its id, 'new', or none. */
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/projects/${enc(project.id)}/endpoints/${enc(endpoint.id)}`;
  const active = endpoint.variations.find((v) => v.id === endpoint.activeVariationId);
  const mode = endpoint.mode ?? 'rules';

  /** Runs a change, then gives the endpoint as it now is. */
  async function run(what: string, change: () => Promise<Endpoint | unknown>) {
    setBusy(true);
    try {
      const result = await change();
      const next =
        result && typeof result === 'object' && 'variations' in result
          ? (result as Endpoint)
          : await get<Endpoint>(path);
      onChanged(next);
      return true;
    } catch (e) {
      notify.error(e, what);
      return false;
    } finally {
      setBusy(false);
    }
  }

  const activate = (v: Variation | null) =>
    run(v ? `Could not make ${v.name} active` : 'Could not go back to selection by mode', async () => {
      const e = await put<Endpoint>(`${path}/active-variation`, { variationId: v ? v.id : null });
      notify.info(v ? `${v.name} now answers every request` : `Selection by mode (${mode}) again`);
      return e;
    });

  async function remove(v: Variation) {
    const items = [
      `Variation ${v.name} (${v.status}${v.rules?.length ? `, when ${v.rules.map(ruleText).join(' and ')}` : ''})`,
    ];
    if (v.id === endpoint.activeVariationId)
      items.push('It is the active variation: selection by mode takes over');
    if (!(await confirm({ title: 'Delete this variation?', items, confirmLabel: 'Delete variation' })))
      return;
    const ok = await run(`Could not delete variation ${v.name}`, () =>
      del(`${path}/variations/${enc(v.id)}`),
    );
    if (ok) {
      notify.info(`Deleted variation ${v.name}`);
      if (editing === v.id) setEditing(null);
    }
  }

  const edited = editing && editing !== 'new' ? endpoint.variations.find((v) => v.id === editing) : undefined;

  return (
    <section className="variations" aria-labelledby="variations-title">
      <h3 id="variations-title">Variations</h3>
      <div className="toolbar">
        <SelectField
          label="Selection mode"
          value={mode}
          disabled={busy}
          options={SELECTION_MODES.map((m) => [m, MODE_LABELS[m]] as [string, string])}
          onChange={(next) =>
            void run('Could not change the selection mode', async () => {
              const saved = await patch<Endpoint>(path, { mode: next });
              notify.info(`Selection mode: ${next}`);
              return saved;
            })
          }
        />
      </div>
      <p className="hint" role="status">
        {active ? (
          <>
            Active: <strong>{active.name}</strong> answers every request (unless a request names another in
            X-Mockdev-Variation).{' '}
          </>
        ) : (
          'No variation is active: the selection mode decides. '
        )}
      </p>
      {active && (
        <p>
          <button type="button" disabled={busy} onClick={() => void activate(null)}>
            Use selection by mode
          </button>
        </p>
      )}
      {endpoint.variations.length === 0 ? (
        <p className="hint">No variations: the endpoint always answers with its own response.</p>
      ) : (
        <table className="variation-list">
          <caption className="visually-hidden">Variations of {endpoint.name}</caption>
          <TableHead columns={['Name', 'Status', 'Rules', 'Inherited', 'Active', 'Actions']} />
          <tbody>
            {endpoint.variations.map((v) => {
              const isActive = v.id === endpoint.activeVariationId;
              return (
                <tr key={v.id} className={isActive ? 'selected' : undefined}>
                  <th scope="row">{v.name}</th>
                  <td>
                    {v.status}
                    {v.statusText ? ` ${v.statusText}` : ''}
                  </td>
                  <td className="mono">{v.rules?.length ? v.rules.map(ruleText).join(' and ') : '—'}</td>
                  <td>{inheritedLabel(v) || '—'}</td>
                  <td>{isActive ? <span className="badge active-badge">Active</span> : ''}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      aria-label={`Edit variation ${v.name}`}
                      onClick={() => setEditing(v.id)}
                    >
                      Edit
                    </button>
                    {!isActive && (
                      <button
                        type="button"
                        disabled={busy}
                        aria-label={`Make active: ${v.name}`}
                        onClick={() => void activate(v)}
                      >
                        Make active
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Delete variation ${v.name}`}
                      onClick={() => void remove(v)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {editing !== null && editing !== 'new' && !edited ? (
        <p role="status">
          That variation no longer exists (it was deleted elsewhere).{' '}
          <button type="button" onClick={() => setEditing(null)}>
            OK
          </button>
        </p>
      ) : editing === null ? (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            Add variation
          </button>
        </p>
      ) : (
        <VariationEditor
          key={editing}
          project={project}
          endpoint={endpoint}
          variation={edited}
          onCancel={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            void run('Could not load the endpoint', () => get<Endpoint>(path));
          }}
        />
      )}
    </section>
  );
}
