import type { NewRequestRecord, StoredRow } from './request-log-rows.js';

/**
 * The serialisation of a pending batch: the records a server wrote in one go, stored as ONE
 * row of the `pending` table and expanded into `requests` rows later (by the next reader, or
 * by the server when it is idle or stopping).
 *
 * A batch is a JSON array with one array per record:
 *   [endpointId, ts, method, target, rawHeaders[], body, status, durationMs, truncated,
 *    resId, resHeadersJson, resBody]
 * Bodies are latin1 strings (one character per byte: lossless, and far cheaper than base64);
 * resId is set when the response is stored once in `responses`, and then the response
 * headers and body are null.
 */
type PendingEntry = [
  string | null,
  number,
  string,
  string,
  string[],
  string | null,
  number,
  number,
  0 | 1,
  number | null,
  string | null,
  string | null,
];

const latin1 = (b: Buffer | string | null): string | null =>
  b === null
    ? null
    : typeof b === 'string'
      ? Buffer.from(b, 'utf8').toString('latin1')
      : b.toString('latin1');

/** Serialises records of one project; `resIdOf` gives the stored response of a shared one. */
export function encodeBatch(
  records: readonly NewRequestRecord[],
  resIdOf: (r: NewRequestRecord) => number | null,
): string {
  const entries = new Array<PendingEntry>(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const resId = resIdOf(r);
    entries[i] = [
      r.endpointId,
      r.ts,
      r.method,
      r.url,
      r.rawHeaders,
      r.body === null ? null : r.body.toString('latin1'),
      r.status,
      r.durationMs,
      r.truncated ? 1 : 0,
      resId,
      resId === null ? r.resHeadersJson : null,
      resId === null ? latin1(r.resBody) : null,
    ];
  }
  return JSON.stringify(entries);
}

/** The `requests` rows of a pending batch, in the order they were written. */
export function decodeBatch(projectId: string, data: string): StoredRow[] {
  const entries = JSON.parse(data) as PendingEntry[];
  return entries.map((e) => [
    projectId,
    e[0],
    e[1],
    e[2],
    e[3],
    e[4].join('\n'),
    e[5] === null ? null : Buffer.from(e[5], 'latin1'),
    e[6],
    e[7],
    e[8],
    e[9],
    e[10],
    e[11] === null ? null : Buffer.from(e[11], 'latin1'),
  ]);
}
