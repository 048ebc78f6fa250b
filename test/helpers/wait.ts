import { setTimeout as sleep } from 'node:timers/promises';

type Falsy = undefined | null | false | 0 | '';

/** Polls `check` until it returns a truthy value (and returns it); fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | Falsy> | T | Falsy,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(25);
  }
}

/** Resolves as `promise` does, or fails after `timeoutMs` naming `what`; leaves no timer behind. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
