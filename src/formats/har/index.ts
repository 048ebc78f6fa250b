import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, HarOptions, Recognition } from '../converted.js';

/** HAR 1.2 (a browser's "Save all as HAR") into mockdev's endpoints (formats/converted.ts). Not built yet: the seam of issue 27. */

export function recognizeHar(doc: unknown): Recognition {
  void doc;
  return { looksLike: false };
}

export function convertHar(doc: unknown, _options: HarOptions = {}): ConvertedImport {
  void doc;
  throw new MockdevError('INVALID_INPUT', 'Importing Har files is not built yet');
}
