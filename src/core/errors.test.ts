import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE, MockdevError, toMockdevError, type Wording } from './errors.js';

describe('error catalogue', () => {
  it('matches docs/errors.md row for row', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const row = ([code, exit, http]: (string | number)[]) => `${code} ${exit} ${http}`;
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` +\| (\d) +\| (\d{3}) +\|/gm)].map((m) =>
      row([m[1]!, m[2]!, m[3]!]),
    );
    const catalogue = Object.entries(ERROR_CATALOGUE).map(([code, v]) =>
      row([code, v.exitCode, v.httpStatus]),
    );
    assert.deepEqual([...rows].sort(), [...catalogue].sort());
    assert.equal(new Set(rows).size, rows.length, 'each code has one row');
  });

  it('uses only the exit codes of SPEC part 7', () => {
    for (const { exitCode } of Object.values(ERROR_CATALOGUE)) assert.ok([1, 2, 3, 4].includes(exitCode));
  });

  it('joins message and hint into one line, and wraps unknown errors as INTERNAL', () => {
    const e = new MockdevError('CONFLICT', 'Taken', { hint: 'Pick another' });
    assert.equal(e.fullMessage, 'Taken. Pick another');
    assert.equal(e.exitCode, 1);
    const wrapped = toMockdevError(new TypeError('boom'));
    assert.equal(wrapped.code, 'INTERNAL');
    assert.match(wrapped.fullMessage, /boom.*bug in mockdev/);
    assert.equal(toMockdevError(e), e);
  });

  it('words a hint for each adapter: the core names the input or the next step, not a flag', () => {
    const e = new MockdevError('CONFIRMATION_REQUIRED', 'Delete project "a"', {
      hint: (say) => `${say.turnOn('force')} to confirm, or ${say.action('listProjects')}`,
    });
    const cli: Wording = {
      option: (n) => `--${n}`,
      turnOn: (n) => `pass --${n}`,
      action: () => 'run "mockdev project list"',
    };
    const mcp: Wording = {
      option: (n) => `the "${n}" argument`,
      turnOn: (n) => `set ${n}: true`,
      action: () => 'call list_projects',
    };
    assert.equal(
      e.describe(cli),
      'Delete project "a". Pass --force to confirm, or run "mockdev project list"',
    );
    assert.equal(e.describe(mcp), 'Delete project "a". Set force: true to confirm, or call list_projects');
    assert.equal(
      e.fullMessage,
      'Delete project "a". Turn on the force option to confirm, or list the projects',
    );
  });
});
