/**
 * The edits of a list of rows with stable ids (header rows, rule rows, variables): change some
 * fields of one row, remove one, add one at the end. `apply` receives each edit as a function of
 * the current rows: a state setter (`setRows`) or `(edit) => onChange(edit(rows))`.
 */
export function rowListEdits<R extends { id: number }>(apply: (edit: (rows: R[]) => R[]) => void) {
  return {
    update: (id: number, change: Partial<R>) => apply((rows) => updateRow(rows, id, change)),
    remove: (id: number) => apply((rows) => rows.filter((r) => r.id !== id)),
    add: (row: R) => apply((rows) => [...rows, row]),
  };
}

/** The rows with `change` applied to the one whose id is `id`. */
export function updateRow<R extends { id: number }>(rows: R[], id: number, change: Partial<R>): R[] {
  return rows.map((r) => (r.id === id ? { ...r, ...change } : r));
}
