import type { ContractVerdict } from '../../core/model/contract.js';
import type { RequestProtocol, RequestRecord } from '../../core/model/request.js';

/**
 * The row form of the request log's records: the columns of the `requests` table, and the
 * conversion to the RequestRecord shape (done only when reading).
 */

/**
 * The values of one `requests` row in INSERT_COLUMNS order: project_id, endpoint_id, ts,
 * method, target, headers, body, status, duration_ms, truncated, res_id, res_headers, res_body,
 * variation_id, variation_name, protocol, client_address, delay_ms, fault.
 */
export type StoredRow = [
  string,
  string | null,
  number,
  string,
  string,
  string,
  Buffer | null,
  number,
  number,
  number,
  number | null,
  string | null,
  Buffer | null,
  string | null,
  string | null,
  RequestProtocol | null,
  string | null,
  number | null,
  string | null,
];

export const INSERT_COLUMNS = 19;
export const INSERT_COLUMN_NAMES =
  'project_id, endpoint_id, ts, method, target, headers, body, status, duration_ms, truncated, res_id, res_headers, res_body, variation_id, variation_name, protocol, client_address, delay_ms, fault';

export interface Row {
  id: number;
  project_id: string;
  endpoint_id: string | null;
  ts: number;
  method: string;
  target: string;
  headers: string;
  body: Buffer | null;
  status: number;
  duration_ms: number;
  starred: number;
  truncated: number;
  res_headers: string | null;
  res_body: Buffer | string | null;
  variation_id: string | null;
  variation_name: string | null;
  protocol: string | null;
  client_address: string | null;
  contract: string | null;
  delay_ms: number | null;
  fault: string | null;
}

export const SELECT_RECORD = `SELECT r.id, r.project_id, r.endpoint_id, r.ts, r.method, r.target, r.headers, r.body,
  r.status, r.duration_ms, r.starred, r.truncated, r.variation_id, r.variation_name,
  r.protocol, r.client_address, r.contract, r.delay_ms, r.fault,
  CASE WHEN r.res_id IS NULL THEN r.res_headers ELSE s.headers END AS res_headers,
  CASE WHEN r.res_id IS NULL THEN r.res_body ELSE s.body END AS res_body
  FROM requests r LEFT JOIN responses s ON s.id = r.res_id`;

const toText = (b: Buffer | string | null): string =>
  b === null ? '' : typeof b === 'string' ? b : b.toString('utf8');

/** `a=1&b=2&a=3` -> { a: ['1', '3'], b: '2' } */
export function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!query) return out;
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

/** Raw header pairs -> object keyed by the name as sent; repeated headers joined with ", ". */
export function headersObject(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!;
    out[k] = out[k] === undefined ? raw[i + 1]! : `${out[k]}, ${raw[i + 1]!}`;
  }
  return out;
}

/**
 * Raw headers are stored as their lines joined with "\n": names and values cannot contain a
 * line break (node refuses such requests), so this is lossless and cheaper than JSON.
 */
const decodeHeaders = (text: string): string[] => (text === '' ? [] : text.split('\n'));

/** A stored verdict; undefined when the record was not checked (or its verdict cannot be read). */
function toVerdict(text: string | null): ContractVerdict | undefined {
  if (text === null) return undefined;
  try {
    const verdict = JSON.parse(text) as ContractVerdict;
    return typeof verdict === 'object' && verdict !== null && Array.isArray(verdict.violations)
      ? verdict
      : undefined;
  } catch {
    return undefined; // a broken row keeps the rest readable
  }
}

export function toRecord(row: Row): RequestRecord {
  let resHeaders: Record<string, string> = {};
  try {
    resHeaders = JSON.parse(row.res_headers ?? '{}') as Record<string, string>;
  } catch {
    /* a broken row keeps the rest readable */
  }
  const q = row.target.indexOf('?');
  const record: RequestRecord = {
    id: String(row.id),
    projectId: row.project_id,
    endpointId: row.endpoint_id,
    timestamp: new Date(row.ts).toISOString(),
    method: row.method,
    path: q === -1 ? row.target : row.target.slice(0, q),
    query: parseQuery(q === -1 ? '' : row.target.slice(q + 1)),
    headers: headersObject(decodeHeaders(row.headers)),
    body: toText(row.body),
    status: row.status,
    durationMs: Math.round(row.duration_ms * 1000) / 1000,
    starred: row.starred === 1,
    truncated: row.truncated === 1,
    response: { status: row.status, headers: resHeaders, body: toText(row.res_body) },
    variation: row.variation_id === null ? null : { id: row.variation_id, name: row.variation_name ?? '' },
    protocol: row.protocol === 'h2' || row.protocol === 'http/1.1' ? row.protocol : null,
    clientAddress: row.client_address,
  };
  if (row.delay_ms !== null && row.delay_ms > 0) record.delayMs = row.delay_ms;
  if (row.fault !== null) record.fault = row.fault;
  const contract = toVerdict(row.contract);
  if (contract) record.contract = contract;
  return record;
}

/** Request ids are the decimal row ids; anything else cannot exist. */
export const toRowId = (id: string): number | undefined =>
  /^[1-9]\d{0,15}$/.test(id.trim()) ? Number(id.trim()) : undefined;
