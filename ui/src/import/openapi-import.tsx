import { useId, useState, type FormEvent } from 'react';
import { api, query } from '../api/client';
import { Checkbox } from '../components/choice';
import { ErrorMessage, useNotify } from '../components/notices';
import { useShared } from '../state';
import type { ProjectListing } from '../types';
import { documentType } from './format';
import { ImportReportView } from './report-view';
import { TargetOptions, useTargetChoice } from './target-options';
import type { ImportReport } from './types';

/**
 * OpenAPI import: a file (read in the browser) or pasted text, into this project (existing routes
 * skipped, updated from the document or replaced) or into a new project named after info.title;
 * the document's {{…}} sent as written unless kept as templates; the report afterwards.
 */
export function OpenApiImport({ project }: { project: ProjectListing }) {
  const notify = useNotify();
  const { reloadProjects } = useShared();
  const id = useId();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const choice = useTargetChoice();
  const { target, existing } = choice;
  const [templates, setTemplates] = useState(false);
  const [strict, setStrict] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [report, setReport] = useState<ImportReport>();

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      setText(await file.text());
      setFileName(file.name);
      setError(undefined);
    } catch (e) {
      setError(new Error(`Could not read ${file.name}: ${(e as Error).message}`));
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setReport(undefined);
    try {
      const q = query({
        project: target === 'this' ? project.id : undefined,
        overwrite: target === 'this' && existing === 'overwrite' ? 'true' : undefined,
        replace: target === 'this' && existing === 'replace' ? 'true' : undefined,
        templates: templates ? 'true' : undefined,
        strict: strict ? 'true' : undefined,
      });
      const result = await api<ImportReport>(`/import/openapi${q}`, {
        method: 'POST',
        body: text,
        contentType: documentType(text),
      });
      setReport(result);
      if (target === 'new') reloadProjects();
      notify.info(`Imported ${result.created.length} endpoint(s) into ${result.project.name}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="import-part" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>OpenAPI import</h2>
      <p className="hint">OpenAPI 3.0, 3.1 or Swagger 2.0, as JSON or YAML: choose a file or paste it.</p>
      <form onSubmit={(e) => void submit(e)}>
        <div className="toolbar">
          <label>
            OpenAPI file
            <input
              type="file"
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              onChange={(e) => void readFile(e.target.files?.[0])}
            />
          </label>
          {fileName && <span className="muted">Read {fileName}</span>}
        </div>
        <label className="block">
          OpenAPI document (JSON or YAML)
          <textarea
            rows={6}
            value={text}
            spellCheck={false}
            onChange={(e) => {
              setText(e.target.value);
              setFileName(undefined);
            }}
          />
        </label>
        <TargetOptions
          id={id}
          project={project}
          newName="named after the document’s info.title"
          choice={choice}
        />
        <fieldset className="options">
          <legend>Options</legend>
          <Checkbox checked={templates} onChange={setTemplates}>
            Keep {'{{…}}'} in the document as templates (only for a document you trust; by default the
            document’s text is sent as written)
          </Checkbox>
          <Checkbox checked={strict} onChange={setStrict}>
            Strict: refuse the document at its first problem
          </Checkbox>
        </fieldset>
        <div className="actions start">
          <button type="submit" className="primary" disabled={busy || text.trim() === ''}>
            {busy ? 'Importing…' : 'Import document'}
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {report && <ImportReportView report={report} />}
    </section>
  );
}
