import { MockdevError } from '../../core/errors.js';
import { HTTP_METHODS } from '../../core/model/limits.js';
import type { ImportNote, Recognition } from '../converted.js';

/**
 * Reading a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/): the log, its
 * entries, each entry's request method and URL and its response. Pure: parsed JSON in.
 */

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `doc` looks like a HAR (an object with a `log` holding entries, a creator or a version), and why it cannot be read. */
export function recognizeHar(doc: unknown): Recognition {
  if (!isObj(doc) || !isObj(doc.log)) return { looksLike: false };
  const log = doc.log;
  if (!('entries' in log) && !('creator' in log) && !('version' in log)) return { looksLike: false };
  if (!Array.isArray(log.entries)) return { looksLike: true, problem: 'log.entries is not a list' };
  return { looksLike: true };
}

/** The log of a HAR; INVALID_INPUT (one line naming the field) when the document is not one. */
export function harLog(doc: unknown): { entries: unknown[]; creator?: string } {
  const seen = recognizeHar(doc);
  if (!seen.looksLike || seen.problem) {
    const why = seen.problem ?? 'it has no "log" object with "entries"';
    throw new MockdevError('INVALID_INPUT', `Not a HAR file that can be imported: ${why}`, {
      hint: 'Save the requests from the browser\'s network panel with "Save all as HAR"',
      details: { field: 'log.entries' },
    });
  }
  const log = (doc as { log: Obj }).log;
  const creator = isObj(log.creator) && typeof log.creator.name === 'string' ? log.creator.name : undefined;
  return { entries: log.entries as unknown[], ...(creator ? { creator } : {}) };
}

/** One entry of the log, read: what the import needs of its request and its response. */
export interface HarEntry {
  method: string;
  url: URL;
  response: Obj;
  /** Chromium's `_resourceType` (document, xhr, fetch, image, script, stylesheet, font, …). */
  resourceType?: string;
}

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

/**
 * Entry `i` read, or why it cannot be (a skipped note). A URL that is not http(s) (data:, blob:,
 * ws:, an extension's) is answered by its scheme alone (`scheme`), for one note per scheme.
 */
export function readEntry(raw: unknown, i: number): HarEntry | { skip: ImportNote } | { scheme: string } {
  const at = `log.entries[${i}]`;
  const skip = (message: string, extra: Partial<ImportNote> = {}) => ({
    skip: { ...extra, message: `${at}: ${message}` },
  });
  if (!isObj(raw)) return skip('is not an object');
  const request = raw.request;
  if (!isObj(request)) return skip('has no request');
  if (typeof request.url !== 'string') return skip('request.url is not text');
  if (typeof request.method !== 'string') return skip('request.method is not text');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return skip(`request.url ${JSON.stringify(request.url.slice(0, 100))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { scheme: url.protocol };
  const method = request.method.trim().toUpperCase();
  if (!METHODS.has(method))
    return skip(
      `method ${JSON.stringify(request.method)} is not one a mock can answer (${HTTP_METHODS.join(', ')})`,
      {
        path: url.pathname,
      },
    );
  if (!isObj(raw.response)) return skip('has no response', { method, path: url.pathname });
  const resourceType = typeof raw._resourceType === 'string' ? raw._resourceType : undefined;
  return { method, url, response: raw.response, ...(resourceType ? { resourceType } : {}) };
}
