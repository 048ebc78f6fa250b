import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { tempContext } from '../helpers/context.js';
import { curl, makeCertificate, type TestCertificate } from '../helpers/https.js';
import { waitUntil, within } from '../helpers/wait.js';

/** A project served over HTTPS with a certificate of the test's own (startServer in-process). */
async function httpsServer(
  t: { after(fn: () => void | Promise<void>): void },
  endpoints: Parameters<typeof addEndpoint>[2][],
): Promise<{
  server: RunningServer;
  cert: TestCertificate;
  projectId: string;
  ctx: ReturnType<typeof tempContext>;
  received: string[];
}> {
  const ctx = tempContext(t, 'mockdev-https-');
  const { dir, cleanup } = tempDir('mockdev-https-cert-');
  t.after(cleanup);
  const cert = await makeCertificate(dir);
  const project = await createProject(ctx, { name: 'secure' });
  for (const e of endpoints) await addEndpoint(ctx, 'secure', e);
  const received: string[] = [];
  const server = await startServer(ctx, {
    project: 'secure',
    port: 0,
    tls: { cert: cert.cert, key: cert.key },
    logger: { received: (m, url) => received.push(`${m} ${url}`) },
  });
  t.after(() => server.stop());
  return { server, cert, projectId: project.id, ctx, received };
}

/** An HTTP/2 request on a session: status, headers and body. */
function h2Get(
  session: ClientHttp2Session,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path });
    let body = '';
    let headers: Record<string, unknown> = {};
    stream.setEncoding('utf8');
    stream.on('response', (h) => (headers = h));
    stream.on('data', (d: string) => (body += d));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
    stream.on('error', reject);
  });
}

describe('serving HTTPS (HTTP/1.1 and HTTP/2 on one port)', () => {
  it('answers curl --cacert over HTTP/1.1 and --http2, with the same endpoints', async (t) => {
    const { server, cert } = await httpsServer(t, [{ path: '/hello', body: '{"hello":"world"}' }]);
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.record.tls, true);
    const url = `https://localhost:${server.port}/hello`;
    const h1 = await curl(url, { ca: cert.certFile });
    assert.deepEqual([h1.status, h1.httpVersion, h1.body], [200, '1.1', '{"hello":"world"}']);
    const h2 = await curl(url, { ca: cert.certFile, http2: true });
    assert.deepEqual([h2.status, h2.httpVersion, h2.body], [200, '2', '{"hello":"world"}']);
    const missing = await curl(`https://localhost:${server.port}/nope`, { ca: cert.certFile, http2: true });
    assert.equal(missing.status, 404);
    assert.match(missing.body, /NO_MATCHING_ENDPOINT/);
  });

  it('sends a status text over HTTP/1.1 only, and leaves connection headers out of HTTP/2 responses', async (t) => {
    const { server, cert } = await httpsServer(t, [
      {
        path: '/made',
        status: 201,
        statusText: 'Made it',
        headers: { Connection: 'close', 'Keep-Alive': 'timeout=5', 'X-Kept': 'yes' },
        body: 'made',
      },
    ]);
    const url = `https://localhost:${server.port}/made`;
    const h1 = await curl(url, { ca: cert.certFile });
    assert.equal(h1.status, 201);
    assert.match(h1.head, /^HTTP\/1\.1 201 Made it/);
    const h2 = await curl(url, { ca: cert.certFile, http2: true });
    assert.deepEqual([h2.status, h2.httpVersion, h2.body], [201, '2', 'made']);
    assert.match(h2.head, /x-kept: yes/i);
    assert.doesNotMatch(h2.head, /^(connection|keep-alive):/im);
  });

  it('shows templates an HTTP/2 request as HTTP/1.1 has it: a host, no pseudo-headers', async (t) => {
    const { server, cert } = await httpsServer(t, [
      { path: '/echo', body: 'host={{headers.host}} path={{headers.:path}} method={{request.method}}' },
    ]);
    const h2 = await curl(`https://localhost:${server.port}/echo`, { ca: cert.certFile, http2: true });
    assert.equal(h2.httpVersion, '2');
    assert.equal(h2.body, `host=localhost:${server.port} path= method=GET`);
  });

  it('stops with HTTP/2 sessions open: a pending request is answered, the sessions end, no hang', async (t) => {
    const { server, cert, received } = await httpsServer(t, [
      { path: '/quick', body: 'quick' },
      { path: '/slow', delay: 60_000, body: 'slow' },
    ]);
    const session = connect(`https://localhost:${server.port}`, { ca: cert.cert });
    session.on('error', () => undefined);
    t.after(() => void session.destroy());
    const idle = connect(`https://localhost:${server.port}`, { ca: cert.cert });
    idle.on('error', () => undefined);
    t.after(() => void idle.destroy());
    assert.equal((await h2Get(session, '/quick')).body, 'quick');
    assert.equal((await h2Get(idle, '/quick')).body, 'quick');
    const slow = h2Get(session, '/slow');
    await waitUntil(() => received.includes('GET /slow'), 'the slow request to arrive');
    const closed = new Promise((r) => idle.once('close', r));
    await within(server.stop(), 10_000, 'the server to stop with HTTP/2 sessions open');
    assert.deepEqual(
      await within(
        slow.then((r) => [r.status, r.body]),
        10_000,
        'the pending request',
      ),
      [200, 'slow'],
    );
    await within(closed, 10_000, 'the idle session to be closed');
  });

  it('logs each request with its protocol and its caller (a forwarded caller from the loopback)', async (t) => {
    const { server, cert, ctx, projectId } = await httpsServer(t, [{ path: '/who', body: 'ok' }]);
    const url = `https://localhost:${server.port}/who`;
    await curl(`${url}?n=1`, { ca: cert.certFile });
    await curl(`${url}?n=2`, { ca: cert.certFile, http2: true });
    await curl(`${url}?n=3`, {
      ca: cert.certFile,
      http2: true,
      headers: ['X-Forwarded-For: 198.51.100.7, 10.0.0.2'],
    });
    await curl(`${url}?n=4`, {
      ca: cert.certFile,
      headers: ['CF-Connecting-IP: 203.0.113.50', 'X-Forwarded-For: 198.51.100.7'],
    });
    await server.stop();
    const records = await ctx.requests.list(projectId, parseRequestFilters({}));
    const byN = Object.fromEntries(records.map((r) => [r.query.n, [r.protocol, r.clientAddress]]));
    assert.deepEqual(byN, {
      1: ['http/1.1', '127.0.0.1'],
      2: ['h2', '127.0.0.1'],
      3: ['h2', '198.51.100.7'],
      4: ['http/1.1', '203.0.113.50'],
    });
    const h2 = records.find((r) => r.query.n === '3')!;
    assert.deepEqual(
      Object.keys(h2.headers).filter((k) => k.startsWith(':')),
      [],
      'no pseudo-headers logged',
    );
    assert.equal(h2.headers.host, `localhost:${server.port}`);
    const shown = await runCliInProcess(['requests', 'show', h2.id], { dataDir: ctx.dataDir });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /protocol:\s+h2/);
    assert.match(shown.stdout, /client:\s+198\.51\.100\.7/);
    const asJson = await runCliInProcess(['requests', 'show', h2.id, '--json'], { dataDir: ctx.dataDir });
    assert.deepEqual(
      [JSON.parse(asJson.stdout).protocol, JSON.parse(asJson.stdout).clientAddress],
      ['h2', '198.51.100.7'],
    );
  });
});
