import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long each probe waited (ms) while a long request ran, and how long that took. */
export interface Probed {
  /**
   * Per probe, each round's wait: its answer's time, and any stall of this process's own event
   * loop in the pause after it (a server running in this process stalls it too).
   */
  answers: Record<string, number[]>;
  /** How long the long request took (ms). */
  longMs: number;
}

const PAUSE_MS = 50;

/**
 * Runs `long` (a request that takes seconds) and, until it is over, each probe again and again
 * (each awaited, 50 ms apart): how long the probes waited, and the long request.
 */
export async function probeWhile(
  long: () => Promise<unknown>,
  probes: Record<string, () => Promise<void>>,
): Promise<Probed> {
  const answers: Record<string, number[]> = Object.fromEntries(Object.keys(probes).map((k) => [k, []]));
  const started = performance.now();
  let done = false;
  const finished = long().finally(() => (done = true));
  const loops = Object.entries(probes).map(async ([name, probe]) => {
    while (!done) {
      const sent = performance.now();
      await probe();
      await sleep(PAUSE_MS);
      answers[name]!.push(performance.now() - sent - PAUSE_MS);
    }
  });
  await finished;
  const longMs = performance.now() - started;
  await Promise.all(loops);
  return { answers, longMs };
}

/**
 * Each probe was answered several times while the long request ran (all but the last before it
 * ended), never after a wait of `share` of it (a third by default): a server that stood still
 * for the long request would keep a probe waiting most of that time.
 */
export function assertServed({ answers, longMs }: Probed, what = 'request', share = 1 / 3): void {
  for (const [name, times] of Object.entries(answers)) {
    assert.ok(
      times.length >= 3,
      `${name}: ${times.length} answers during a ${Math.round(longMs)} ms ${what}`,
    );
    const slowest = Math.max(...times);
    assert.ok(
      slowest < longMs * share,
      `${name}: the slowest answer took ${Math.round(slowest)} ms of a ${Math.round(longMs)} ms ${what}`,
    );
  }
}
