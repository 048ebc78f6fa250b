import { useState, type FormEvent } from 'react';
import { enc, post } from '../api/client';
import { ErrorMessage, useNotify } from '../components/notices';
import type { ContractInfo } from '../types';
import { plural } from './locate';

/**
 * Import the project's contract (as `mockdev contract import`): from an http(s) URL mockdev
 * fetches, or a document file read here and sent as text. The API checks it (the first error's
 * location named, shown here) and stores it, replacing the one before.
 */
export function ImportContract(props: {
  projectId: string;
  projectName: string;
  replacing: boolean;
  onImported: (contract: ContractInfo) => void;
}) {
  const notify = useNotify();
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File>();
  const [busy, setBusy] = useState<'url' | 'file'>();
  const [error, setError] = useState<unknown>();

  const send = async (how: 'url' | 'file', body: { url: string } | { document: string }) => {
    setBusy(how);
    setError(undefined);
    try {
      const r = await post<{ contract: ContractInfo; bytes: number }>(
        `/projects/${enc(props.projectId)}/contract`,
        body,
      );
      const c = r.contract;
      notify.info(
        `Imported the contract of ${props.projectName}`,
        `${c.title || 'Untitled'} ${c.version}: ${plural(c.operations.length, 'operation')}.`,
      );
      props.onImported(c);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };

  const fromUrl = (e: FormEvent) => {
    e.preventDefault();
    void send('url', { url: url.trim() });
  };
  const fromFile = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch (err) {
      setError(err);
      return;
    }
    await send('file', { document: text });
  };

  return (
    <>
      <p className="hint">
        An OpenAPI 3.1, 3.0 or Swagger 2.0 document, JSON or YAML.{' '}
        {props.replacing && 'It replaces the contract above; live checking stays as it is.'}
      </p>
      <div className="contract-import">
        <form aria-label="Import from a URL" onSubmit={fromUrl}>
          <label>
            Document URL
            <input
              type="url"
              required
              value={url}
              placeholder="https://api.example.com/openapi.yaml"
              spellCheck={false}
              onChange={(e) => setUrl(e.target.value)}
            />
          </label>
          <button type="submit" className="primary" disabled={busy !== undefined}>
            {busy === 'url' ? 'Fetching…' : 'Import from URL'}
          </button>
        </form>
        <form aria-label="Upload a document" onSubmit={(e) => void fromFile(e)}>
          <label>
            Document file
            <input
              type="file"
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              onChange={(e) => setFile(e.target.files?.[0])}
            />
          </label>
          <button type="submit" disabled={busy !== undefined || !file}>
            {busy === 'file' ? 'Uploading…' : 'Upload document'}
          </button>
        </form>
      </div>
      <ErrorMessage error={error} />
    </>
  );
}
