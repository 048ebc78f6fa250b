import type { NewRequestRecord } from '../../src/store/request-log.js';

/** A record as a server hands it to the request log: GET /r/N?n=N of `projectId`, answered 200. */
export const record = (
  projectId: string,
  n: number,
  extra: Partial<NewRequestRecord> = {},
): NewRequestRecord => ({
  projectId,
  endpointId: 'e1',
  ts: 1_700_000_000_000 + n,
  method: 'GET',
  url: `/r/${n}?n=${n}`,
  rawHeaders: ['Host', 'x', 'Accept', 'a', 'Accept', 'b'],
  body: null,
  status: 200,
  durationMs: 0.5,
  truncated: false,
  resHeadersJson: '{"Content-Type":"application/json"}',
  resBody: Buffer.from('{}'),
  ...extra,
});
