import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newRow, patchOf, removedKeys, revealRows, rowsOf, type EnvironmentShape } from './rows';

const stored: EnvironmentShape = {
  variables: { API_URL: 'https://x', TOKEN: '********' },
  secretKeys: ['TOKEN'],
};
const same = { from: 'Dev', to: 'Dev' };

describe('environment editor rows', () => {
  it('reads a masked secret as unknown and changes nothing when nothing was edited', () => {
    const rows = rowsOf(stored);
    assert.deepEqual(
      rows.map((r) => [r.key, r.value, r.secret, r.known]),
      [
        ['API_URL', 'https://x', false, true],
        ['TOKEN', '', true, false],
      ],
    );
    assert.deepEqual(patchOf(rows, removedKeys(stored, rows), same), { patch: {} });
  });

  it('sends new and changed values, new secrets apart, and removed keys as unset', () => {
    const rows = rowsOf(stored);
    rows[0]!.value = 'https://y';
    const added = { ...newRow(), key: 'PASSWORD', value: 'pw', secret: true };
    const kept = [rows[0]!, added];
    assert.deepEqual(patchOf(kept, removedKeys(stored, kept), { from: 'Dev', to: 'Dev 2' }), {
      patch: {
        name: 'Dev 2',
        unset: ['TOKEN'],
        variables: { API_URL: 'https://y' },
        secrets: { PASSWORD: 'pw' },
      },
    });
  });

  it('replaces a secret typed over, and asks to reveal before renaming a hidden one', () => {
    const rows = rowsOf(stored);
    rows[1] = { ...rows[1]!, value: 'new', known: true };
    assert.deepEqual(patchOf(rows, [], same), { patch: { secrets: { TOKEN: 'new' } } });
    const renamed = rowsOf(stored);
    renamed[1] = { ...renamed[1]!, key: 'TOKEN2' };
    const result = patchOf(renamed, [], same);
    assert.ok('error' in result && /Reveal the secrets first/.test(result.error));
  });

  it('makes a revealed secret plain by unsetting it and setting it again', () => {
    const rows = revealRows(rowsOf(stored), {
      variables: { API_URL: 'https://x', TOKEN: 's3' },
      secretKeys: ['TOKEN'],
    });
    assert.equal(rows[1]!.value, 's3');
    rows[1] = { ...rows[1]!, secret: false };
    assert.deepEqual(patchOf(rows, [], same), { patch: { unset: ['TOKEN'], variables: { TOKEN: 's3' } } });
  });

  it('refuses a bad or repeated variable name', () => {
    const a = { ...newRow(), key: '1X', value: '' };
    assert.ok('error' in patchOf([a], [], same));
    const b = { ...newRow(), key: 'A', value: '1' };
    const c = { ...newRow(), key: 'A', value: '2' };
    assert.deepEqual(patchOf([b, c], [], same), { error: '"A" appears twice' });
  });
});
