import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallLog, type CallLogEntry } from './call-log.js';
import { parseLoggingMode } from './logging-mode.js';

const entry = (tool: string, ok: boolean): CallLogEntry => ({
  time: new Date().toISOString(),
  tool,
  durationMs: 1,
  ok,
  ...(ok ? {} : { error: { code: 'NOT_FOUND', message: 'x' } }),
  sessionId: 's',
  transport: 'streamable-http',
  client: null,
});

describe('call log', () => {
  it('keeps what the logging mode says', () => {
    for (const [mode, kept] of [
      ['off', []],
      ['errors', ['b']],
      ['all', ['c', 'b', 'a']],
    ] as const) {
      const log = new CallLog(mode);
      log.add(entry('a', true));
      log.add(entry('b', false));
      log.add(entry('c', true));
      assert.deepEqual(
        log.recent(10).map((e) => e.tool),
        kept,
        mode,
      );
    }
  });

  it('is bounded and returns the newest first', () => {
    const log = new CallLog('all', 3);
    for (const t of ['a', 'b', 'c', 'd', 'e']) log.add(entry(t, true));
    assert.equal(log.size, 3);
    assert.deepEqual(
      log.recent(2).map((e) => e.tool),
      ['e', 'd'],
    );
  });

  it('checks --logging-mode values', () => {
    assert.equal(parseLoggingMode(' Errors '), 'errors');
    assert.throws(() => parseLoggingMode('verbose'), /must be one of off, errors, all/);
  });
});
