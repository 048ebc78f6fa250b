import { useState } from 'react';
import { useNotify } from './notices';

/**
 * A change a screen makes from a list (activate, toggle, delete): `busy` while it runs (the
 * list's buttons wait), its error told as a notice with what was tried, then `after` (reload).
 */
export function useAction(after: () => void) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const act = async (what: string, run: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await run();
    } catch (e) {
      notify.error(e, what);
    } finally {
      setBusy(false);
      after();
    }
  };
  return { busy, act };
}
