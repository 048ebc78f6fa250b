import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  documentServer,
  type DocumentRoute,
  type DocumentServer,
} from '../../../test/helpers/document-server.js';
import { maskDocumentUrl } from '../../core/contract/document-url.js';
import { MockdevError } from '../../core/errors.js';
import { HttpDocumentFetcher } from './document-fetch.js';

const DOC = 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths: {}\n';

/** The routes of the cases: a document, errors, large and slow answers, redirects. */
const ROUTES: Record<string, DocumentRoute> = {
  '/doc.yaml': (_req, res) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(DOC),
  '/missing': (_req, res) => res.writeHead(404).end('no'),
  '/private': (req, res) =>
    req.headers.authorization === `Basic ${Buffer.from('ann:s3cret pass').toString('base64')}`
      ? res.writeHead(200).end(DOC)
      : res.writeHead(401).end(),
  '/broken': (_req, res) => res.writeHead(500).end('oops'),
  '/big-declared': (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)),
  '/big-streamed': (_req, res) => {
    res.writeHead(200); // chunked: no length to refuse early
    for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
    res.end();
  },
  '/slow-headers': () => undefined, // never answers
  '/slow-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/yaml' });
    res.write('openapi: 3.0.3\n'); // then nothing more
  },
  '/binary': (_req, res) =>
    res.writeHead(200).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
  '/hop1': (_req, res) => res.writeHead(302, { location: '/hop2' }).end(),
  '/hop2': (_req, res, base) => res.writeHead(301, { location: `${base}/doc.yaml` }).end(),
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
  '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
};

const refused = async (p: Promise<unknown>, code: string, message: RegExp) => {
  const e = await p.then(
    () => assert.fail('expected a refusal'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof MockdevError, String(e));
  assert.equal(e.code, code, e.message);
  assert.match(e.describe(), message);
  assert.ok(!e.describe().includes('\n'), 'one line');
};

describe('HttpDocumentFetcher', () => {
  const fetcher = new HttpDocumentFetcher();
  let http: DocumentServer;
  before(async () => {
    http = await documentServer(ROUTES);
  });
  after(() => http.close());

  it('fetches a document: its text, the URL that answered and the content type', async () => {
    const doc = await fetcher.fetch(`${http.base}/doc.yaml`);
    assert.equal(doc.text, DOC);
    assert.equal(doc.url, `${http.base}/doc.yaml`);
    assert.equal(doc.contentType, 'application/yaml');
  });

  it('follows redirects (relative and absolute) and says where the document came from', async () => {
    const doc = await fetcher.fetch(`${http.base}/hop1`);
    assert.equal(doc.text, DOC);
    assert.equal(doc.url, `${http.base}/doc.yaml`);
  });

  it('gives up after the redirect limit, and never follows one off http(s)', async () => {
    await refused(
      fetcher.fetch(`${http.base}/hop1`, { maxRedirects: 1 }),
      'INVALID_INPUT',
      /more than 1 redirects/,
    );
    await refused(fetcher.fetch(`${http.base}/loop`), 'INVALID_INPUT', /\/loop: more than 5 redirects/);
    await refused(
      fetcher.fetch(`${http.base}/to-file`),
      'INVALID_INPUT',
      /redirects to file:\/\/\/etc\/passwd, which is not an http\(s\) URL/,
    );
  });

  it('refuses a status that is not 2xx, naming the URL and the status', async () => {
    await refused(
      fetcher.fetch(`${http.base}/missing`),
      'IO_ERROR',
      new RegExp(`^Could not fetch ${http.base}/missing: the server answered HTTP 404\\. Check the URL`),
    );
    await refused(fetcher.fetch(`${http.base}/broken`), 'IO_ERROR', /answered HTTP 500\. Try again later/);
  });

  it('refuses a document over the size cap, declared or streamed', async () => {
    await refused(
      fetcher.fetch(`${http.base}/big-declared`, { maxBytes: 4096 }),
      'INVALID_INPUT',
      /big-declared: the document is over 4 KiB/,
    );
    await refused(
      fetcher.fetch(`${http.base}/big-streamed`, { maxBytes: 4096 }),
      'INVALID_INPUT',
      /big-streamed: the document is over 4 KiB/,
    );
    assert.equal(
      (await fetcher.fetch(`${http.base}/big-streamed`, { maxBytes: 10_000 })).text.length,
      10_000,
    );
  });

  it('gives up on a server that does not answer, or stops sending, within the time limit', async () => {
    await refused(
      fetcher.fetch(`${http.base}/slow-headers`, { timeoutMs: 300 }),
      'IO_ERROR',
      /slow-headers: no answer within 0\.3 s/,
    );
    await refused(
      fetcher.fetch(`${http.base}/slow-body`, { timeoutMs: 300 }),
      'IO_ERROR',
      /slow-body: no answer within 0\.3 s/,
    );
  });

  it('refuses an answer that is not text, and a host that cannot be reached', async () => {
    await refused(
      fetcher.fetch(`${http.base}/binary`),
      'INVALID_INPUT',
      /the answer is not text: it looks like a PNG image/,
    );
    const closed = await documentServer(ROUTES);
    const url = closed.url('/doc.yaml');
    await closed.close();
    await refused(fetcher.fetch(url), 'IO_ERROR', /could not be reached \(the connection was refused\)/);
  });

  it('takes http and https only, and masks secrets in what it says', async () => {
    await refused(fetcher.fetch('ftp://example.com/a.yaml'), 'INVALID_ARGUMENT', /only http and https/);
    await refused(fetcher.fetch('not a url'), 'INVALID_ARGUMENT', /Invalid URL not a url/);
    const url = `http://ann:s3cret-pass@127.0.0.1:${new URL(http.base).port}/missing?api_key=k3y-value&page=2`;
    const e = await fetcher.fetch(url).catch((err: MockdevError) => err);
    assert.ok(e instanceof MockdevError);
    assert.ok(!/s3cret-pass|k3y-value/.test(e.describe()), e.describe());
    assert.match(e.describe(), /ann:\*{8}@.*api_key=\*{8}&page=2/);
  });

  it('sends the credentials of the URL as Basic authentication', async () => {
    const port = new URL(http.base).port;
    assert.equal((await fetcher.fetch(`http://ann:s3cret%20pass@127.0.0.1:${port}/private`)).text, DOC);
    await refused(fetcher.fetch(`http://127.0.0.1:${port}/private`), 'IO_ERROR', /HTTP 401/);
  });

  it('masks passwords and credential-like query values, keeping the rest of a URL', () => {
    assert.equal(
      maskDocumentUrl('https://a:b@x.io/o.yaml?token=t&v=1'),
      'https://a:********@x.io/o.yaml?token=********&v=1',
    );
    assert.equal(maskDocumentUrl('https://x.io/o.yaml?v=1'), 'https://x.io/o.yaml?v=1');
    assert.equal(maskDocumentUrl('//u:p@x'), '//u:********@x');
  });
});
