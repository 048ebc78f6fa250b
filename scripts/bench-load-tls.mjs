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
import { createLoad, getter } from './bench-load-run.mjs';

const [url, concArg, secsArg, caFile, mode] = process.argv.slice(2);
const conc = Number(concArg ?? 50);
const secs = Number(secsArg ?? 10);
const ca = readFileSync(caFile);
const target = new URL(url);
const path = target.pathname + target.search;
const load = createLoad(secs);

let one;
let close = () => undefined;
if (mode === 'h2') {
  const count = Math.max(1, Math.round(conc / 10));
  const sessions = Array.from({ length: count }, () => {
    const s = http2.connect(target.origin, { ca });
    s.on('error', () => load.failed());
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
        load.done(t0, status);
        resolve();
      });
      stream.on('error', () => {
        load.failed();
        resolve();
      });
    });
  close = () => sessions.forEach((s) => s.close());
} else {
  const agent = new https.Agent({ keepAlive: true, maxSockets: conc, ca });
  one = getter(load, https.get, {
    host: target.hostname,
    port: target.port,
    path,
    agent,
    servername: 'localhost',
  });
  close = () => agent.destroy();
}

const result = await load.run(one, conc);
close();
console.log(JSON.stringify(result));
