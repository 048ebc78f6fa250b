import { useState, type FormEvent } from 'react';
import { enc, post } from '../api/client';
import { Link } from '../components/link';
import { ErrorMessage } from '../components/notices';
import { TableHead } from '../components/table-head';
import { projectPath } from '../router';
import type { ContractReport } from '../types';
import { groupByOperation, plural, spotQuery } from './locate';

/** The summary line, as `contract validate` prints it. */
export function summaryLine(r: ContractReport): string {
  return `Checked ${plural(r.checked, 'request')}: ${r.passed} passed, ${r.failed} failed, ${plural(r.violations.length, 'violation')}`;
}

/**
 * Validate now (as `mockdev contract validate`): the logged requests (the last N, or every one
 * kept) checked against the contract; the summary, then the violations grouped by operation, each
 * linking to its request in the log with the failing field marked.
 */
export function ValidatePanel(props: { projectId: string; onValidated: () => void }) {
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [report, setReport] = useState<ContractReport>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const n = limit.trim() === '' ? undefined : Number(limit);
      setReport(
        await post<ContractReport>(`/projects/${enc(props.projectId)}/contract/validate`, { limit: n }),
      );
      props.onValidated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form
        className="contract-validate"
        aria-label="Validate the logged requests"
        onSubmit={(e) => void submit(e)}
      >
        <label>
          Only the last N requests (optional)
          <input
            type="number"
            min={1}
            value={limit}
            placeholder="every logged request"
            onChange={(e) => setLimit(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Validating…' : 'Validate now'}
        </button>
      </form>
      <ErrorMessage error={error} />
      {report && <ReportView projectId={props.projectId} report={report} />}
    </>
  );
}

function ReportView({ projectId, report }: { projectId: string; report: ContractReport }) {
  const groups = groupByOperation(report.violations);
  return (
    <div className="contract-report">
      <p
        className={report.failed > 0 ? 'contract-summary contract-failed' : 'contract-summary contract-ok'}
        role="status"
      >
        {summaryLine(report)}
        {report.skipped > 0 &&
          ` (${plural(report.skipped, 'request')} with a body the log cut short: that body was not checked)`}
        .
      </p>
      {report.checked === 0 && (
        <p className="muted">The request log is empty: call the mock server, then validate again.</p>
      )}
      {groups.map((g) => (
        <section
          key={g.operation ?? ''}
          className="contract-group"
          aria-label={g.operation ?? 'Requests that match no operation'}
        >
          <h3>
            {g.operation === null ? 'No operation matched' : <span className="mono">{g.operation}</span>}{' '}
            <span className="muted">
              {plural(g.violations.length, 'violation')} in {plural(g.requests, 'request')}
            </span>
          </h3>
          <table className="contract-violations-table">
            <TableHead columns={['Request', 'Where', 'Rule', 'What is wrong']} />
            <tbody>
              {g.violations.map((v, i) => (
                <tr key={i}>
                  <td className="mono">
                    <Link
                      href={projectPath(projectId, 'requests', spotQuery(v))}
                      aria-label={`Request ${v.requestId}: ${v.method} ${v.path}, ${v.in} ${v.location}`}
                    >
                      {v.method} {v.path}
                    </Link>
                  </td>
                  <td className="mono">
                    {v.in} {v.location}
                  </td>
                  <td className="mono">{v.rule}</td>
                  <td>{v.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
