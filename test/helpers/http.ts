import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** The reason phrase of the status line. */
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  /** Sent as given: Host, Origin and Content-Length included (fetch cannot set Host). */
  headers?: Record<string, string>;
  /** One body, or chunks written one after another (chunked when no Content-Length is given). */
  body?: string | Buffer | (string | Buffer)[];
}

/**
 * One request over node's http client, with full control of its headers. Resolves with the
 * answer as soon as it ends, even when the server answered before the body was sent whole.
 */
export function rawRequest(base: string, path: string, options: RawRequest = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            body,
            json,
          });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    const parts =
      options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const part of parts) {
      if (req.destroyed) break;
      req.write(part);
    }
    req.end();
  });
}

/** What came back on a socket: the status of its status line, the body, and when (ms since sent). */
export interface SocketAnswer {
  status: number;
  body: string;
  ms: number;
}

/**
 * Writes `text` as it is (a whole HTTP/1.1 request, `Connection: close`) on a socket of its own and
 * reads until the server closes it; rejects without an HTTP answer, or after `timeoutMs`.
 */
export function rawSocket(port: number, text: string, timeoutMs = 20_000): Promise<SocketAnswer> {
  const sent = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(text.slice(0, 60))}`));
    }, timeoutMs);
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const got = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(got.slice(0, 200))}`));
      const split = got.indexOf('\r\n\r\n');
      resolve({
        status: Number(status[1]),
        body: split === -1 ? '' : got.slice(split + 4),
        ms: performance.now() - sent,
      });
    });
  });
}
