import { useState, type FormEvent } from 'react';
import { post } from '../api/client';
import { ErrorMessage, useNotify } from '../components/notices';
import { apiFieldProblem } from '../editor/api-problem';
import { TextField } from '../editor/fields';
import type { ResourceView } from '../types';
import { ItemsField } from './items-field';
import { defaultName, itemsProblem, parseItems } from './resource-model';

/**
 * Adds a resource (as `resource add`): its collection path, a name (default: the path's last
 * segment), the id field and the seed typed as JSON. The API's refusal shows at its field.
 */
export function AddResource(props: { base: string; onAdded: (resource: ResourceView) => void }) {
  const notify = useNotify();
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [idField, setIdField] = useState('id');
  const [seed, setSeed] = useState('[]');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const seedProblem = itemsProblem(seed);
  const at = (field: string) => apiFieldProblem(error, field);
  const fieldProblem = at('path') ?? at('name') ?? at('idField') ?? at('seed');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        path: path.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        idField: idField.trim() || 'id',
        seed: parseItems(seed),
      };
      const added = await post<ResourceView>(`${props.base}/resources`, body);
      notify.info(`Added the resource ${added.name} at ${added.path}`);
      setPath('');
      setName('');
      setSeed('[]');
      props.onAdded(added);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="add-resource" aria-label="New resource" onSubmit={(e) => void submit(e)}>
      <h2>Add a resource</h2>
      <div className="form-grid">
        <TextField
          label="Collection path"
          value={path}
          onChange={setPath}
          placeholder="/api/users"
          hint="Items are answered at PATH/{id}; parameters may come before it: /api/orgs/{org}/users"
          problem={at('path')}
        />
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          placeholder={defaultName(path) ?? 'from the path'}
          problem={at('name')}
        />
        <TextField label="Id field" value={idField} onChange={setIdField} problem={at('idField')} />
      </div>
      <ItemsField
        label="Seed (JSON array of objects)"
        value={seed}
        onChange={setSeed}
        apiProblem={at('seed')}
      />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy || path.trim() === '' || !!seedProblem}>
          Add resource
        </button>
      </div>
      {!fieldProblem && <ErrorMessage error={error} />}
    </form>
  );
}
