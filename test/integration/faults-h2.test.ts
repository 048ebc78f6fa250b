/**
 * Faults over HTTP/2 (an HTTPS server, issue 26): reset, empty and garbage reset the request's
 * stream only; the session, shared by other requests, keeps answering. A drip is sent slowly.
 */
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import { tempDir } from '../helpers/cli.js';
import { makeCertificate } from '../helpers/https.js';
import { apiSandbox } from '../helpers/api.js';
import { makeProject } from '../helpers/server.js';

/** One request on the session: its status and body, or the stream's error code. */
function h2Get(
  session: ClientHttp2Session,
  path: string,
): Promise<{ status?: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const stream = session.request({ ':path': path });
    let body = '';
    let status: number | undefined;
    stream.setEncoding('utf8');
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (d: string) => (body += d));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', (e: NodeJS.ErrnoException) => resolve({ body, error: e.code }));
  });
}

describe('faults over HTTP/2', () => {
  it('reset the stream only: the shared session keeps answering; a drip is sent slowly', async (t) => {
    const api = apiSandbox(t);
    const { dir, cleanup } = tempDir('mockdev-h2-cert-');
    t.after(cleanup);
    const cert = await makeCertificate(dir);
    await makeProject(api.dataDir, 'h2', [
      { path: '/reset', body: '{}', fault: 'reset' },
      { path: '/empty', body: '{}', fault: 'empty' },
      { path: '/garbage', body: '{}', fault: 'garbage' },
      { path: '/drip', body: 'z'.repeat(500), contentType: 'text/plain', fault: 'drip:1000' },
      { path: '/ok', body: '{"ok":true}' },
    ]);
    const server = await startServer(api.ctx, {
      project: 'h2',
      port: 0,
      tls: { cert: cert.cert, key: cert.key },
    });
    t.after(() => server.stop());
    const session = connect(`https://localhost:${server.port}`, { ca: cert.cert });
    t.after(() => session.close());
    for (const path of ['/reset', '/empty', '/garbage']) {
      const got = await h2Get(session, path);
      assert.equal(got.error, 'ERR_HTTP2_STREAM_ERROR', path);
      assert.deepEqual(await h2Get(session, '/ok'), { status: 200, body: '{"ok":true}' }, `after ${path}`);
    }
    const start = performance.now();
    const drip = await h2Get(session, '/drip');
    const ms = performance.now() - start;
    assert.deepEqual([drip.status, drip.body], [200, 'z'.repeat(500)]);
    assert.ok(ms >= 350 && ms <= 2000, `dripped in ${Math.round(ms)} ms`);
    assert.equal(session.destroyed, false);
  });
});
