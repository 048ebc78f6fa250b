// HTTPS (issue 22) in `npm run bench`: requests/s of `mockdev serve --tls` (the certificate
// `mockdev tls generate` made) against a bare server with the same certificate returning the
// same bytes: node:https for HTTP/1.1, node:http2's secure server for HTTP/2. The load is
// scripts/bench-load-tls.mjs (node: keep-alive connections for HTTP/1.1, concurrent streams over
// a few sessions for HTTP/2), pinned to core 1, the servers to core 0. Per protocol: bare,
// mockdev, bare again (the ratio uses the mean of the two bare runs). Target: 0.85x or better.
// `BENCH_ONLY_HTTPS=1 npm run bench` runs this alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';

const PATH = '/api/users/42';
const TARGET = 0.85;

/** One GET over HTTPS trusting `ca`: status, headers, body. */
const fetchTls = (url, ca) =>
  new Promise((resolve, reject) => {
    const req = get(url, { ca, servername: 'localhost' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
  });

/** Measures the HTTPS scenario; returns the summary lines and whether both ratios met the target. */
export async function measureHttps({ cli, dataDir, mockdev, measurer, CONNS, DURATION, WARMUP }) {
  const { nodeLoad, startServer, stopServer, freePort, cpuTicks } = measurer;
  const status = async (url) => (await fetchTls(url, ca)).status;
  mockdev('tls', 'generate');
  const certFile = join(dataDir, 'tls', 'cert.pem');
  const keyFile = join(dataDir, 'tls', 'key.pem');
  const caFile = join(dataDir, 'tls', 'ca.pem');
  const ca = readFileSync(caFile);
  const dir = join(dataDir, 'https');
  mockdev('init', dir, '--name', 'https', '--with-examples');
  const mPort = await freePort();
  const mUrl = `https://localhost:${mPort}${PATH}`;
  const serve = () =>
    startServer([process.execPath, cli, 'serve', dir, '--tls', '-p', String(mPort)], mUrl, 50, status);

  // The bare servers return exactly the bytes mockdev returns: taken from mockdev.
  let m = await serve();
  const sample = await fetchTls(mUrl, ca);
  await stopServer(m);
  const headers = {};
  for (const k of ['content-type', 'access-control-allow-origin'])
    if (sample.headers[k]) headers[k] = sample.headers[k];
  const bareScript = join(dataDir, 'bare-tls.cjs');
  writeFileSync(
    bareScript,
    `const fs = require('node:fs');
const [port, mode] = process.argv.slice(2);
const tls = { cert: fs.readFileSync(${JSON.stringify(certFile)}), key: fs.readFileSync(${JSON.stringify(keyFile)}) };
const body = Buffer.from(${JSON.stringify(sample.body.toString('base64'))}, 'base64');
const okHeaders = { ...${JSON.stringify(headers)}, 'content-length': body.length };
const handler = (req, res) => {
  const url = req.url.split('?')[0];
  if (req.method === 'GET' && url.startsWith('/api/users/') && url.indexOf('/', 11) === -1) {
    res.writeHead(200, okHeaders);
    res.end(body);
  } else { res.writeHead(404, { 'content-length': 2 }); res.end('{}'); }
};
const server = mode === 'h2' ? require('node:http2').createSecureServer({ ...tls, allowHTTP1: true }, handler) : require('node:https').createServer(tls, handler);
server.listen(Number(port), '127.0.0.1');`,
  );
  const bPort = await freePort();
  const bUrl = `https://localhost:${bPort}${PATH}`;

  const load = (url, mode, secs) =>
    nodeLoad('bench-load-tls.mjs', [url, String(CONNS), String(secs), caFile, mode]);
  const measure = (child, url, mode) => {
    load(url, mode, WARMUP);
    const t0 = cpuTicks(child.pid);
    const r = load(url, mode, DURATION);
    const ticks = cpuTicks(child.pid) - t0;
    return {
      rps: r.requests / r.durationS,
      p99Ms: r.p99Ms,
      errors: r.errors + r.non2xx,
      cpuUsPerReq: (ticks * 1e4) / r.requests,
    };
  };
  const bare = async (mode) => {
    const b = await startServer([process.execPath, bareScript, String(bPort), mode], bUrl, 50, status);
    const r = measure(b, bUrl, mode);
    await stopServer(b);
    return r;
  };

  const lines = [];
  let ok = true;
  for (const [mode, name] of [
    ['h1', 'HTTP/1.1'],
    ['h2', 'HTTP/2'],
  ]) {
    const before = await bare(mode);
    m = await serve();
    const mine = measure(m, mUrl, mode);
    await stopServer(m);
    const after = await bare(mode);
    const base = (before.rps + after.rps) / 2;
    const ratio = mine.rps / base;
    ok &&= ratio >= TARGET && mine.errors === 0;
    lines.push(
      `HTTPS ${name}: serve --tls ${Math.round(mine.rps)} req/s (p99 ${mine.p99Ms.toFixed(2)} ms, ${Math.round(mine.cpuUsPerReq)} µs CPU/req, errors ${mine.errors}) vs bare ${mode === 'h2' ? 'node:http2' : 'node:https'} ${Math.round(base)} req/s (${Math.round(before.rps)}, ${Math.round(after.rps)}): ${ratio.toFixed(2)}x (target >= ${TARGET}x) ${ratio >= TARGET ? 'OK' : 'BELOW TARGET'}`,
    );
  }
  return { lines, ok };
}
