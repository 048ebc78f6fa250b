#!/usr/bin/env node
// Minimal keep-alive HTTP load generator: the bench's fallback when neither wrk nor autocannon
// is installed. Usage: node bench-load.mjs URL CONNECTIONS SECONDS
// Prints one JSON line: { requests, durationS, p50Ms, p99Ms, errors, non2xx }.
import http from 'node:http';

const [url, connsArg, secsArg] = process.argv.slice(2);
const conns = Number(connsArg ?? 50);
const secs = Number(secsArg ?? 10);
const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
const target = new URL(url);
const latencies = [];
let requests = 0;
let errors = 0;
let non2xx = 0;
const start = performance.now();
const end = start + secs * 1000;

const one = () =>
  new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, agent },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          requests++;
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
  });

const worker = async () => {
  while (performance.now() < end) await one();
};
await Promise.all(Array.from({ length: conns }, worker));
const durationS = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
agent.destroy();
console.log(JSON.stringify({ requests, durationS, p50Ms: pct(50), p99Ms: pct(99), errors, non2xx }));
