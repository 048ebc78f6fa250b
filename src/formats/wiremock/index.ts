import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, ImportNote, Recognition, WireMockSource } from '../converted.js';
import { groupMappings } from './group.js';
import { readMapping, type Mapping } from './mapping.js';
import { isObject } from './matchers.js';

/**
 * WireMock mappings (a mappings/ folder with __files/, a mapping file, or { "mappings": [...] })
 * into mockdev's endpoints (formats/converted.ts; docs/import-wiremock.md says what each field
 * becomes). Pure: the app reads the files and gives them as a WireMockSource.
 */

/**
 * A WireMock document: `{ "mappings": [...] }`, or one mapping (`request` and `response`
 * objects at the top; a Postman item's `response` is a list, a HAR's entries are under `log`).
 */
export function recognizeWireMock(doc: unknown): Recognition {
  if (!isObject(doc)) return { looksLike: false };
  if ('mappings' in doc) {
    // A mapping in the list that cannot be read is skipped with a note, not the whole document.
    return Array.isArray(doc.mappings)
      ? { looksLike: true }
      : { looksLike: true, problem: 'mappings is not a list' };
  }
  if (!('request' in doc) || Array.isArray(doc.response)) return { looksLike: false };
  if (!isObject(doc.request)) return { looksLike: true, problem: 'request is not an object' };
  if (!isObject(doc.response)) return { looksLike: true, problem: 'response is missing or not an object' };
  return { looksLike: true };
}

/** The mappings a file holds, with their labels; or why the file holds none. */
function mappingsOf(file: string, content: unknown): { raw: unknown; label: string }[] | string {
  const seen = recognizeWireMock(content);
  if (!seen.looksLike) return 'not a WireMock mapping (no request and response, no mappings list)';
  if (seen.problem) return seen.problem;
  if (isObject(content) && Array.isArray(content.mappings)) {
    const list = content.mappings as unknown[];
    return list.map((raw, i) => ({ raw, label: list.length > 1 ? `${file} #${i + 1}` : file }));
  }
  return [{ raw: content, label: file }];
}

export function convertWireMock(source: WireMockSource): ConvertedImport {
  const skipped: ImportNote[] = [];
  const approximate: ImportNote[] = [];
  const mappings: Mapping[] = [];
  for (const { file, content } of source.mappings) {
    const found = mappingsOf(file, content);
    if (typeof found === 'string') {
      // One file given on its own that is not WireMock: the whole document cannot be read.
      if (source.mappings.length === 1)
        throw new MockdevError('INVALID_INPUT', `Cannot import ${file} as WireMock: ${found}`, {
          hint: 'Give a WireMock mapping ({ "request": …, "response": … }), { "mappings": [...] } or a folder with mappings/*.json',
          details: { file },
        });
      skipped.push({ name: file, message: found });
      continue;
    }
    for (const { raw, label } of found) {
      const read = readMapping(raw, label, source);
      if ('skipped' in read)
        skipped.push({ method: read.method, path: read.shown, name: read.label, message: read.skipped });
      else mappings.push(read);
    }
  }
  const endpoints = groupMappings(mappings, { approximate, skipped });
  return {
    format: 'wiremock',
    endpoints,
    resources: [],
    approximate,
    skipped,
    variables: [],
    templates: mappings.some((m) => m.answer.templating),
  };
}
