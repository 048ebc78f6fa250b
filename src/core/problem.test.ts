import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE, MockdevError, type ErrorCode } from './errors.js';
import { ProblemSchema } from './model/problem.js';
import { toProblem } from './problem.js';

describe('toProblem', () => {
  it('gives every catalogue code a problem of the one shape, with its status and title', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const problem = ProblemSchema.parse(toProblem(new MockdevError(code, 'What went wrong')));
      assert.deepEqual(
        [problem.status, problem.title, problem.code, problem.type],
        [ERROR_CATALOGUE[code].httpStatus, ERROR_CATALOGUE[code].title, code, 'about:blank'],
      );
    }
  });

  it('words the hint for the surface, keeps the details, and adds members without overriding its own', () => {
    const e = new MockdevError('CONFIRMATION_REQUIRED', 'Delete "a"', {
      hint: (say) => `${say.turnOn('force')} to confirm`,
      details: { field: 'force' },
    });
    const problem = toProblem(e, {
      say: { option: (n) => n, turnOn: (n) => `set "${n}" to true`, action: () => '' },
      extensions: { endpointId: 'e1', status: 999, code: 'NOPE' },
    });
    assert.deepEqual(problem, {
      type: 'about:blank',
      title: 'Confirmation required',
      status: 400,
      detail: 'Delete "a". Set "force" to true to confirm',
      code: 'CONFIRMATION_REQUIRED',
      details: { field: 'force' },
      endpointId: 'e1',
    });
  });

  it('answers anything else as INTERNAL, its message without a stack', () => {
    const problem = toProblem(new TypeError('boom'));
    assert.deepEqual([problem.status, problem.code], [500, 'INTERNAL']);
    assert.equal(problem.detail, 'Unexpected error: boom');
    assert.doesNotMatch(JSON.stringify(problem), /\bat .*\.ts/);
  });
});
