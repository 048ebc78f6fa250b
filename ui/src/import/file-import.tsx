import { useId, useState, type DragEvent } from 'react';
import { api } from '../api/client';
import { Checkbox } from '../components/choice';
import { ErrorMessage, useNotify } from '../components/notices';
import { useShared } from '../state';
import type { ProjectListing } from '../types';
import {
  FORMAT_LABELS,
  importQuery,
  type FileImportOptions,
  type FileImportReport,
  type ImportFormat,
} from './file-import-model';
import { documentType } from './format';
import { ImportReportView } from './report-view';
import { TargetOptions, useTargetChoice } from './target-options';
import { useImportPreview } from './use-import-preview';

/**
 * Import a file of any of the five formats (OpenAPI, HAR, Postman, Mockoon, WireMock), dropped or
 * chosen: the server detects the format (or is told it), its dry run is shown first (made,
 * approximate, skipped), and Import writes it, into this project or a new one.
 */
export function FileImport({ project }: { project: ProjectListing }) {
  const notify = useNotify();
  const { reloadProjects } = useShared();
  const id = useId();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [reads, setReads] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const choice = useTargetChoice();
  const { target, existing } = choice;
  const [includeHost, setIncludeHost] = useState('');
  const [all, setAll] = useState(false);
  const [env, setEnv] = useState(false);
  const [busy, setBusy] = useState(false);
  const [readError, setReadError] = useState<unknown>();
  const [importError, setImportError] = useState<unknown>();
  const [done, setDone] = useState<FileImportReport>();
  const options: FileImportOptions = {
    format,
    project: target === 'this' ? project.id : undefined,
    existing,
    includeHost,
    all,
    env,
  };
  const preview = useImportPreview(text, options, reads);
  const har = format === 'har' || (format === '' && preview.report?.format === 'har');

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setDone(undefined);
    setImportError(undefined);
    try {
      setText(await file.text());
      setFileName(file.name);
      // The HAR options and the environment belong to the file they were chosen for.
      setIncludeHost('');
      setAll(false);
      setEnv(false);
      setReads((n) => n + 1);
      setReadError(undefined);
    } catch (e) {
      setReadError(new Error(`Could not read ${file.name}: ${(e as Error).message}`));
    }
  };

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files[0]);
  };

  const importNow = async () => {
    setBusy(true);
    setImportError(undefined);
    try {
      const report = await api<FileImportReport>(`/import${importQuery(options, false)}`, {
        method: 'POST',
        body: text,
        contentType: documentType(text),
      });
      setDone(report);
      // The file is imported: the form starts again (a second Import would import it twice).
      setText('');
      setFileName(undefined);
      if (target === 'new') reloadProjects();
      notify.info(`Imported ${report.created.length} endpoint(s) into ${report.project.name}`);
    } catch (err) {
      setImportError(err);
    } finally {
      setBusy(false);
    }
  };

  const ready = preview.report !== undefined && preview.error === undefined && !preview.pending;
  return (
    <section className="import-part" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Import a file</h2>
      <p className="hint">
        An OpenAPI document, a HAR capture, a Postman collection, a Mockoon environment or WireMock mappings (
        {'{ "mappings": [...] }'} or one mapping): what it would make is shown first, and nothing is written
        until you import.
      </p>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        data-testid="import-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <label>
          File to import
          <input
            type="file"
            accept=".json,.har,.yaml,.yml,application/json,application/yaml,text/yaml"
            onChange={(e) => {
              void readFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
        <span className="muted">or drop it here.</span>
        {fileName && <span className="muted">Read {fileName}</span>}
      </div>
      <div className="toolbar">
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
            <option value="">Detected from the content</option>
            {Object.entries(FORMAT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <TargetOptions
        id={id}
        project={project}
        newName="named after the file’s title (or the file)"
        choice={choice}
      />
      {har && (
        <fieldset className="options">
          <legend>HAR capture</legend>
          <label>
            Only the host
            <input
              value={includeHost}
              onChange={(e) => setIncludeHost(e.target.value)}
              placeholder="the one with most entries"
              spellCheck={false}
            />
          </label>
          <Checkbox checked={all} onChange={setAll}>
            Static assets too (images, scripts, styles, fonts)
          </Checkbox>
        </fieldset>
      )}
      {(env || (preview.report?.variables?.length ?? 0) > 0) && (
        <fieldset className="options">
          <legend>Variables</legend>
          <Checkbox checked={env} onChange={setEnv}>
            Make an environment of the collection’s variables (Pro)
          </Checkbox>
        </fieldset>
      )}
      <ErrorMessage error={readError} />
      <span className="visually-hidden" role="status">
        {preview.pending ? 'Reading the file…' : ''}
      </span>
      {text !== '' && <ErrorMessage error={preview.error} />}
      {text !== '' && preview.report && preview.error === undefined && (
        <ImportReportView report={preview.report} />
      )}
      <div className="actions start">
        <button
          type="button"
          className="primary"
          disabled={busy || !ready || text === ''}
          onClick={() => void importNow()}
        >
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      <ErrorMessage error={importError} />
      {done && <ImportReportView report={done} />}
    </section>
  );
}
