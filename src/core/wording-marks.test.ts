import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError, PLAIN_WORDING, type Wording } from './errors.js';
import { errorFromData, errorToData, fillMarks, markedWording } from './wording-marks.js';

/** An adapter's words, told apart from the plain ones. */
const ADAPTER: Wording = {
  option: (name) => `--${name}`,
  turnOn: (name) => `pass --${name}`,
  action: (name, subject) => `run "mockdev ${name}${subject ? ` ${subject}` : ''}"`,
};

describe('wording across a thread', () => {
  it('a MockdevError keeps code, message, details and a hint each adapter words', () => {
    const error = new MockdevError('INVALID_INPUT', 'The document is broken', {
      hint: (say) =>
        `fix it, or import without ${say.option('strict')}; ${say.action('listEndpoints', 'a:b "c"')}`,
      details: { problems: [{ pointer: '/paths', message: 'bad' }] },
    });
    // As postMessage sends it.
    const data = structuredClone(errorToData(error, 'k1'));
    const back = errorFromData(data, 'k1');
    assert.equal(back.code, 'INVALID_INPUT');
    assert.equal(back.message, 'The document is broken');
    assert.deepEqual(back.details, { problems: [{ pointer: '/paths', message: 'bad' }] });
    assert.equal(
      back.describe(ADAPTER),
      'The document is broken. Fix it, or import without --strict; run "mockdev listEndpoints a:b "c""',
    );
    assert.equal(back.describe(), error.describe(PLAIN_WORDING));
    assert.match(String((back.cause as Error).stack), /wording-marks\.test\.ts/);
  });

  it('a hint without words to fill stays text; an error without a hint has none', () => {
    const data = errorToData(new MockdevError('IO_ERROR', 'Disk full', { hint: 'free some space' }), 'k');
    assert.equal(errorFromData(data, 'k').hint, 'free some space');
    assert.equal(errorFromData(errorToData(new MockdevError('INTERNAL', 'x'), 'k'), 'k').hint, undefined);
  });

  it('fills the marks of its key in every string of a value, and only those', () => {
    const say = markedWording('mine');
    const theirs = markedWording('theirs').option('force');
    const report = {
      skipped: [{ reason: `exists; ${say.turnOn('overwrite')} to update it` }],
      nested: { list: [say.option('replace'), 42, null, theirs] },
    };
    const filled = fillMarks(report, 'mine', ADAPTER);
    assert.equal(filled, report, 'in place');
    assert.deepEqual(report, {
      skipped: [{ reason: 'exists; pass --overwrite to update it' }],
      nested: { list: ['--replace', 42, null, theirs] },
    });
    assert.equal(fillMarks(say.action('listProjects'), 'mine', ADAPTER), 'run "mockdev listProjects"');
  });
});
