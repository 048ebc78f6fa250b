import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { HELPER_NAMES, helpers } from './helpers.js';
import { mockoonHelpers, NOT_YET } from './helpers-mockoon.js';
import { wiremockHelpers } from './helpers-wiremock.js';
import { PARITY } from './parity-data.js';
import { ourHelper, paritySection, parityMarkdown, withParity } from './parity.js';

const registered = new Set(HELPER_NAMES);
const doc = (): string => readFileSync(new URL('../../../docs/templates.md', import.meta.url), 'utf8');

describe('the parity table (docs/templates.md "Parity with Mockoon and WireMock")', () => {
  it('every helper marked same or differs is registered', () => {
    const missing = PARITY.filter((r) => r[3] !== 'not supported')
      .map(ourHelper)
      .filter((name) => name !== undefined && !registered.has(name));
    assert.deepEqual(missing, []);
  });

  it('a helper marked not supported is not registered under their name, and says why', () => {
    const wrong = PARITY.filter((r) => r[3] === 'not supported' && (registered.has(r[2]) || r[4] === ''));
    assert.deepEqual(wrong, []);
  });

  it('a helper that differs says how', () => {
    assert.deepEqual(
      PARITY.filter((r) => r[3] === 'differs' && r[4] === ''),
      [],
    );
  });

  it('every registered Mockoon and WireMock helper is listed', () => {
    const listed = new Set(PARITY.flatMap((r) => [r[2], ourHelper(r)]));
    const theirs = [...Object.keys(mockoonHelpers), ...Object.keys(wiremockHelpers({ ...helpers }))];
    assert.deepEqual(
      theirs.filter((name) => !listed.has(name)),
      [],
    );
  });

  it('helpers refused until a feature exists are listed as not supported, naming the issue', () => {
    for (const name of Object.keys(NOT_YET)) {
      const row = PARITY.find((r) => r[0] === 'Mockoon' && r[2] === name);
      assert.equal(row?.[3], 'not supported', name);
      assert.match(row[4], /issue 26/, name);
    }
  });

  it('no helper is listed twice for one tool', () => {
    const keys = PARITY.map((r) => `${r[0]} ${r[2]}`);
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
    );
  });

  it('the doc section equals the generated text (run scripts/template-parity.ts after a change)', () => {
    const text = doc();
    assert.equal(paritySection(text), parityMarkdown());
    assert.equal(withParity(text), text);
  });

  it('the generated text names every row', () => {
    const md = parityMarkdown();
    for (const r of PARITY) assert.ok(md.includes(`| \`${r[2]}\``), r[2]);
  });
});
