import assert from 'node:assert/strict';
import { EndpointInputSchema, type EndpointInput } from '../../src/core/model/endpoint.js';
import type { ConvertedImport } from '../../src/formats/converted.js';
import { convertWireMock } from '../../src/formats/wiremock/index.js';

/** Test helpers of the WireMock converter: a source over mappings and __files given in memory. */

/** Converts mappings (as `{ "mappings": [...] }` in one file) with `files` as __files. */
export function convert(mappings: unknown[], files: Record<string, string | Buffer> = {}): ConvertedImport {
  const result = convertWireMock({
    mappings: [{ file: 'mappings.json', content: { mappings } }],
    bodyFile: (name) => {
      const f = files[name];
      return f === undefined ? undefined : Buffer.isBuffer(f) ? f : Buffer.from(f);
    },
  });
  // Every endpoint made is one mockdev can save.
  for (const e of result.endpoints) {
    const parsed = EndpointInputSchema.safeParse(e);
    assert.ok(parsed.success, `${JSON.stringify(e)}: ${parsed.error?.message}`);
  }
  return result;
}

/** The one endpoint made of one mapping. */
export function only(mapping: unknown, files?: Record<string, string | Buffer>): EndpointInput {
  const r = convert([mapping], files);
  assert.equal(r.endpoints.length, 1, JSON.stringify(r));
  return r.endpoints[0]!;
}

/** The messages of a list of notes, for matching. */
export const messages = (notes: { message: string }[]): string => notes.map((n) => n.message).join('\n');
