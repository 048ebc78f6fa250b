/**
 * The admin API's own refusal codes (the ones no command exits with) are documented where the
 * error catalogue is: docs/errors.md lists exactly the code and status of every refusal the
 * API's sources build, and README.md names them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

/** `problem(415, 'UNSUPPORTED_MEDIA_TYPE', …)` calls of src/api, as "415 UNSUPPORTED_MEDIA_TYPE". */
function refusalsInSources(): string[] {
  const dir = join(ROOT, 'src', 'api');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const found = new Set<string>();
  for (const f of files)
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/problem\(\s*(\d{3}),\s*'([A-Z_]+)'/g))
      if (m[2] !== 'INTERNAL') found.add(`${m[1]} ${m[2]}`); // INTERNAL is the catalogue's
  return [...found].sort();
}

describe('admin API: its refusal codes in the docs', () => {
  it('docs/errors.md lists every refusal of src/api with its status, and nothing else', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
    const start = doc.indexOf("## The admin API's own refusals");
    assert.ok(start >= 0, 'docs/errors.md has the section');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` +\| (\d{3}) +\|/gm)].map((m) => `${m[2]} ${m[1]}`);
    const sources = refusalsInSources();
    assert.ok(sources.length >= 6, `found ${sources.join(', ')}`);
    assert.deepEqual(rows.sort(), sources);
    // Those that are also catalogue codes keep the catalogue's status.
    for (const row of rows) {
      const [status, code] = row.split(' ') as [string, string];
      const known = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE];
      if (known) assert.equal(known.httpStatus, Number(status), code);
    }
  });

  it('README.md names each of them with its status', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const refusal of refusalsInSources()) {
      const [status, code] = refusal.split(' ') as [string, string];
      if (code === 'NOT_FOUND') continue; // a catalogue code, in docs/errors.md
      assert.match(readme, new RegExp(`\`${code}\` ${status}`), `${code} ${status}`);
    }
  });
});
