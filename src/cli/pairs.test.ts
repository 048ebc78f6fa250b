import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseKeys, parsePairs, splitList } from './pairs.js';

describe('--var / --secret pairs', () => {
  it('splits on unescaped commas; \\, and \\\\ are literal; the first = ends the key', () => {
    assert.deepEqual(splitList('a,b\\,c,d\\\\,e'), ['a', 'b,c', 'd\\', 'e']);
    assert.deepEqual(splitList('C:\\dir,x'), ['C:\\dir', 'x']);
    assert.deepEqual(parsePairs(['A=1,B=x=y\\,z', 'C='], '--var').pairs, { A: '1', B: 'x=y,z', C: '' });
    assert.deepEqual(parsePairs(['A=1,TOKEN'], '--secret', true), { pairs: { A: '1' }, keys: ['TOKEN'] });
    assert.throws(() => parsePairs(['A'], '--var'), {
      code: 'INVALID_ARGUMENT',
      message: /Invalid --var "A"/,
    });
    assert.deepEqual(parseKeys(['A,B', 'C']), ['A', 'B', 'C']);
  });
});
