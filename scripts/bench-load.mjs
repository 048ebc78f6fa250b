#!/usr/bin/env node
// Minimal keep-alive HTTP load generator: the bench's fallback when neither wrk nor autocannon
// is installed. Usage: node bench-load.mjs URL CONNECTIONS SECONDS [METHOD JSON-BODY]
// Prints one JSON line: { requests, durationS, p50Ms, p99Ms, errors, non2xx }.
import http from 'node:http';
import { createLoad, getter, sender } from './bench-load-run.mjs';

const [url, connsArg, secsArg, method, body] = process.argv.slice(2);
const conns = Number(connsArg ?? 50);
const secs = Number(secsArg ?? 10);
const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
const target = new URL(url);
const load = createLoad(secs);

const options = { host: target.hostname, port: target.port, path: target.pathname + target.search, agent };
const one = method
  ? sender(
      load,
      http.request,
      {
        ...options,
        method,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      body,
    )
  : getter(load, http.get, options);

const result = await load.run(one, conns);
agent.destroy();
console.log(JSON.stringify(result));
