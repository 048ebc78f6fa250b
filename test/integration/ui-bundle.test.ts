/**
 * The web UI's first load stays within its budget (docs/benchmarks.md, "Web UI"): the script a
 * page load fetches before its first screen is under 250 KB gzipped, and the parts only one
 * screen needs (uPlot for the request log's charts) are chunks of their own, loaded by that
 * screen. Reads the built dist/ui (`npm test` builds first).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { uiBundleSize } from '../../scripts/bench-ui.mjs';

const root = new URL('../..', import.meta.url).pathname;

describe('web UI bundle', () => {
  it('loads under 250 KB of script gzipped before the first screen, the chart library apart', () => {
    const { firstLoad } = uiBundleSize(root);
    assert.ok(firstLoad.scripts.length > 0, 'index.html names its script');
    assert.ok(
      firstLoad.script / 1024 < 250,
      `first-load script ${(firstLoad.script / 1024).toFixed(1)} KB gzipped`,
    );
    const first = firstLoad.scripts.map((f) => readFileSync(join(root, 'dist', 'ui', f), 'utf8')).join('\n');
    assert.doesNotMatch(first, /u-cursor-x|uPlot\.min/, 'uPlot is not in the first load');
    const charts = firstLoad.lazy.filter((f) =>
      readFileSync(join(root, 'dist', 'ui', f.file), 'utf8').includes('u-cursor-x'),
    );
    assert.equal(charts.length, 1, 'uPlot is a chunk of its own, loaded by the request log');
  });
});
