import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createUiFiles, findUiDir } from './ui-files.js';

function get(
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.setTimeout(5000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

async function serve(dir: string | undefined): Promise<{ url: string; server: Server }> {
  const server = createServer(createUiFiles(dir));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the web UI files (mockdev ui at /)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mockdev-ui-files-'));
  const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  let built: { url: string; server: Server };
  let missing: { url: string; server: Server };
  before(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    mkdirSync(join(dir, 'icons'));
    writeFileSync(
      join(dir, 'manifest.webmanifest'),
      JSON.stringify({ name: 'mockdev', pad: 'x'.repeat(2000) }),
    );
    writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(dir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    built = await serve(dir);
    missing = await serve(join(dir, 'nothing-here'));
  });
  after(() => {
    built.server.close();
    missing.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers its own paths with index.html (no cache) and assets for a year, gzipped when asked', async () => {
    for (const path of ['/', '/projects/p1/endpoints', '/settings']) {
      const r = await get(`${built.url}${path}`);
      assert.equal(r.status, 200, path);
      assert.match(r.body.toString(), /id="root"/);
      assert.equal(r.headers['cache-control'], 'no-cache');
      assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
      assert.equal(r.headers['x-frame-options'], 'DENY');
    }
    const plain = await get(`${built.url}/assets/index-abc.js`);
    assert.equal(plain.body.toString(), script);
    assert.match(String(plain.headers['cache-control']), /max-age=31536000, immutable/);
    const zipped = await get(`${built.url}/assets/index-abc.js`, 'GET', { 'Accept-Encoding': 'gzip, br' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.body.length < plain.body.length / 10);
    assert.equal(gunzipSync(zipped.body).toString(), script);
  });

  it('serves the installable app: manifest, service worker and icons with their types, revalidated (ETag, 304)', async () => {
    const manifest = await get(`${built.url}/manifest.webmanifest`, 'GET', { 'Accept-Encoding': 'gzip' });
    assert.equal(manifest.headers['content-type'], 'application/manifest+json');
    assert.equal(manifest.headers['content-encoding'], 'gzip', 'a manifest is text: gzipped');
    assert.equal(JSON.parse(gunzipSync(manifest.body).toString()).name, 'mockdev');
    const sw = await get(`${built.url}/sw.js`);
    assert.equal(sw.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(sw.headers['cache-control'], 'no-cache', 'a new build’s service worker is seen at once');
    const icon = await get(`${built.url}/icons/icon-192.png`);
    assert.equal(icon.headers['content-type'], 'image/png');
    assert.equal(icon.headers['cache-control'], 'no-cache');
    const etag = String(icon.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await get(`${built.url}/icons/icon-192.png`, 'GET', { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, etag);
    const changed = await get(`${built.url}/icons/icon-192.png`, 'GET', { 'If-None-Match': '"other"' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.length, 4);
  });

  it('answers 404 for a missing file, 405 for a change, HEAD without a body', async () => {
    const gone = await get(`${built.url}/assets/gone.js`);
    assert.equal(gone.status, 404);
    assert.equal(JSON.parse(gone.body.toString()).code, 'NOT_FOUND', 'the one problem shape');
    assert.equal(gone.headers['x-frame-options'], 'DENY');
    const post = await get(`${built.url}/`, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    assert.equal(JSON.parse(post.body.toString()).code, 'METHOD_NOT_ALLOWED');
    const head = await get(`${built.url}/`, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
  });

  it('says the UI is not built, and how to build it, when there is no dist/ui', async () => {
    const r = await get(`${missing.url}/`);
    assert.equal(r.status, 503);
    assert.match(r.body.toString(), /not built.*npm run build/s);
  });

  it('finds dist/ui above the module that serves it', () => {
    const root = mkdtempSync(join(tmpdir(), 'mockdev-ui-find-'));
    try {
      mkdirSync(join(root, 'dist', 'ui'), { recursive: true });
      mkdirSync(join(root, 'dist', 'cli', 'chunks'), { recursive: true });
      writeFileSync(join(root, 'dist', 'ui', 'index.html'), '');
      assert.equal(findUiDir(join(root, 'dist', 'cli', 'chunks')), join(root, 'dist', 'ui'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
