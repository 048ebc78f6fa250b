import type { LoggedResponse, NewRequestRecord } from '../../src/core/ports.js';

/** A response as the log stores it; `shared` ones stand for an endpoint's precompiled response. */
export const loggedResponse = (
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
  body: string | Buffer | null = '{}',
  shared = true,
): LoggedResponse => ({
  headersJson: JSON.stringify(headers),
  body: body === null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body),
  truncated: false,
  shared,
});

const DEFAULT_RESPONSE = loggedResponse();

/** A record as a server hands it to the request log: GET /r/N?n=N, answered 200. */
export const record = (n: number, extra: Partial<NewRequestRecord> = {}): NewRequestRecord => ({
  endpointId: 'e1',
  ts: 1_700_000_000_000 + n,
  method: 'GET',
  url: `/r/${n}?n=${n}`,
  rawHeaders: ['Host', 'x', 'Accept', 'a', 'Accept', 'b'],
  body: null,
  truncated: false,
  status: 200,
  durationMs: 0.5,
  response: DEFAULT_RESPONSE,
  remoteAddress: '127.0.0.1',
  ...extra,
});
