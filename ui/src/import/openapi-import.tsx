import { useId, useState, type FormEvent } from 'react';
import { api, query } from '../api/client';
import { Checkbox, Radio } from '../components/choice';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import { TableHead } from '../components/table-head';
import { projectPath } from '../router';
import { useShared } from '../state';
import type { ProjectListing } from '../types';
import { documentType } from './format';
import type { ImportReport } from './types';

/**
 * OpenAPI import: a file (read in the browser) or pasted text, into this project (existing routes
 * skipped or overwritten) or into a new project named after info.title; the report afterwards.
 */
export function OpenApiImport({ project }: { project: ProjectListing }) {
  const notify = useNotify();
  const { reloadProjects } = useShared();
  const id = useId();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [target, setTarget] = useState<'this' | 'new'>('this');
  const [overwrite, setOverwrite] = useState(false);
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
        overwrite: target === 'this' && overwrite ? 'true' : undefined,
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
        <fieldset className="options">
          <legend>Import into</legend>
          <Radio name={`${id}-target`} checked={target === 'this'} onSelect={() => setTarget('this')}>
            This project ({project.name})
          </Radio>
          <Radio name={`${id}-target`} checked={target === 'new'} onSelect={() => setTarget('new')}>
            A new project, named after the document’s info.title
          </Radio>
          <Checkbox checked={overwrite} disabled={target !== 'this'} onChange={setOverwrite}>
            Overwrite endpoints whose method and path exist (else they are skipped)
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

function ImportReportView({ report }: { report: ImportReport }) {
  const { created, replaced, skipped, warnings, warningCount } = report;
  return (
    <div className="import-report" role="region" aria-label="Import report">
      <p role="status">
        <strong>
          Imported into {report.project.name}: {created.length} created, {replaced.length} replaced,{' '}
          {skipped.length} skipped, {warningCount} warning{warningCount === 1 ? '' : 's'}.
        </strong>{' '}
        <Link href={projectPath(report.project.id, 'endpoints')}>
          See the endpoints of {report.project.name}
        </Link>
      </p>
      {created.length + replaced.length > 0 && (
        <table>
          <caption>Endpoints created or replaced</caption>
          <TableHead columns={['Method', 'Path', 'Name', 'Result']} />
          <tbody>
            {[
              ...created.map((e) => ({ e, what: 'created' })),
              ...replaced.map((e) => ({ e, what: 'replaced' })),
            ].map(({ e, what }) => (
              <tr key={e.id}>
                <td className="mono">{e.method}</td>
                <td className="mono">{e.path}</td>
                <td>
                  <Link href={projectPath(report.project.id, 'endpoints', { edit: e.id })}>{e.name}</Link>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {skipped.length > 0 && (
        <table>
          <caption>Skipped</caption>
          <TableHead columns={['Method', 'Path', 'Why']} />
          <tbody>
            {skipped.map((s, i) => (
              <tr key={i}>
                <td className="mono">{s.method}</td>
                <td className="mono">{s.path}</td>
                <td>{s.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {warnings.length > 0 && (
        <>
          <h3>
            Warnings
            {warningCount > warnings.length ? ` (the first ${warnings.length} of ${warningCount})` : ''}
          </h3>
          <ul className="import-warnings">
            {warnings.map((w, i) => (
              <li key={i}>
                {w.message}
                {(w.pointer || w.line !== undefined || w.file) && (
                  <span className="muted mono">
                    {' '}
                    (
                    {[
                      w.file,
                      w.pointer,
                      w.line !== undefined ? `line ${w.line}` : undefined,
                      w.column !== undefined ? `column ${w.column}` : undefined,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                    )
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
