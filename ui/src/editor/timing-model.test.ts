import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timingInput, timingPatch, timingProblems, timingValues } from './timing-model';

describe('endpoint editor: the delay and fault fields', () => {
  it('read a stored delay and fault, and give them back unchanged', () => {
    for (const stored of [
      { delay: 250 },
      { delay: { uniform: [100, 400] as [number, number] }, fault: 'reset', faultRate: 0.2 },
      { delay: { lognormal: { median: 200, sigma: 0.5 } }, fault: 'drip:2048' },
    ]) {
      const v = timingValues(stored);
      assert.deepEqual(timingProblems(v), {});
      assert.deepEqual(timingInput(v), stored);
      assert.deepEqual(timingPatch(v, v), {}, 'nothing changed');
    }
  });

  it('check each kind within the limits, and patch only what changed (None removes the fault)', () => {
    const base = timingValues({ delay: 0, fault: 'garbage', faultRate: 0.5 });
    assert.deepEqual(timingProblems({ ...base, delayKind: 'uniform', delayMin: '400', delayMax: '100' }), {
      delay: 'From must not be above to',
    });
    assert.match(
      timingProblems({ ...base, delayKind: 'lognormal', delayMedian: '200', delaySigma: '6' }).delay!,
      /0 to 5/,
    );
    assert.match(timingProblems({ ...base, fault: 'drip', dripRate: '0' }).fault!, /Bytes per second/);
    assert.match(timingProblems({ ...base, faultRate: '1.5' }).faultRate!, /from 0 to 1/);
    assert.deepEqual(timingPatch(base, { ...base, fault: '' }), { fault: null, faultRate: null });
    assert.deepEqual(timingPatch(base, { ...base, delayKind: 'uniform', delayMin: '1', delayMax: '9' }), {
      delay: { uniform: [1, 9] },
    });
  });
});
