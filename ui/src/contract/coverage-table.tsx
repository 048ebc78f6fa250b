import { TableHead } from '../components/table-head';
import type { ContractCoverage } from '../types';

/**
 * Coverage of the contract (as `mockdev contract status`): each operation with its logged
 * requests, passed and failed, those never exercised standing out; then the requests that match
 * no operation.
 */
export function CoverageTable({ coverage }: { coverage: ContractCoverage }) {
  const never = new Set(coverage.unexercised);
  return (
    <>
      <p className="contract-summary">
        {coverage.covered} of {coverage.total} operations exercised ({coverage.percent.toFixed(1)}%)
        {coverage.unexercised.length > 0 && `; ${coverage.unexercised.length} never`}.
      </p>
      <table className="contract-coverage">
        <caption className="visually-hidden">Operations of the contract and their logged requests</caption>
        <TableHead columns={['Operation', 'Operation id', 'Requests', 'Passed', 'Failed']} />
        <tbody>
          {coverage.operations.map((o) => {
            const unexercised = never.has(o.operation);
            return (
              <tr key={o.operation} className={unexercised ? 'unexercised' : undefined}>
                <th scope="row" className="mono">
                  {o.operation}
                  {unexercised && <span className="badge badge-warn">never exercised</span>}
                </th>
                <td className="mono">{o.operationId ?? ''}</td>
                <td className="num">{o.requests}</td>
                <td className="num">{o.passed}</td>
                <td className={o.failed > 0 ? 'num contract-failed' : 'num'}>{o.failed}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {coverage.unmatched.length > 0 && (
        <>
          <h3>Requests that match no operation</h3>
          <table className="contract-unmatched">
            <TableHead columns={['Method', 'Path', 'Requests']} />
            <tbody>
              {coverage.unmatched.map((u) => (
                <tr key={`${u.method} ${u.path}`}>
                  <td className="method">{u.method}</td>
                  <td className="mono">{u.path}</td>
                  <td className="num">{u.requests}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
