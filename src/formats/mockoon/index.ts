import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, Recognition } from '../converted.js';

/** Mockoon's environment export into mockdev's endpoints (formats/converted.ts). Not built yet: the seam of issue 27. */

export function recognizeMockoon(doc: unknown): Recognition {
  void doc;
  return { looksLike: false };
}

export function convertMockoon(doc: unknown): ConvertedImport {
  void doc;
  throw new MockdevError('INVALID_INPUT', 'Importing Mockoon files is not built yet');
}
