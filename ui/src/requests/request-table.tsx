import type { RequestRecord } from '../types';
import { StatusCode } from './exchange';
import { formatDuration, timeOfDay } from './format';

/** The log as a table, newest first: select a row (its path) to see it whole; star from the row. */
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
          <th scope="col">Time</th>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Duration
          </th>
          <th scope="col">
            <span className="visually-hidden">Star</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.records.map((r) => {
          const selected = r.id === props.selectedId;
          return (
            <tr key={r.id} className={selected ? 'selected' : undefined} data-request-id={r.id}>
              <td className="mono nowrap">
                <time dateTime={r.timestamp}>{timeOfDay(r.timestamp)}</time>
              </td>
              <td className="method">{r.method}</td>
              <td className="path-cell">
                <button
                  type="button"
                  className="link-button mono"
                  aria-current={selected ? 'true' : undefined}
                  onClick={() => props.onSelect(r)}
                >
                  {r.path}
                </button>
              </td>
              <td>
                <StatusCode status={r.status} />
              </td>
              <td className="num nowrap">{formatDuration(r.durationMs)}</td>
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
