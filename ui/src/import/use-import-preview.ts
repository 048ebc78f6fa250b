import { api } from '../api/client';
import { importQuery, type FileImportOptions, type FileImportReport } from './file-import-model';
import { documentType } from './format';
import { useDebouncedAnswer } from './use-debounced-answer';

export const PREVIEW_DELAY_MS = 250;

/**
 * The dry run of a file import: `POST /import?dryRun=true` a moment after the file or an option
 * changed (nothing is written); a newer ask aborts the one in flight, and an answer to an older
 * one is never shown. `refresh` changed asks again (after an import, the project changed).
 */
export function useImportPreview(
  text: string,
  options: FileImportOptions,
  refresh: number,
): { report?: FileImportReport; error?: unknown; pending: boolean } {
  const q = importQuery(options, true);
  // The text itself is not part of the key (it may be megabytes): each file read bumps `refresh`.
  const key = text.trim() === '' ? null : `${q} ${refresh}`;
  const { value, error, pending } = useDebouncedAnswer(
    key,
    (signal) =>
      api<FileImportReport>(`/import${q}`, {
        method: 'POST',
        body: text,
        contentType: documentType(text),
        signal,
      }),
    PREVIEW_DELAY_MS,
  );
  return { report: value, error, pending };
}
