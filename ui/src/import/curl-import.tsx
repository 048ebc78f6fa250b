import { useEffect, useId, useState, type FormEvent } from 'react';
import { Checkbox } from '../components/choice';
import { api, enc } from '../api/client';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import { projectPath } from '../router';
import type { Endpoint, ProjectListing } from '../types';
import { CurlParseError, CurlPreviewView } from './curl-preview-view';
import { useCurlPreview } from './use-curl-preview';

/**
 * cURL import (SPEC 4.5): the preview follows the command as it is typed; the generated name can
 * be edited (once edited it stays the user's); "Import endpoint" adds it to the project.
 */
export function CurlImport({ project }: { project: ProjectListing }) {
  const notify = useNotify();
  const id = useId();
  const [command, setCommand] = useState('');
  const [name, setName] = useState('');
  const [nameEdited, setNameEdited] = useState(false);
  const [templates, setTemplates] = useState(false);
  const [busy, setBusy] = useState(false);
  const [importError, setImportError] = useState<unknown>();
  const [created, setCreated] = useState<Endpoint>();
  const [imported, setImported] = useState(0);
  const { preview, error, pending } = useCurlPreview(command, project.id, imported);

  useEffect(() => {
    if (preview && !nameEdited) setName(preview.name);
  }, [preview, nameEdited]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setImportError(undefined);
    try {
      const endpoint = await api<Endpoint>(`/projects/${enc(project.id)}/curl`, {
        method: 'POST',
        body: { command, name: name.trim() || undefined, templates: templates || undefined },
      });
      setCreated(endpoint);
      // The next import starts from the name generated for it again.
      setNameEdited(false);
      setImported((n) => n + 1);
      notify.info(`Created ${endpoint.name}`);
    } catch (err) {
      setImportError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="import-part" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>cURL import</h2>
      <p className="hint">
        Paste a command (bash or Windows cmd quoting, a browser’s “Copy as cURL” too): the preview follows as
        you type.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label className="block">
          cURL command
          <textarea
            rows={5}
            value={command}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            onChange={(e) => {
              setCommand(e.target.value);
              setCreated(undefined);
            }}
          />
        </label>
        <span className="visually-hidden" role="status">
          {pending ? 'Updating the preview…' : ''}
        </span>
        {error !== undefined && <CurlParseError error={error} />}
        {preview && error === undefined && <CurlPreviewView preview={preview} />}
        <div className="toolbar">
          <label>
            Endpoint name
            <input
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setNameEdited(e.target.value !== '');
              }}
              placeholder={preview?.name ?? 'made from the path'}
            />
          </label>
          <Checkbox checked={templates} onChange={setTemplates}>
            Keep {'{{…}}'} in the body as templates (a command you trust)
          </Checkbox>
          <button
            type="submit"
            className="primary"
            disabled={busy || !preview || error !== undefined || pending}
          >
            {busy ? 'Importing…' : 'Import endpoint'}
          </button>
        </div>
      </form>
      <ErrorMessage error={importError} />
      {created && (
        <p role="status" className="import-created">
          Created <strong>{created.name}</strong> ({created.method} {created.path}) in {project.name}
          {created.templating === false ? ', its body sent as written ({{ is not a template)' : ''}.{' '}
          <Link href={projectPath(project.id, 'endpoints', { edit: created.id })}>Open {created.name}</Link>
        </p>
      )}
    </section>
  );
}
