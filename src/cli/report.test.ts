import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError, PLAIN_WORDING, toMockdevError } from '../core/errors.js';
import { errorReport } from './report.js';

const bug = () => toMockdevError(new TypeError("Cannot read properties of undefined (reading 'id')"));

describe('errorReport', () => {
  it('a usage error is one line, with debug logs on or off', () => {
    for (const err of [
      new MockdevError('INVALID_ARGUMENT', 'Invalid --port "x"', { hint: 'Use 1024-65535' }),
      new MockdevError('PROJECT_NOT_FOUND', 'Project "nope" not found'),
      new MockdevError('PORT_IN_USE', 'Port 3001 is already in use on 127.0.0.1', {
        cause: new Error('listen EADDRINUSE'),
      }),
    ])
      for (const debug of [false, true]) {
        const text = errorReport(err, PLAIN_WORDING, debug);
        assert.equal(text.split('\n').length, 2, `one line (debug ${debug}): ${text}`);
        assert.doesNotMatch(text, /\n\s+at /);
      }
  });

  it("an internal error (a bug) carries its cause's stack with debug logs on only", () => {
    const quiet = errorReport(bug(), PLAIN_WORDING, false);
    assert.match(quiet, /^mockdev: Unexpected error: Cannot read properties/);
    assert.equal(quiet.split('\n').length, 2);
    const debug = errorReport(bug(), PLAIN_WORDING, true);
    assert.match(debug, /^mockdev: Unexpected error: .*\nTypeError: Cannot read properties.*\n\s+at /);
  });
});
