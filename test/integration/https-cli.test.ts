import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { json, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { curl, makeCertificate, type TestCertificate } from '../helpers/https.js';
import { startServe, type ServeHandle } from '../helpers/server.js';
import { startUi } from '../helpers/ui.js';

/** A data dir with a project "shop" (GET /ping) and a certificate of the test's own in `dir`. */
async function sandbox(t: { after(fn: () => void | Promise<void>): void }) {
  const { dir, cleanup } = tempDir('mockdev-https-cli-');
  const stops: (() => Promise<unknown>)[] = [];
  t.after(async () => {
    await Promise.all(stops.map((s) => s()));
    cleanup();
  });
  const cli = (args: string[]) => runCliInProcess(args, { dataDir: dir, cwd: dir });
  const created = await cli(['project', 'create', 'shop', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const added = await cli(['endpoint', 'add', 'shop', '-m', 'GET', '--path', '/ping', '--body', 'pong']);
  assert.equal(added.code, 0, added.stderr);
  const cert = await makeCertificate(dir);
  /** Puts the certificate where `mockdev tls generate` writes its leaf. */
  const asGeneratedLeaf = async () => {
    const ctx = createContext({ dataDir: dir, cwd: dir });
    try {
      await ctx.tls.writeLeaf({ cert: cert.cert, key: cert.key });
    } finally {
      ctx.close();
    }
  };
  const serve = async (args: string[]): Promise<ServeHandle> => {
    const s = await startServe(args, { dataDir: dir });
    stops.push(s.stop);
    return s;
  };
  return { dir, cli, cert, asGeneratedLeaf, serve, stops };
}

/** GET /ping answers pong over HTTP/1.1 and HTTP/2 (curl --cacert). */
const answersPong = async (port: number, cert: TestCertificate) => {
  const url = `https://localhost:${port}/ping`;
  const h1 = await curl(url, { ca: cert.certFile });
  const h2 = await curl(url, { ca: cert.certFile, http2: true });
  assert.deepEqual(
    [h1.status, h1.httpVersion, h1.body, h2.status, h2.httpVersion, h2.body],
    [200, '1.1', 'pong', 200, '2', 'pong'],
  );
};

describe('serve --tls, --cert/--key, project tls and ui --tls (the built CLI)', () => {
  it('serve --tls serves the generated certificate over HTTP/1.1 and HTTP/2; status shows https', async (t) => {
    const { cli, cert, asGeneratedLeaf, serve } = await sandbox(t);
    await asGeneratedLeaf();
    const server = await serve(['shop', '--tls']);
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    await answersPong(server.port, cert);
    const status = await cli(['status', '--json']);
    const [record] = json<{ url: string; tls?: boolean }[]>(status);
    assert.deepEqual([record!.url, record!.tls], [server.url, true]);
    assert.match((await cli(['status'])).stdout, new RegExp(`https://127\\.0\\.0\\.1:${server.port}`));
    assert.equal(await server.stop(), 0);
  });

  it('serve --cert/--key serves own files; a missing file or a key of another certificate: exit 2 naming it', async (t) => {
    const { dir, cli, cert, serve } = await sandbox(t);
    const server = await serve(['shop', '--cert', cert.certFile, '--key', cert.keyFile]);
    await answersPong(server.port, cert);
    const missing = await cli(['serve', 'shop', '-p', '0', '--cert', 'nowhere.pem', '--key', cert.keyFile]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /nowhere\.pem/);
    const other = await makeCertificate(dir, 'other');
    const mismatched = await cli([
      'serve',
      'shop',
      '-p',
      '0',
      '--cert',
      cert.certFile,
      '--key',
      other.keyFile,
    ]);
    assert.equal(mismatched.code, 2, mismatched.stderr);
    assert.match(mismatched.stderr, /other-key\.pem/);
  });

  it('serve --tls with no generated certificate: exit 1 naming mockdev tls generate', async (t) => {
    const { cli } = await sandbox(t);
    const r = await cli(['serve', 'shop', '-p', '0', '--tls']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /mockdev tls generate/);
  });

  it('project update --tls makes a plain serve serve HTTPS; --no-tls plain HTTP again', async (t) => {
    const { cli, cert, asGeneratedLeaf, serve } = await sandbox(t);
    await asGeneratedLeaf();
    const updated = await cli(['project', 'update', 'shop', '--tls', '--json']);
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(json<{ tls?: boolean }>(updated).tls, true);
    assert.match((await cli(['project', 'show', 'shop'])).stdout, /https:\s+yes/);
    const server = await serve(['shop']);
    assert.match(server.url, /^https:/);
    await answersPong(server.port, cert);
    await server.stop();
    const plain = await cli(['project', 'update', 'shop', '--no-tls', '--json']);
    assert.equal(json<{ tls?: boolean }>(plain).tls, undefined);
    const again = await serve(['shop']);
    assert.match(again.url, /^http:\/\//);
  });

  it('ui --tls serves the admin API over HTTPS (HTTP/1.1 and HTTP/2), its own https origin allowed', async (t) => {
    const { dir, cert, asGeneratedLeaf, stops } = await sandbox(t);
    await asGeneratedLeaf();
    const ui = await startUi(['--tls'], { dataDir: dir });
    stops.push(ui.stop);
    assert.match(ui.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const url = `https://localhost:${ui.port}/api/v1/projects`;
    const origin = `Origin: https://localhost:${ui.port}`;
    for (const http2 of [false, true]) {
      const r = await curl(url, { ca: cert.certFile, http2, headers: [origin] });
      assert.equal(r.status, 200, r.body);
      assert.equal(r.httpVersion, http2 ? '2' : '1.1');
      assert.deepEqual(
        (JSON.parse(r.body) as { name: string }[]).map((p) => p.name),
        ['shop'],
      );
    }
    const foreign = await curl(url, {
      ca: cert.certFile,
      http2: true,
      headers: ['Origin: https://evil.example'],
    });
    assert.equal(foreign.status, 403);
  });
});
