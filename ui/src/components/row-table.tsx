import type { ReactNode } from 'react';
import { TableHead } from './table-head';

/**
 * A table of editable rows (header rows, rule rows, variables): a header cell per column, the
 * row's own cells, and a Remove button last in each row (its column named for screen readers
 * only). The edits themselves are the caller's (rowListEdits).
 */
export function RowTable<R extends { id: number }>(props: {
  /** The column headings before the Remove column. */
  columns: readonly string[];
  rows: readonly R[];
  /** The cells of one row (`<td>`s), before its Remove button. */
  cells: (row: R, index: number) => ReactNode;
  /** The accessible name of the row's Remove button. */
  removeLabel: (row: R, index: number) => string;
  onRemove: (id: number) => void;
  className?: string;
  caption?: ReactNode;
  /** Shown in a row across the table when there are no rows. */
  empty?: ReactNode;
}) {
  const { columns, rows } = props;
  return (
    <table className={props.className}>
      {props.caption !== undefined && <caption>{props.caption}</caption>}
      <TableHead columns={columns} hidden="Remove" />
      <tbody>
        {rows.length === 0 && props.empty !== undefined && (
          <tr>
            <td colSpan={columns.length + 1} className="muted">
              {props.empty}
            </td>
          </tr>
        )}
        {rows.map((r, i) => (
          <tr key={r.id}>
            {props.cells(r, i)}
            <td>
              <button type="button" aria-label={props.removeLabel(r, i)} onClick={() => props.onRemove(r.id)}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
