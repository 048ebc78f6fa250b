import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ID_PATTERN, newId } from './ids.js';

describe('newId', () => {
  it('gives distinct URL-safe ids that never start with - or _, across refills of its random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newId()); // 50,000 random bytes: a dozen refills
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) {
      assert.equal(id.length, 10);
      assert.match(id, ID_PATTERN);
    }
    assert.equal(newId(24).length, 24);
  });
});
