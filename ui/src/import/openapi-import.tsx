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
 * skipped, updated from the document or replaced) or into a new project named after info.title;
 * the document's {{…}} sent as written unless kept as templates; the report afterwards.
 */
export function OpenApiImport({ project }: { project: ProjectListing }) {
  const notify = useNotify();
  const { reloadProjects } = useShared();
  const id = useId();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [target, setTarget] = useState<'this' | 'new'>('this');
  const [existing, setExisting] = useState<'skip' | 'overwrite' | 'replace'>('skip');
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
        <fieldset className="options">
          <legend>Import into</legend>
          <Radio name={`${id}-target`} checked={target === 'this'} onSelect={() => setTarget('this')}>
            This project ({project.name})
          </Radio>
          <Radio name={`${id}-target`} checked={target === 'new'} onSelect={() => setTarget('new')}>
            A new project, named after the document’s info.title
          </Radio>
        </fieldset>
        <fieldset className="options" disabled={target !== 'this'}>
          <legend>Endpoints whose method and path already exist</legend>
          <Radio name={`${id}-existing`} checked={existing === 'skip'} onSelect={() => setExisting('skip')}>
            Skip them
          </Radio>
          <Radio
            name={`${id}-existing`}
            checked={existing === 'overwrite'}
            onSelect={() => setExisting('overwrite')}
          >
            Update them from the document, keeping what only mockdev has (hand-made variations and headers,
            delay, mode, proxy settings, …)
          </Radio>
          <Radio
            name={`${id}-existing`}
            checked={existing === 'replace'}
            onSelect={() => setExisting('replace')}
          >
            Replace them whole (they keep only their id and name)
          </Radio>
        </fieldset>
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

function ImportReportView({ report }: { report: ImportReport }) {
  const { created, updated, replaced, skipped, warnings, warningCount, kept, dropped, literal } = report;
  const itemsOf = (list: typeof kept, id: string) => list.find((k) => k.endpointId === id)?.items;
  return (
    <div className="import-report" role="region" aria-label="Import report">
      <p role="status">
        <strong>
          Imported into {report.project.name}: {created.length} created, {updated.length} updated,{' '}
          {replaced.length} replaced, {skipped.length} skipped, {warningCount} warning
          {warningCount === 1 ? '' : 's'}.
        </strong>{' '}
        <Link href={projectPath(report.project.id, 'endpoints')}>
          See the endpoints of {report.project.name}
        </Link>
      </p>
      {created.length + updated.length + replaced.length > 0 && (
        <table>
          <caption>Endpoints created, updated or replaced</caption>
          <TableHead columns={['Method', 'Path', 'Name', 'Result']} />
          <tbody>
            {[
              ...created.map((e) => ({ e, what: 'created' })),
              ...updated.map((e) => {
                const items = itemsOf(kept, e.id);
                return { e, what: `updated${items ? `; kept: ${items.join(', ')}` : ''}` };
              }),
              ...replaced.map((e) => {
                const items = itemsOf(dropped, e.id);
                return { e, what: `replaced${items ? `; dropped: ${items.join(', ')}` : ''}` };
              }),
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
      {report.templates === 'own-export' && (
        <p>
          mockdev’s own export: its templates are kept as templates, but for those that read the environment
          (listed below, if any; tick “Keep {'{{…}}'} in the document as templates” to keep them too).
        </p>
      )}
      {literal.length > 0 && (
        <table>
          <caption>Sent as written: imported text holding {'{{'} (not rendered as a template)</caption>
          <TableHead columns={['Method', 'Path', 'Where']} />
          <tbody>
            {literal.map((l) => (
              <tr key={l.endpointId}>
                <td className="mono">{l.method}</td>
                <td className="mono">{l.path}</td>
                <td>{l.parts.join(', ')}</td>
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
