import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { CurlPreview } from './types';

export const PREVIEW_DEBOUNCE_MS = 150;

/**
 * The live cURL preview: `POST /curl/preview` ~150 ms after the last keystroke; a newer command
 * aborts the request in flight, and an answer to an older command is never shown.
 */
export function useCurlPreview(
  command: string,
  projectId: string,
  /** Changed to ask again for the same command (after an import the generated name changes). */
  refresh = 0,
): { preview?: CurlPreview; error?: unknown; pending: boolean } {
  const [state, setState] = useState<{ preview?: CurlPreview; error?: unknown; pending: boolean }>({
    pending: false,
  });
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (command.trim() === '') {
      setState({ pending: false });
      return;
    }
    setState((s) => ({ ...s, pending: true }));
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api<CurlPreview>('/curl/preview', {
        method: 'POST',
        body: { command, project: projectId },
        signal: abort.signal,
      }).then(
        (preview) => mine === seq.current && setState({ preview, pending: false }),
        (error: unknown) => {
          if ((error as Error)?.name === 'AbortError' || mine !== seq.current) return;
          setState({ error, pending: false });
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [command, projectId, refresh]);
  return state;
}
