/**
 * The codes the HTTP surfaces answer (the mock server, the admin API, MCP over HTTP) are
 * documented where the error catalogue is: docs/errors.md has a section of those no command
 * exits with, each a catalogue code with the catalogue's status, and README.md names them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

/** The codes of MockdevErrors the sources of the HTTP surfaces build. */
function codesInSources(): string[] {
  const found = new Set<string>();
  for (const layer of ['http', 'runtime', 'api', 'mcp']) {
    const dir = join(ROOT, 'src', layer);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    for (const f of files)
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(
        /MockdevError\(\s*'([A-Z_]+)'|'((?:PROXY|FORBIDDEN)_[A-Z_]+)'/g,
      ))
        found.add(m[1] ?? m[2]!);
  }
  return [...found].sort();
}

/** The rows of docs/errors.md's section of the HTTP surfaces, as "CODE STATUS". */
function httpSection(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
  const start = doc.indexOf('## Refusals and failures of the HTTP surfaces');
  assert.ok(start >= 0, 'docs/errors.md has the section');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| `([A-Z_]+)` +\| \d +\| (\d{3}) +\|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('the HTTP surfaces: their codes in the docs', () => {
  it('every code they answer is in the catalogue, and those of their own have a section of docs/errors.md', () => {
    const sources = codesInSources();
    assert.ok(sources.length >= 12, `found ${sources.join(', ')}`);
    for (const code of sources) assert.ok(code in ERROR_CATALOGUE, code);
    const rows = httpSection();
    for (const row of rows) {
      const [code, status] = row.split(' ') as [keyof typeof ERROR_CATALOGUE, string];
      assert.equal(ERROR_CATALOGUE[code].httpStatus, Number(status), code);
      assert.ok(sources.includes(code), `${code} is documented but no surface answers it`);
    }
    assert.ok(rows.length >= 14, rows.join(', '));
  });

  it('README.md names each code of that section with its status', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const row of httpSection()) {
      const [code, status] = row.split(' ') as [string, string];
      assert.match(readme, new RegExp(`\`${code}\` ${status}`), row);
    }
  });
});
