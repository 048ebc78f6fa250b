import type { ReactNode } from 'react';
import { Link } from '../components/link';
import { TableHead } from '../components/table-head';
import { projectPath } from '../router';
import { FORMAT_LABELS, noteRow, plural, type FileImportReport, type ReportNote } from './file-import-model';

/**
 * An import's report (OpenAPI or any other format), or its dry run: the endpoints made (updated,
 * replaced), what was translated only approximately, what was skipped and why, resources made,
 * the source's variables, text sent as written, the warnings. A dry run links nowhere: nothing
 * exists yet.
 */
export function ImportReportView({ report }: { report: FileImportReport }) {
  const { created, updated, replaced, skipped, warnings, warningCount, kept, dropped, literal } = report;
  const preview = report.dryRun === true;
  const approximate = report.approximate ?? [];
  const itemsOf = (list: typeof kept, id: string) => list.find((k) => k.endpointId === id)?.items;
  const made = [
    ...created.map((e) => ({ e, what: preview ? 'to create' : 'created' })),
    ...updated.map((e) => {
      const items = itemsOf(kept, e.id);
      return { e, what: `${preview ? 'to update' : 'updated'}${items ? `; kept: ${items.join(', ')}` : ''}` };
    }),
    ...replaced.map((e) => {
      const items = itemsOf(dropped, e.id);
      return {
        e,
        what: `${preview ? 'to replace' : 'replaced'}${items ? `; dropped: ${items.join(', ')}` : ''}`,
      };
    }),
  ];
  const warned = `${warningCount} warning${warningCount === 1 ? '' : 's'}`;
  return (
    <div
      className="import-report"
      role="region"
      aria-label={preview ? 'Import preview' : 'Import report'}
      data-format={report.format}
    >
      <p role="status">
        {preview ? (
          <strong>
            {report.format ? `${FORMAT_LABELS[report.format]} into` : 'Into'} {report.project.name}:{' '}
            {created.length} to create, {updated.length} to update, {replaced.length} to replace,{' '}
            {skipped.length} skipped, {approximate.length} approximate, {warned}.
          </strong>
        ) : (
          <>
            <strong>
              Imported into {report.project.name}: {created.length} created, {updated.length} updated,{' '}
              {replaced.length} replaced, {skipped.length} skipped, {warned}.
            </strong>{' '}
            <Link href={projectPath(report.project.id, 'endpoints')}>
              See the endpoints of {report.project.name}
            </Link>
          </>
        )}
      </p>
      {preview && <p className="muted">Nothing is written until you import.</p>}
      {made.length > 0 && (
        <table>
          <caption>
            {preview ? 'Endpoints the import would make' : 'Endpoints created, updated or replaced'}
          </caption>
          <TableHead columns={['Method', 'Path', 'Name', 'Variations', 'Result']} />
          <tbody>
            {made.map(({ e, what }, i) => (
              <tr key={`${e.id}-${i}`}>
                <td className="mono">{e.method}</td>
                <td className="mono">{e.path}</td>
                <td>
                  {preview ? (
                    e.name
                  ) : (
                    <Link href={projectPath(report.project.id, 'endpoints', { edit: e.id })}>{e.name}</Link>
                  )}
                </td>
                <td>{e.variations.length > 0 ? e.variations.map((v) => v.name).join(', ') : '—'}</td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NotesTable caption="Translated approximately: what was lost" notes={approximate} />
      {report.resources && report.resources.length > 0 && (
        <p>
          {preview ? 'Resources to make' : 'Resources made'}:{' '}
          {report.resources.map((r) => `${r.path} (${plural(r.itemCount, 'item')})`).join(', ')}
        </p>
      )}
      {report.variables && report.variables.length > 0 && (
        <p>
          The source’s variables ({plural(report.variables.length, 'variable')}):{' '}
          <span className="mono">{report.variables.map((v) => v.name).join(', ')}</span>
          {report.environment
            ? `; ${preview ? 'to become' : 'made into'} the environment ${report.environment.name}.`
            : '.'}
        </p>
      )}
      {report.templates === 'source' && (
        <p>The source’s {'{{…}}'} templates are kept as templates (mockdev’s helpers are compatible).</p>
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
            {literal.map((l, i) => (
              <tr key={`${l.endpointId}-${i}`}>
                <td className="mono">{l.method}</td>
                <td className="mono">{l.path}</td>
                <td>{l.parts.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NotesTable caption="Skipped" why notes={skipped} />
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

/** Items of the source said about (approximate: what was lost; skipped: why), one row each. */
function NotesTable({ caption, notes, why }: { caption: ReactNode; notes: ReportNote[]; why?: boolean }) {
  if (notes.length === 0) return null;
  return (
    <table>
      <caption>{caption}</caption>
      <TableHead columns={['Method', 'Path', why ? 'Why' : 'What']} />
      <tbody>
        {notes.map(noteRow).map((n, i) => (
          <tr key={i}>
            <td className="mono">{n.method}</td>
            <td className="mono">{n.where}</td>
            <td>{n.what}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
