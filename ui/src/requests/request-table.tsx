import '../contract/contract.css';
import { plural } from '../contract/locate';
import type { RequestRecord } from '../types';
import { ExchangeCells, ExchangeColumns } from './exchange';
import { timeOfDay } from './format';

/**
 * The log as a table, newest first: select a row (its path) to see it whole; star from the row.
 * A request a live contract check failed says how many violations it has.
 */
export function RequestTable(props: {
  records: RequestRecord[];
  selectedId: string | undefined;
  onSelect: (r: RequestRecord) => void;
  onStar: (r: RequestRecord, starred: boolean) => void;
}) {
  return (
    <table className="requests-table">
      <caption className="visually-hidden">Logged requests, newest first</caption>
      <thead>
        <tr>
          <ExchangeColumns />
          <th scope="col">Contract</th>
          <th scope="col">
            <span className="visually-hidden">Star</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.records.map((r) => {
          const selected = r.id === props.selectedId;
          // a live contract check found violations in it (no verdict: not checked)
          const failing = r.contract?.ok === false;
          return (
            <tr
              key={r.id}
              className={
                [selected && 'selected', failing && 'violates'].filter(Boolean).join(' ') || undefined
              }
              data-request-id={r.id}
            >
              <ExchangeCells
                timestamp={r.timestamp}
                method={r.method}
                path={r.path}
                status={r.status}
                durationMs={r.durationMs}
                selected={selected}
                onSelect={() => props.onSelect(r)}
              />
              <td>
                {failing && (
                  <span className="badge badge-danger" title={r.contract!.violations[0]?.message}>
                    {plural(r.contract!.violations.length, 'violation')}
                  </span>
                )}
              </td>
              <td>
                <button
                  type="button"
                  className="icon star"
                  aria-pressed={r.starred}
                  aria-label={`Star ${r.method} ${r.path} at ${timeOfDay(r.timestamp)}`}
                  onClick={() => props.onStar(r, !r.starred)}
                >
                  {r.starred ? '★' : '☆'}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
