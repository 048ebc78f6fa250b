/**
 * serverCredentials (what `serve --tls` / `--cert --key` serve with) over the real stores, and
 * the generated leaf in a real TLS handshake: node:https and curl trusting only ca.pem.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { serverCredentials } from '../../src/app/tls.js';
import { MockdevError } from '../../src/core/errors.js';
import { makeCa } from '../../src/store/tls/x509.js';
import { proSandbox, PRO_ENV } from '../helpers/pro.js';
import { requireTool, run, tlsFiles } from '../helpers/tls.js';

type Sandbox = Awaited<ReturnType<typeof proSandbox>>;

/** A context over the sandbox's data directory, its working folder the sandbox's. */
function contextOf(box: Sandbox) {
  const ctx = createContext({
    dataDir: box.dataDir,
    cwd: box.dir,
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY },
  });
  box.defer(() => ctx.close());
  return ctx;
}

const fails = async (promise: Promise<unknown>, code: string, message: RegExp, file?: string) =>
  assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof MockdevError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    if (file) assert.equal((e.details as { file?: string } | undefined)?.file, file);
    assert.doesNotMatch(e.message, /PRIVATE KEY/, 'never quotes a key');
    return true;
  });

async function listen(cert: string, key: string): Promise<{ server: Server; port: number }> {
  const server = createServer({ cert, key }, (_req, res) => res.end('hello over tls'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const get = (port: number, options: { ca?: string; host?: string }) =>
  new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        servername: options.host,
        ...(options.host ? { headers: { host: options.host } } : {}),
        port,
        ca: options.ca,
        path: '/',
      },
      (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (body += d))
          .on('end', () => resolve(body));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', reject).end();
  });

describe('serverCredentials', () => {
  it('the generated leaf; none yet: NOT_FOUND (exit 1) naming tls generate', async (t) => {
    const box = await proSandbox(t);
    const ctx = contextOf(box);
    await assert.rejects(serverCredentials(ctx, {}), (e: unknown) => {
      assert.ok(e instanceof MockdevError);
      assert.equal(e.code, 'NOT_FOUND');
      assert.equal(e.exitCode, 1);
      assert.match(e.message, /^No certificate has been generated yet \(.*cert\.pem\)$/);
      assert.match(String(e.hint), /Run "mockdev tls generate"/);
      return true;
    });
    assert.equal((await box.cli(['tls', 'generate'])).code, 0);
    const got = await serverCredentials(ctx, {});
    assert.equal(got.source, 'generated');
    assert.match(got.cert, /^-----BEGIN CERTIFICATE-----/);
    assert.match(got.key, /^-----BEGIN PRIVATE KEY-----/);
  });

  it("the user's own files relative to the working folder; unreadable, not PEM or mismatched: INVALID_ARGUMENT naming the file", async (t) => {
    const box = await proSandbox(t);
    const ctx = contextOf(box);
    assert.equal((await box.cli(['tls', 'generate'])).code, 0);
    const f = tlsFiles(box.dataDir);
    mkdirSync(join(box.dir, 'certs'));
    copyFileSync(f.cert, join(box.dir, 'certs', 'cert.pem'));
    copyFileSync(f.key, join(box.dir, 'certs', 'key.pem'));
    copyFileSync(f.caKey, join(box.dir, 'certs', 'other-key.pem'));
    writeFileSync(join(box.dir, 'certs', 'notes.txt'), 'not a certificate\n');

    const own = await serverCredentials(ctx, { cert: 'certs/cert.pem', key: 'certs/key.pem' });
    assert.equal(own.source, 'files');
    assert.match(own.cert, /BEGIN CERTIFICATE/);

    await fails(
      serverCredentials(ctx, { cert: 'certs/missing.pem', key: 'certs/key.pem' }),
      'INVALID_ARGUMENT',
      /^Cannot read certs\/missing\.pem: no such file/,
      'certs/missing.pem',
    );
    await fails(
      serverCredentials(ctx, { cert: 'certs/cert.pem', key: 'certs' }),
      'INVALID_ARGUMENT',
      /^Cannot read certs: it is a folder/,
      'certs',
    );
    await fails(
      serverCredentials(ctx, { cert: 'certs/notes.txt', key: 'certs/key.pem' }),
      'INVALID_ARGUMENT',
      /^certs\/notes\.txt is not a PEM certificate/,
      'certs/notes.txt',
    );
    // A key given as the certificate, and a certificate given as the key.
    await fails(
      serverCredentials(ctx, { cert: 'certs/key.pem', key: 'certs/key.pem' }),
      'INVALID_ARGUMENT',
      /^certs\/key\.pem is not a PEM certificate/,
      'certs/key.pem',
    );
    await fails(
      serverCredentials(ctx, { cert: 'certs/cert.pem', key: 'certs/cert.pem' }),
      'INVALID_ARGUMENT',
      /^certs\/cert\.pem is not an unencrypted PEM private key/,
      'certs/cert.pem',
    );
    await fails(
      serverCredentials(ctx, { cert: 'certs/cert.pem', key: 'certs/other-key.pem' }),
      'INVALID_ARGUMENT',
      /^certs\/other-key\.pem is not the private key of certs\/cert\.pem/,
      'certs/other-key.pem',
    );
    await fails(
      serverCredentials(ctx, { cert: 'certs/cert.pem' }),
      'INVALID_ARGUMENT',
      /give both --cert and --key/,
    );
  });
});

describe('the generated leaf in a TLS handshake', () => {
  it('node:https and curl accept it trusting only ca.pem, for localhost and 127.0.0.1', async (t) => {
    const curl = requireTool('curl', 'curl');
    const box = await proSandbox(t);
    assert.equal((await box.cli(['tls', 'generate'])).code, 0);
    const ctx = contextOf(box);
    const { cert, key } = await serverCredentials(ctx, {});
    const { server, port } = await listen(cert, key);
    box.defer(() => new Promise((resolve) => server.close(resolve)));
    const ca = (await ctx.tls.readCa())!.cert;

    assert.equal(await get(port, { ca, host: 'localhost' }), 'hello over tls');
    assert.equal(await get(port, { ca }), 'hello over tls');
    // Without the CA the same client refuses it: the CA is what makes it trusted.
    await assert.rejects(get(port, { host: 'localhost' }), /self[- ]signed|unable to (get|verify)/i);
    // A name the leaf was not made for is refused even with the CA.
    await assert.rejects(get(port, { ca, host: 'other.test' }), /altnames|does not match/i);

    const f = tlsFiles(box.dataDir);
    for (const host of ['localhost', '127.0.0.1']) {
      const r = await run(curl, [
        '-sS',
        '--max-time',
        '10',
        '--cacert',
        f.ca,
        '--resolve',
        `localhost:${port}:127.0.0.1`,
        `https://${host}:${port}/`,
      ]);
      assert.equal(r.code, 0, `curl ${host}: ${r.stderr}`);
      assert.equal(r.stdout, 'hello over tls');
    }
    // Trusting another CA only, curl refuses it.
    const other = join(box.dir, 'other-ca.pem');
    writeFileSync(other, (await makeCa()).cert);
    const untrusted = await run(curl, [
      '-sS',
      '--max-time',
      '10',
      '--cacert',
      other,
      `https://127.0.0.1:${port}/`,
    ]);
    assert.notEqual(untrusted.code, 0);
    assert.equal(untrusted.stdout, '');
    assert.match(untrusted.stderr, /^curl: \((35|60)\)/); // (another CA of the same name: its signature fails)
  });
});
