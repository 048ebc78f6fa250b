import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestStats } from '../types';
import {
  binLabel,
  classTotals,
  formatMs,
  histogramData,
  latencySummary,
  peakPerSecond,
  percentileMarks,
  percentileX,
  stackedRateData,
  rateSummary,
} from './chart-model';

const zero = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
const stats: RequestStats = {
  from: '2026-01-01T10:00:00.000Z',
  to: '2026-01-01T10:01:00.000Z',
  minutes: 1,
  bucketSeconds: 30,
  total: 7,
  rate: [
    { start: '2026-01-01T10:00:00.000Z', counts: { ...zero, '2xx': 3 }, perSecond: { ...zero, '2xx': 0.1 } },
    {
      start: '2026-01-01T10:00:30.000Z',
      counts: { ...zero, '2xx': 1, '5xx': 3 },
      perSecond: { ...zero, '2xx': 0.033, '5xx': 0.1 },
    },
  ],
  latency: {
    count: 7,
    p50: 0.3,
    p95: 2,
    p99: 70_000,
    histogram: [
      { fromMs: 0.2, toMs: 0.5, count: 5 },
      { fromMs: 0.5, toMs: 1, count: 0 },
      { fromMs: 1, toMs: 2, count: 0 },
      { fromMs: 2, toMs: 5, count: 1 },
      { fromMs: 60_000, toMs: null, count: 1 },
    ],
  },
};

describe('request log charts: the data drawn and said', () => {
  it('gives the rate chart its bars in unix seconds, stacked by status class', () => {
    assert.deepEqual(stackedRateData(stats), [
      [1767261615, 1767261645],
      [0.1, 0.133],
      [0.1, 0.033],
      [0.1, 0.033],
      [0.1, 0.033],
    ]);
    assert.deepEqual(classTotals(stats), { '2xx': 4, '3xx': 0, '4xx': 0, '5xx': 3 });
    assert.equal(peakPerSecond(stats), 0.133);
    assert.equal(
      rateSummary(stats),
      '7 requests in the past 1 minute (4 2xx, 3 5xx); at most 0.133 per second.',
    );
    assert.equal(rateSummary({ ...stats, total: 0, minutes: 15 }), 'No requests in the past 15 minutes.');
  });

  it('labels the latency bins and places each percentile in its bin (log scale)', () => {
    assert.deepEqual(histogramData(stats), [
      [0, 1, 2, 3, 4],
      [5, 0, 0, 1, 1],
    ]);
    assert.deepEqual(stats.latency.histogram.map(binLabel), ['0.2–0.5', '0.5–1', '1–2', '2–5', '≥60s']);
    assert.equal(binLabel({ fromMs: 0, toMs: 0.1 }), '<0.1');
    assert.equal(binLabel({ fromMs: 1000, toMs: 2000 }), '1s–2s');
    const h = stats.latency.histogram;
    assert.equal(percentileX(h, 0.2), -0.5, 'a bin starts at its left edge');
    assert.ok(
      Math.abs(percentileX(h, Math.sqrt(0.2 * 0.5))! - 0) < 1e-9,
      'the geometric middle is its centre',
    );
    assert.equal(percentileX(h, 2), 2.5);
    assert.equal(percentileX(h, 90_000), 4, 'the open bin: its middle');
    assert.equal(percentileX(h, 0.1), undefined);
    assert.equal(percentileX([{ fromMs: 0, toMs: 0.1, count: 1 }], 0.05), 0);
    assert.deepEqual(
      percentileMarks(stats).map((m) => [m.name, m.ms]),
      [
        ['p50', 0.3],
        ['p95', 2],
        ['p99', 70_000],
      ],
    );
    assert.equal(latencySummary(stats), 'p50 0.3 ms, p95 2 ms, p99 70 s over 7 requests.');
    assert.equal(
      latencySummary({ ...stats, latency: { count: 0, p50: null, p95: null, p99: null, histogram: [] } }),
      'No latencies to show.',
    );
  });

  it('says durations in ms or s', () => {
    assert.deepEqual([0, 0.042, 0.25, 1, 2.5, 12.4, 999, 1200, 12_000].map(formatMs), [
      '0 ms',
      '0.04 ms',
      '0.25 ms',
      '1 ms',
      '2.5 ms',
      '12 ms',
      '999 ms',
      '1.2 s',
      '12 s',
    ]);
  });
});
