import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { delaySampler, faultChooser, formatDelay, hasDelay, seededRandom } from './latency.js';
import { FaultRateSchema, FaultSchema, parseFault } from './model/fault.js';
import { DelaySchema } from './model/fields.js';

const samples = (sample: number | (() => number), n = 200): number[] => {
  assert.equal(typeof sample, 'function', 'a distribution is sampled per request');
  return Array.from({ length: n }, () => (sample as () => number)());
};
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[99]! + sorted[100]!) / 2;
};

describe('delay distributions', () => {
  it('uniform: 200 samples within its bounds, whole milliseconds, spread over them', () => {
    for (const seed of [1, 2, 3]) {
      const values = samples(delaySampler({ uniform: [100, 400] }, seededRandom(seed)));
      assert.ok(
        values.every((v) => Number.isInteger(v) && v >= 100 && v <= 400),
        String(values),
      );
      assert.ok(Math.min(...values) < 130 && Math.max(...values) > 370, 'near both bounds');
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      assert.ok(mean > 220 && mean < 280, `mean ${mean}`);
    }
  });

  it('lognormal: the median of 200 samples within 20 % of its median; a tail above it', () => {
    for (const seed of [7, 8, 9]) {
      const values = samples(delaySampler({ lognormal: { median: 200, sigma: 0.5 } }, seededRandom(seed)));
      const m = median(values);
      assert.ok(m >= 160 && m <= 240, `median ${m}`);
      const sorted = [...values].sort((a, b) => a - b);
      assert.ok(sorted[189]! > 1.6 * 200, `95th percentile ${sorted[189]} is well above the median`);
      assert.ok(values.every((v) => Number.isInteger(v) && v >= 0));
    }
  });

  it('are capped at 10 minutes; a fixed delay, a zero spread or an empty range are plain numbers', () => {
    const huge = delaySampler({ lognormal: { median: 600_000, sigma: 5 } }, seededRandom(1));
    assert.ok(samples(huge).every((v) => v <= 600_000));
    assert.equal(delaySampler(250), 250);
    assert.equal(delaySampler({ uniform: [90, 90] }), 90);
    assert.equal(delaySampler({ lognormal: { median: 120, sigma: 0 } }), 120);
    assert.deepEqual([hasDelay(0), hasDelay(5), hasDelay({ uniform: [0, 5] })], [false, true, true]);
    assert.equal(formatDelay({ uniform: [1, 2] }), '1..2 ms');
  });

  it('the same seed gives the same delays (tests can reproduce a run)', () => {
    const a = samples(delaySampler({ uniform: [0, 1000] }, seededRandom(42)), 20);
    const b = samples(delaySampler({ uniform: [0, 1000] }, seededRandom(42)), 20);
    assert.deepEqual(a, b);
  });

  it('the schema takes a number or a distribution and says what is allowed otherwise', () => {
    assert.deepEqual(DelaySchema.parse({ uniform: [100, 400] }), { uniform: [100, 400] });
    assert.deepEqual(DelaySchema.parse({ lognormal: { median: 200, sigma: 0.5 } }), {
      lognormal: { median: 200, sigma: 0.5 },
    });
    const problem = (v: unknown) => DelaySchema.safeParse(v).error?.issues[0]?.message;
    assert.match(problem('soon')!, /number of milliseconds, \{ "uniform": \[min, max\] \}/);
    assert.match(problem({ uniform: [400, 100] })!, /minimum must not be above the maximum/);
    assert.match(problem({ uniform: [0, 600_001] })!, /at most 600000 ms/);
    assert.match(problem({ lognormal: { median: 1, sigma: 9 } })!, /from 0 to 5/);
    assert.match(problem(-1)!, /must not be negative/);
  });
});

describe('faults', () => {
  it('a rate of 0.5 over 200 requests faults between 70 and 130 of them; 1 and 0 draw nothing', () => {
    for (const seed of [1, 2, 3, 4]) {
      const chooser = faultChooser(0.5, seededRandom(seed));
      assert.equal(typeof chooser, 'function');
      const n = Array.from({ length: 200 }, () => (chooser as () => boolean)()).filter(Boolean).length;
      assert.ok(n >= 70 && n <= 130, `${n} faults`);
    }
    assert.equal(faultChooser(1), true);
    assert.equal(faultChooser(0), false);
  });

  it('read from their text; anything else refused naming the allowed ones', () => {
    assert.deepEqual(parseFault('reset'), { kind: 'reset' });
    assert.deepEqual(parseFault(' Drip:2048 '), { kind: 'drip', bytesPerSecond: 2048 });
    for (const bad of ['drip', 'drip:0', 'drip:-5', 'drip:1.5', 'drip:99999999999', 'timeout', ''])
      assert.equal(parseFault(bad), null, bad);
    assert.equal(FaultSchema.parse('GARBAGE'), 'garbage');
    assert.match(FaultSchema.safeParse('slow').error!.issues[0]!.message, /reset, empty, garbage or drip:/);
    assert.match(FaultRateSchema.safeParse(1.5).error!.issues[0]!.message, /from 0 to 1/);
  });
});
