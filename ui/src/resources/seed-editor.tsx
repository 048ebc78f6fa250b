import { useState } from 'react';
import { enc, patch } from '../api/client';
import { useConfirm } from '../components/confirm';
import { useNotify } from '../components/notices';
import type { ResourceView } from '../types';
import { ItemsField } from './items-field';
import { itemsProblem, itemsText, parseItems } from './resource-model';

/**
 * A resource's seed as one JSON document (as `resource update --seed`): a new seed resets the
 * data to it (docs/resources.md), so saving asks first. Checked as typed, as the items are.
 */
export function SeedEditor(props: { base: string; resource: ResourceView; onSaved: () => void }) {
  const { resource } = props;
  const notify = useNotify();
  const confirm = useConfirm();
  const loaded = itemsText(resource.seed);
  const [text, setText] = useState<string>();
  const shown = text ?? loaded;
  const dirty = text !== undefined && text !== loaded;
  const problem = itemsProblem(shown);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const seed = parseItems(shown);
    const ok = await confirm({
      title: `Save the seed of ${resource.name}?`,
      items: [`A new seed resets the data: the current items are replaced by the ${seed.length} of the seed`],
      confirmLabel: 'Save seed',
    });
    if (!ok) return;
    setBusy(true);
    setError(undefined);
    try {
      await patch<ResourceView>(`${props.base}/resources/${enc(resource.id)}`, { seed });
      notify.info(`Saved the seed of ${resource.name}; its data is back to it`);
      setText(undefined);
      props.onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h3>Seed</h3>
      <p className="muted small">What a reset goes back to. Saving a new seed resets the data to it.</p>
      <ItemsField
        label={`Seed of ${resource.name}`}
        value={shown}
        onChange={(v) => setText(v === loaded ? undefined : v)}
        apiProblem={error}
        rows={6}
      />
      <div className="toolbar">
        <button type="button" disabled={busy || !dirty || !!problem} onClick={() => void save()}>
          Save seed
        </button>
        <button type="button" disabled={busy || !dirty} onClick={() => setText(undefined)}>
          Discard seed changes
        </button>
      </div>
    </>
  );
}
