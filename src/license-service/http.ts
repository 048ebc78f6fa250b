/**
 * The license service over HTTP (docs/license.md, "The license service"): the DECISIONS
 * protocol (`POST /v1/activations`, `GET /v1/activations?email=`), `POST /v1/trials`, the
 * confirmation link (`GET /v1/confirm?token=`, a page for people), `GET /v1/public-key` and
 * `GET /health`. Answers are JSON (`{ "error": "…" }` for a refusal) but for the page and the key.
 *
 * One log line per request: time, method, path without its query (the query holds the link's
 * token or an address), status, duration. No line holds a key, a token or SMTP_URL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { LicenseDesk, Refusal, type Confirmation } from './desk.js';
import { MailError } from './mail.js';
import { confirmationPage } from './pages.js';

/** The largest request body read, in bytes: `{ "email": … }` is far smaller. */
const MAX_BODY_BYTES = 16 * 1024;

export interface HttpOptions {
  desk: LicenseDesk;
  publicKeyPem: string;
  /** Where log lines go (stdout in the service). */
  log: (line: string) => void;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Read on without keeping it, so that the answer reaches the client.
        req.removeAllListeners('data').removeAllListeners('end').resume();
        reject(new HttpError(413, `The body is over ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          throw new Error('not an object');
        resolve(value as Record<string, unknown>);
      } catch {
        reject(new HttpError(400, 'The body must be a JSON object: { "email": "you@example.com" }'));
      }
    });
  });
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
};

const CONFIRM_STATUS: Record<Confirmation['outcome'], number> = {
  confirmed: 200,
  already: 200,
  expired: 410,
  unknown: 404,
  'had-trial': 409,
  'no-license': 403,
};

/** The routes: path → method → handler. */
function routes(
  o: HttpOptions,
): Record<
  string,
  Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void>
> {
  const { desk } = o;
  return {
    '/health': { GET: (_req, res) => json(res, 200, { status: 'ok' }) },
    '/v1/public-key': {
      GET: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-pem-file' });
        res.end(o.publicKeyPem);
      },
    },
    '/v1/activations': {
      POST: async (req, res) => {
        await desk.requestActivation((await readJson(req)).email);
        json(res, 202, { status: 'sent' });
      },
      GET: (_req, res, url) => {
        const answer = desk.check(url.searchParams.get('email'));
        if (answer) json(res, 200, answer);
        else json(res, 404, { error: 'Nothing was asked for this address, or its link expired: ask again' });
      },
    },
    '/v1/trials': {
      POST: async (req, res) => {
        await desk.requestTrial((await readJson(req)).email);
        json(res, 202, { status: 'sent' });
      },
    },
    '/v1/confirm': {
      GET: (_req, res, url) => {
        const outcome = desk.confirm(url.searchParams.get('token'));
        res.writeHead(CONFIRM_STATUS[outcome.outcome], {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        res.end(confirmationPage(outcome));
      },
    },
  };
}

/** The service's request handler, as a server not yet listening. */
export function licenseServer(o: HttpOptions): Server {
  const table = routes(o);
  return createServer((req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://service');
    res.on('finish', () =>
      o.log(
        `${new Date().toISOString()} ${req.method} ${url.pathname} ${res.statusCode} ${Date.now() - started} ms`,
      ),
    );
    const methods = table[url.pathname];
    const handle = methods?.[req.method ?? ''];
    if (!methods) return json(res, 404, { error: 'Not found' });
    if (!handle)
      return json(res, 405, { error: 'Method not allowed' }, { allow: Object.keys(methods).join(', ') });
    Promise.resolve()
      .then(() => handle(req, res, url))
      .catch((e: unknown) => {
        if (e instanceof Refusal || e instanceof HttpError) return json(res, e.status, { error: e.message });
        if (e instanceof MailError) {
          o.log(`${new Date().toISOString()} ${e.message}`);
          return json(res, 502, { error: 'The e-mail could not be sent: try again later' });
        }
        // Our own code or SQLite: their messages hold no secret; the request's body is not quoted.
        o.log(
          `${new Date().toISOString()} internal error on ${req.method} ${url.pathname}: ${(e as Error).message}`,
        );
        if (!res.headersSent) json(res, 500, { error: 'Internal error' });
        else res.destroy();
      });
  });
}
