import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, Recognition } from '../converted.js';

/** Postman Collection v2.0 / v2.1 into mockdev's endpoints (formats/converted.ts). Not built yet: the seam of issue 27. */

export function recognizePostman(doc: unknown): Recognition {
  void doc;
  return { looksLike: false };
}

export function convertPostman(doc: unknown): ConvertedImport {
  void doc;
  throw new MockdevError('INVALID_INPUT', 'Importing Postman files is not built yet');
}
