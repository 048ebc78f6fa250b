import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellText, displayWidth, formatTable } from './output.js';

describe('tables', () => {
  it('keep each row on one line: the first line of a cell, cut at the column maximum', () => {
    assert.equal(cellText('Cards API'), 'Cards API');
    assert.equal(cellText('  padded  '), 'padded');
    assert.equal(cellText('First line\n\n## More\ntext'), 'First line…');
    assert.equal(cellText('x'.repeat(70), 60), `${'x'.repeat(59)}…`);
    assert.equal(cellText(undefined), '');
    const table = formatTable(
      [
        { name: 'a', description: 'Short' },
        { name: 'b', description: `${'Long description '.repeat(10)}\nsecond line` },
      ],
      [
        { header: 'NAME', value: (r) => r.name },
        { header: 'DESCRIPTION', value: (r) => r.description, max: 30 },
      ],
    );
    const lines = table.split('\n');
    assert.equal(lines.length, 3, table);
    assert.equal(lines[2], `b     ${'Long description Long descrip'}…`);
  });

  it('pad by the columns a cell takes in a terminal: CJK and emoji two, combining marks none', () => {
    assert.equal(displayWidth('/ü/日本'), 7);
    assert.equal(displayWidth('cafe\u0301 🚀'), 7);
    const table = formatTable(
      [
        { path: '/ü/日本', status: 200 },
        { path: '/a', status: 404 },
        { path: 'ünï 🚀', status: 500 },
      ],
      [
        { header: 'PATH', value: (r) => r.path },
        { header: 'STATUS', value: (r) => r.status, align: 'right' },
      ],
    );
    const ends = table.split('\n').map((l) => displayWidth(l));
    assert.deepEqual(ends, [ends[0], ends[0], ends[0], ends[0]], table);
  });
});
