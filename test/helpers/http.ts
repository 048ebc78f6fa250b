import { request } from 'node:http';

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
