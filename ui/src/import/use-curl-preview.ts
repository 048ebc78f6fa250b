import { api } from '../api/client';
import type { CurlPreview } from './types';
import { useDebouncedAnswer } from './use-debounced-answer';

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
  const key = command.trim() === '' ? null : JSON.stringify([command, projectId, refresh]);
  const { value, error, pending } = useDebouncedAnswer(
    key,
    (signal) =>
      api<CurlPreview>('/curl/preview', { method: 'POST', body: { command, project: projectId }, signal }),
    PREVIEW_DEBOUNCE_MS,
  );
  return { preview: value, error, pending };
}
