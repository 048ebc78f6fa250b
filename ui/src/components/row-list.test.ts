import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowListEdits } from './row-list';

interface R {
  id: number;
  name: string;
  value: string;
}

function list(rows: R[]) {
  const state = { rows };
  const edits = rowListEdits<R>((edit) => {
    state.rows = edit(state.rows);
  });
  return { state, edits };
}

test('update changes the given fields of the one row with that id', () => {
  const { state, edits } = list([
    { id: 1, name: 'a', value: '1' },
    { id: 2, name: 'b', value: '2' },
  ]);
  edits.update(2, { value: 'two' });
  assert.deepEqual(state.rows, [
    { id: 1, name: 'a', value: '1' },
    { id: 2, name: 'b', value: 'two' },
  ]);
});

test('remove takes out only the row with that id; add appends', () => {
  const { state, edits } = list([
    { id: 1, name: 'a', value: '1' },
    { id: 2, name: 'b', value: '2' },
  ]);
  edits.remove(1);
  edits.add({ id: 3, name: '', value: '' });
  assert.deepEqual(
    state.rows.map((r) => r.id),
    [2, 3],
  );
});

test('successive edits each see the rows the previous one left', () => {
  const { state, edits } = list([]);
  edits.add({ id: 1, name: '', value: '' });
  edits.update(1, { name: 'X-A' });
  assert.deepEqual(state.rows, [{ id: 1, name: 'X-A', value: '' }]);
});
