#!/usr/bin/env node
// Keep-alive HTTPS load generator of the HTTPS bench (scripts/bench-https.mjs), HTTP/1.1 or
// HTTP/2. Usage: node bench-load-tls.mjs URL CONCURRENCY SECONDS CA_FILE h1|h2
// h1: CONCURRENCY keep-alive connections (node:https), one request at a time each.
// h2: CONCURRENCY requests in flight as concurrent streams over CONCURRENCY/10 sessions
//     (node:http2; at least one), each stream followed by the next as it ends.
// Prints one JSON line: { requests, durationS, p50Ms, p99Ms, errors, non2xx }.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import http2 from 'node:http2';

const [url, concArg, secsArg, caFile, mode] = process.argv.slice(2);
const conc = Number(concArg ?? 50);
const secs = Number(secsArg ?? 10);
const ca = readFileSync(caFile);
const target = new URL(url);
const path = target.pathname + target.search;
const latencies = [];
let requests = 0;
let errors = 0;
let non2xx = 0;
const start = performance.now();
const end = start + secs * 1000;
const done = (t0, status) => {
  latencies.push(performance.now() - t0);
  requests++;
  if (status < 200 || status > 299) non2xx++;
};

let one;
let close = () => undefined;
if (mode === 'h2') {
  const count = Math.max(1, Math.round(conc / 10));
  const sessions = Array.from({ length: count }, () => {
    const s = http2.connect(target.origin, { ca });
    s.on('error', () => errors++);
    return s;
  });
  let next = 0;
  one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const stream = sessions[next++ % count].request({ ':path': path });
      let status = 0;
      stream.on('response', (h) => (status = h[':status']));
      stream.on('data', () => undefined);
      stream.on('end', () => {
        done(t0, status);
        resolve();
      });
      stream.on('error', () => {
        errors++;
        resolve();
      });
    });
  close = () => sessions.forEach((s) => s.close());
} else {
  const agent = new https.Agent({ keepAlive: true, maxSockets: conc, ca });
  one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = https.get(
        { host: target.hostname, port: target.port, path, agent, servername: 'localhost' },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            done(t0, res.statusCode);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  close = () => agent.destroy();
}

const worker = async () => {
  while (performance.now() < end) await one();
};
await Promise.all(Array.from({ length: conc }, worker));
const durationS = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
close();
console.log(JSON.stringify({ requests, durationS, p50Ms: pct(50), p99Ms: pct(99), errors, non2xx }));
