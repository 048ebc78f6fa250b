import type { ConvertedImport, Recognition } from '../converted.js';
import { convertEnvironment } from './convert.js';
import { recognize } from './shapes.js';

/** Mockoon's environment export into mockdev's endpoints and resources (formats/converted.ts; docs/import-mockoon.md). */

export function recognizeMockoon(doc: unknown): Recognition {
  return recognize(doc);
}

export function convertMockoon(doc: unknown): ConvertedImport {
  return convertEnvironment(doc);
}
