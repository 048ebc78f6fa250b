import assert from 'node:assert/strict';
import { MockdevError } from '../../src/core/errors.js';

/** The MockdevError a promise rejects with (the test fails when it resolves, or rejects otherwise). */
export async function failure(p: Promise<unknown>): Promise<MockdevError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof MockdevError, String(e));
    return e;
  }
  assert.fail('it succeeded');
}
