import { useState, type FormEvent } from 'react';
import { post } from '../api/client';
import { Checkbox } from '../components/choice';
import { ErrorMessage, useNotify } from '../components/notices';
import type { TlsStatus } from '../types';

/** The names typed in "More host names": split at commas and spaces, empty ones dropped. */
export const hostList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/**
 * Generate (no leaf yet) or Renew (Pro): a leaf for localhost, 127.0.0.1, ::1 and the names
 * added, signed by the CA (made the first time, or again with "new CA").
 */
export function GenerateForm({ status, onDone }: { status: TlsStatus; onDone: (s: TlsStatus) => void }) {
  const notify = useNotify();
  const [hosts, setHosts] = useState('');
  const [newCa, setNewCa] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const renew = status.leaf !== null;
  const verb = renew ? 'Renew' : 'Generate';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const r = await post<{ status: TlsStatus; caCreated: boolean }>('/tls/generate', {
        hosts: hostList(hosts),
        newCa: newCa || undefined,
      });
      notify.info(
        r.caCreated ? 'Made a CA and a certificate signed by it' : 'Made a new certificate with the same CA',
        r.caCreated ? 'Trust the new CA on each system (below).' : undefined,
      );
      setHosts('');
      setNewCa(false);
      onDone(r.status);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tls-generate" aria-label={`${verb} the certificate`} onSubmit={(e) => void submit(e)}>
      <p className="hint">
        The certificate names <code>localhost</code>, <code>127.0.0.1</code> and <code>::1</code>
        {renew ? '; a new one replaces it, signed by the same CA unless you ask for a new CA.' : '.'}
      </p>
      <label>
        More host names (optional, separated by spaces or commas)
        <input
          value={hosts}
          placeholder="myapp.test 192.168.1.20"
          onChange={(e) => setHosts(e.target.value)}
        />
      </label>
      {status.ca && (
        <Checkbox checked={newCa} onChange={setNewCa}>
          Make a new CA too (every system that trusts the current one must trust the new one)
        </Checkbox>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? `${verb === 'Renew' ? 'Renewing' : 'Generating'}…` : `${verb} certificate`}
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
