/**
 * HAR 1.2 documents in the shape Chromium's DevTools writes with "Save all as HAR" (HTTP/2:
 * lower-case header names, pseudo-headers on requests, empty status text, `_resourceType`,
 * `x-unknown` for a response without a type), for the HAR import's tests.
 */

export interface HarAnswer {
  status?: number;
  headers?: [string, string][];
  mimeType?: string;
  text?: string;
  encoding?: 'base64';
  size?: number;
}

export function harEntry(
  method: string,
  url: string,
  answer: HarAnswer = {},
  resourceType = 'fetch',
): Record<string, unknown> {
  const u = new URL(url);
  const status = answer.status ?? 200;
  const mimeType = answer.mimeType ?? (status === 0 ? 'x-unknown' : 'application/json');
  return {
    _initiator: { type: 'script' },
    _priority: 'High',
    _resourceType: resourceType,
    cache: {},
    connection: '443',
    request: {
      method,
      url,
      httpVersion: 'http/2.0',
      headers: [
        { name: ':authority', value: u.host },
        { name: ':method', value: method },
        { name: ':path', value: u.pathname + u.search },
        { name: ':scheme', value: u.protocol.slice(0, -1) },
        { name: 'accept', value: '*/*' },
        { name: 'cookie', value: 'sid=secret' },
      ],
      queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: (answer.headers ?? (status ? [['content-type', `${mimeType}; charset=utf-8`]] : [])).map(
        ([name, value]) => ({ name, value }),
      ),
      cookies: [],
      content: {
        size: answer.size ?? (answer.text ?? '').length,
        mimeType,
        ...(answer.text !== undefined ? { text: answer.text } : {}),
        ...(answer.encoding ? { encoding: answer.encoding } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _transferSize: 512,
      _error: status ? null : 'net::ERR_BLOCKED_BY_CLIENT',
    },
    serverIPAddress: '203.0.113.7',
    startedDateTime: '2024-05-02T10:00:00.000Z',
    time: 42.5,
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 40, receive: 1.4 },
  };
}

export function har(entries: unknown[]): Record<string, unknown> {
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [
        {
          startedDateTime: '2024-05-02T10:00:00.000Z',
          id: 'page_1',
          title: 'https://app.example.com/',
          pageTimings: { onContentLoad: 300, onLoad: 500 },
        },
      ],
      entries,
    },
  };
}
