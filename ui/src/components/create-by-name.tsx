import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorMessage } from './notices';

/**
 * The one-line form that creates something from a name ("New flow name", Create flow): the
 * name is trimmed, the field emptied once `create` succeeds, and its error shown in place.
 * `children` adds fields before the button (an environment's scope).
 */
export function CreateByName(props: {
  /** What is created, in words: `flow`, `environment`. */
  what: string;
  create: (name: string) => Promise<void>;
  children?: ReactNode;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await props.create(name.trim());
      setName('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="toolbar" aria-label={`New ${props.what}`} onSubmit={(e) => void submit(e)}>
      <label>
        New {props.what} name
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {props.children}
      <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
        Create {props.what}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
