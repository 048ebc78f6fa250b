/**
 * Proxy endpoints and recordings over HTTP against `mockdev serve`, with a real upstream server
 * on 127.0.0.1 (port from the OS) started by the test, and the CLI in-process.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { json } from '../helpers/cli.js';
import { cliSandbox, type CliSandbox } from '../helpers/cli-inprocess.js';
import { startServe, waitUntil, type ServeHandle } from '../helpers/server.js';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  bodyLength: number;
  bodySha: string;
}

const MIB = 1024 * 1024;
const BIG = 6 * MIB;
/** Deterministic bytes of a given length (not valid UTF-8 throughout: binary on purpose). */
const bytes = (n: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const GZIPPED = gzipSync(Buffer.from('{"zipped":true}'));

/** The upstream: remembers each request; answers by path. */
async function startUpstream() {
  const seen: Seen[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const hash = createHash('sha256');
    let length = 0;
    req.on('data', (c: Buffer) => {
      hash.update(c);
      length += c.length;
    });
    req.on('end', () => {
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        bodyLength: length,
        bodySha: hash.digest('hex'),
      };
      seen.push(s);
      const path = req.url!.split('?')[0]!;
      if (path.endsWith('/slow')) {
        hanging.add(res);
        return; // never answers
      }
      if (path.endsWith('/big')) {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const data = bytes(BIG);
        let at = 0;
        const pump = () => {
          while (at < data.length) {
            const chunk = data.subarray(at, at + 64 * 1024);
            at += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return;
      }
      if (path.endsWith('/gzip')) {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
          'Content-Length': GZIPPED.length,
        });
        res.end(GZIPPED);
        return;
      }
      const body = JSON.stringify({ method: s.method, url: s.url, length, sha: s.bodySha });
      res.writeHead(path.endsWith('/created') ? 201 : 200, [
        'Content-Type',
        'application/json',
        'X-Upstream',
        'yes',
        'Set-Cookie',
        'a=1',
        'Set-Cookie',
        'b=2',
        'Connection',
        'X-Hop-Secret',
        'X-Hop-Secret',
        'hidden',
        'Proxy-Thing',
        'x',
        'Content-Length',
        String(Buffer.byteLength(body)),
      ]);
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    last: () => seen[seen.length - 1]!,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

interface Reply {
  status: number;
  rawHeaders: string[];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with node:http (no decompression), bounded in time. */
function send(
  url: string,
  init: { method?: string; headers?: Record<string, string> | string[]; body?: Buffer | string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, timeout: 20_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            rawHeaders: res.rawHeaders,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in time`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

const header = (raw: string[], name: string) => {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) out.push(raw[i + 1]!);
  return out;
};

interface RecordingJson {
  id: string;
  endpointId: string;
  timestamp: string;
  durationMs: number;
  request: {
    method: string;
    path: string;
    query: Record<string, string>;
    headers: Record<string, string>;
    body: string | null;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    body: string | null;
    decodedFrom: string | null;
  };
}

describe('proxy endpoints and recordings (mockdev serve)', () => {
  const sandbox: CliSandbox = cliSandbox({ after: (fn) => after(fn) }, 'mockdev-proxy-');
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let serve: ServeHandle;
  let url: string;
  const ids: Record<string, string> = {};

  before(async () => {
    upstream = await startUpstream();
    sandbox.defer(() => upstream.close());
    const up = `http://127.0.0.1:${upstream.port}`;
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const { cli } = sandbox;
    assert.equal((await cli(['project', 'create', 'px', '-p', '4010'])).code, 0);
    const add = async (key: string, args: string[]) => {
      const r = await cli(['endpoint', 'add', 'px', '--json', ...args]);
      assert.equal(r.code, 0, r.stderr);
      ids[key] = json<{ id: string }>(r).id;
    };
    await add('getApi', ['-n', 'api-get', '-p', '/api/*', '--proxy', `${up}/base`, '--record']);
    await add('postApi', ['-n', 'api-post', '-m', 'POST', '-p', '/api/*', '--proxy', `${up}/base`]);
    await add('local', ['-n', 'local', '-p', '/api/local', '-b', '{"local":true}']);
    await add('put', ['-n', 'put-user', '-m', 'PUT', '-p', '/users/:id', '--proxy', up, '--record']);
    await add('down', ['-n', 'down', '-p', '/down', '--proxy', dead]);
    await add('slow', ['-n', 'slow', '-p', '/slow', '--proxy', up, '--proxy-timeout', '300']);
    serve = await startServe(['px'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => serve.stop());
    url = serve.url;
  });

  it('forwards method, path (wildcard rest after the base path), query, headers and body', async () => {
    const r = await send(`${url}/api/orders/7/items?x=1&y=a%20b`, {
      headers: [
        // Given as a list, node adds no Host header of its own.
        'Host',
        new URL(url).host,
        'X-Custom',
        'kept',
        'Connection',
        'keep-alive, X-Drop-Me',
        'X-Drop-Me',
        'gone',
        'Proxy-Authorization',
        'Basic abc',
        'X-Forwarded-For',
        '10.1.2.3',
      ],
    });
    assert.equal(r.status, 200, r.body.toString());
    const seen = upstream.last();
    assert.equal(seen.method, 'GET');
    assert.equal(seen.url, '/base/orders/7/items?x=1&y=a%20b');
    assert.deepEqual(header(seen.rawHeaders, 'x-custom'), ['kept']);
    assert.deepEqual(header(seen.rawHeaders, 'x-drop-me'), []);
    assert.deepEqual(header(seen.rawHeaders, 'proxy-authorization'), []);
    assert.deepEqual(header(seen.rawHeaders, 'host'), [`127.0.0.1:${upstream.port}`]);
    assert.deepEqual(header(seen.rawHeaders, 'x-forwarded-for'), ['10.1.2.3, 127.0.0.1']);
    assert.deepEqual(header(seen.rawHeaders, 'x-forwarded-host'), [new URL(url).host]);
    assert.deepEqual(header(seen.rawHeaders, 'x-forwarded-proto'), ['http']);
    // The answer: status, end-to-end headers (repeated ones kept), body; hop-by-hop ones dropped.
    assert.deepEqual(header(r.rawHeaders, 'x-upstream'), ['yes']);
    assert.deepEqual(header(r.rawHeaders, 'set-cookie'), ['a=1', 'b=2']);
    assert.deepEqual(header(r.rawHeaders, 'x-hop-secret'), []);
    assert.deepEqual(header(r.rawHeaders, 'proxy-thing'), []);
    assert.equal(JSON.parse(r.body.toString()).url, '/base/orders/7/items?x=1&y=a%20b');
  });

  it('forwards a POST body and the upstream status; a literal route beats the wildcard', async () => {
    const r = await send(`${url}/api/created`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"n"}',
    });
    assert.equal(r.status, 201);
    assert.equal(upstream.last().method, 'POST');
    assert.equal(upstream.last().url, '/base/created');
    assert.equal(upstream.last().bodySha, sha(Buffer.from('{"name":"n"}')));
    const local = await send(`${url}/api/local`);
    assert.equal(local.status, 200);
    assert.equal(local.body.toString(), '{"local":true}');
    const put = await send(`${url}/users/42?v=1`, { method: 'PUT', body: 'x' });
    assert.equal(put.status, 200);
    assert.equal(upstream.last().url, '/users/42?v=1', 'a route without wildcard forwards the whole path');
  });

  it('streams a large body both ways', async () => {
    const data = bytes(BIG);
    const up = await send(`${url}/api/upload`, { method: 'POST', body: data });
    assert.equal(up.status, 200);
    assert.equal(upstream.last().bodyLength, BIG);
    assert.equal(upstream.last().bodySha, sha(data));
    const down = await send(`${url}/api/big`);
    assert.equal(down.status, 200);
    assert.equal(down.body.length, BIG);
    assert.equal(sha(down.body), sha(data));
  });

  it('passes gzip through untouched', async () => {
    const r = await send(`${url}/api/gzip`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.deepEqual(r.body, GZIPPED);
    assert.equal(gunzipSync(r.body).toString(), '{"zipped":true}');
  });

  it('answers 502 when the target is unreachable and 504 when it is too slow', async () => {
    const down = await send(`${url}/down`);
    assert.equal(down.status, 502);
    assert.match(String(down.headers['content-type']), /application\/problem\+json/);
    const p = JSON.parse(down.body.toString());
    assert.match(p.detail, /could not be reached: ECONNREFUSED/);
    assert.match(p.target, /^http:\/\/127\.0\.0\.1:\d+$/);
    const started = Date.now();
    const slow = await send(`${url}/slow`);
    assert.equal(slow.status, 504);
    assert.ok(Date.now() - started < 10_000);
    const q = JSON.parse(slow.body.toString());
    assert.match(q.detail, /did not answer within 300 ms/);
    assert.equal(q.target, `http://127.0.0.1:${upstream.port}`);
  });

  it('logs proxied requests with the upstream status', async () => {
    await waitUntil(async () => {
      const r = await sandbox.cli(['requests', 'list', 'px', '--json']);
      const recs = json<{ path: string; status: number }[]>(r);
      return (
        recs.some((x) => x.path === '/api/created' && x.status === 201) && recs.some((x) => x.status === 504)
      );
    }, 'the proxied requests in the log');
  });

  it('records only with record on; recording list, count, delete, clear', async () => {
    const { cli } = sandbox;
    const list = async (ref: string) =>
      json<RecordingJson[]>(await cli(['recording', 'list', ref, '--json']));
    // GET /api/* records (4 requests so far: orders, local went to the mock, big, gzip), POST does not.
    await waitUntil(async () => {
      const got = await list(ids.getApi!);
      if (got.length === 3) return true;
      throw new Error(`${got.map((r) => r.request.path).join(', ')}; server stderr: ${serve.stderr()}`);
    }, 'three GET recordings');
    assert.equal((await list('px/api-post')).length, 0, 'POST /api/* has record off');
    const recs = await list(`px/${ids.getApi}`);
    const gz = recs.find((r) => r.request.path === '/api/gzip')!;
    assert.equal(gz.response.body, '{"zipped":true}', 'a gzip body is stored decoded');
    assert.equal(gz.response.decodedFrom, 'gzip');
    const orders = recs.find((r) => r.request.path === '/api/orders/7/items')!;
    assert.deepEqual(orders.request.query, { x: '1', y: 'a b' });
    assert.equal(orders.request.headers['X-Custom'], 'kept');
    assert.equal(orders.response.status, 200);
    assert.equal(orders.response.headers['X-Upstream'], 'yes');
    await waitUntil(async () => (await list(ids.put!)).length === 1, 'the PUT recording');
    assert.equal((await list(ids.put!))[0]!.request.body, 'x');

    const count = await cli(['recording', 'count', 'px']);
    assert.equal(count.code, 0, count.stderr);
    assert.match(count.stdout, /api-get\s.*3/);
    assert.match(count.stdout, /put-user\s.*1/);
    assert.match(count.stdout, /total\s.*4/i);

    const del = await cli(['recording', 'delete', orders.id]);
    assert.equal(del.code, 0, del.stderr);
    assert.equal((await list(ids.getApi!)).length, 2);
    const again = await cli(['recording', 'delete', orders.id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /Recording "\d+" not found/);

    const refused = await cli(['recording', 'clear', 'px/put-user']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--force/);
    const cleared = await cli(['recording', 'clear', 'px/put-user', '-f']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stdout, /Deleted 1 recording/);
    assert.equal((await list(ids.put!)).length, 0);

    const unknown = await cli(['recording', 'list', 'px/nope']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Endpoint "nope" not found/);
  });

  it('to-mock turns a recording into a mock endpoint that answers with the upstream stopped', async () => {
    const { cli } = sandbox;
    const recs = json<RecordingJson[]>(await cli(['recording', 'list', ids.getApi!, '--json']));
    const gz = recs.find((r) => r.request.path === '/api/gzip')!;
    const made = await cli(['recording', 'to-mock', gz.id, '--json']);
    assert.equal(made.code, 0, made.stderr);
    const ep = json<{
      method: string;
      path: string;
      status: number;
      body: string;
      headers: Record<string, string>;
    }>(made);
    assert.equal(ep.method, 'GET');
    assert.equal(ep.path, '/api/gzip');
    assert.equal(ep.body, '{"zipped":true}');
    assert.equal(
      Object.keys(ep.headers).some((k) => /content-(encoding|length)/i.test(k)),
      false,
    );
    const twice = await cli(['recording', 'to-mock', gz.id]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /clashes with endpoint/);
    const asVariation = await cli([
      'recording',
      'to-mock',
      gz.id,
      '--as-variation',
      '-n',
      'recorded',
      '--json',
    ]);
    assert.equal(asVariation.code, 0, asVariation.stderr);
    const withVar = json<{ variations: { name: string; body: string }[] }>(asVariation);
    assert.equal(withVar.variations.at(-1)!.name, 'recorded');

    await upstream.close();
    await waitUntil(async () => {
      const r = await send(`${url}/api/gzip`);
      return (
        r.status === 200 &&
        r.body.toString() === '{"zipped":true}' &&
        r.headers['content-encoding'] === undefined
      );
    }, 'the mock answering with the upstream stopped');
    const stillProxied = await send(`${url}/api/orders`);
    assert.equal(stillProxied.status, 502, 'the rest of the subtree is still proxied');
  });
});
