import { useEffect, useRef, useState } from 'react';

export interface DebouncedAnswer<T> {
  value?: T;
  error?: unknown;
  pending: boolean;
}

/**
 * An answer that follows its input: `ask` runs `delayMs` after the last change of `key` (nothing
 * when `key` is null); a newer key aborts the ask in flight, and an answer to an older key is
 * never shown. `ask` is read when the timer fires, so it may be a new function at each render.
 */
export function useDebouncedAnswer<T>(
  key: string | null,
  ask: (signal: AbortSignal) => Promise<T>,
  delayMs: number,
): DebouncedAnswer<T> {
  const [state, setState] = useState<DebouncedAnswer<T>>({ pending: false });
  const seq = useRef(0);
  const asker = useRef(ask);
  asker.current = ask;
  useEffect(() => {
    const mine = ++seq.current;
    if (key === null) {
      setState({ pending: false });
      return;
    }
    setState((s) => ({ ...s, pending: true }));
    const abort = new AbortController();
    const timer = setTimeout(() => {
      asker.current(abort.signal).then(
        (value) => mine === seq.current && setState({ value, pending: false }),
        (error: unknown) => {
          if ((error as Error)?.name === 'AbortError' || mine !== seq.current) return;
          setState({ error, pending: false });
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, delayMs]);
  return state;
}
