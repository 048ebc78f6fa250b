/**
 * A table's column heads, in order; `hidden` names a last column (of buttons) for screen readers
 * only.
 */
export function TableHead({ columns, hidden }: { columns: readonly string[]; hidden?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
        {hidden !== undefined && (
          <th scope="col">
            <span className="visually-hidden">{hidden}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
