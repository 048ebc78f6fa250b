import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, WireMockSource, Recognition } from '../converted.js';

/** WireMock mappings (a mappings/ folder with __files/, a mapping file, or { "mappings": [...] }) into mockdev's endpoints (formats/converted.ts). Not built yet: the seam of issue 27. */

export function recognizeWireMock(doc: unknown): Recognition {
  void doc;
  return { looksLike: false };
}

export function convertWireMock(source: WireMockSource): ConvertedImport {
  void source;
  throw new MockdevError('INVALID_INPUT', 'Importing WireMock files is not built yet');
}
