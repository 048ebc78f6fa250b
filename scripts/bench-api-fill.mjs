#!/usr/bin/env node
// Part of `npm run bench` (scripts/bench-api.mjs): writes COUNT request-log records of one project
// through the request log's own writer (the one `mockdev serve` hands each answered request
// to: records are spooled, then expanded into requests.db with the retention given), so the
// admin API reads a log exactly as servers leave it, without serving 100,000 requests first.
// Runs from the sources: node --import tsx scripts/bench-api-fill.mjs DATA_DIR PROJECT_ID COUNT
// Prints one JSON line: { written, lost, ms }.
import { createContext } from '../src/app/context.ts';

const [dataDir, projectId, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (!dataDir || !projectId || !Number.isInteger(count) || count < 1) {
  console.error('usage: bench-api-fill.mjs DATA_DIR PROJECT_ID COUNT');
  process.exit(2);
}

const ctx = createContext({ dataDir, cwd: dataDir, env: {} });
const t0 = performance.now();
const writer = ctx.requests.openWriter({
  projectId,
  limit: count,
  onWarning: (m) => console.error(`bench-api-fill: ${m}`),
});

// A mix like a day of use: reads and writes over 50 resources, mostly 200s, some 201/404/500,
// JSON request bodies on writes, one shared answer per status (as a server's precompiled ones).
const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const STATUSES = [200, 200, 200, 200, 200, 200, 201, 404, 500, 200];
const answers = new Map(
  [200, 201, 404, 500].map((status) => [
    status,
    {
      headersJson: JSON.stringify({ 'Content-Type': 'application/json' }),
      body: Buffer.from(
        JSON.stringify({
          status,
          items: [
            { id: 1, name: 'Ada' },
            { id: 2, name: 'Linus' },
          ],
        }),
      ),
      truncated: false,
      shared: true,
    },
  ]),
);
const start = Date.now() - count * 100;
for (let i = 0; i < count; i++) {
  const method = METHODS[i % METHODS.length];
  const status = STATUSES[i % STATUSES.length];
  const writes = method !== 'GET' && method !== 'DELETE';
  writer.push({
    endpointId: `r${i % 50}a`,
    ts: start + i * 100,
    method,
    url: `/api/r${i % 50}/items/${i}?page=${i % 7}&sort=name`,
    rawHeaders: [
      'Host',
      '127.0.0.1:3000',
      'User-Agent',
      'bench/1.0',
      'Accept',
      'application/json',
      ...(writes ? ['Content-Type', 'application/json'] : []),
    ],
    body: writes ? Buffer.from(JSON.stringify({ id: i, name: `item ${i}`, tags: ['a', 'b'] })) : null,
    truncated: false,
    status,
    durationMs: 0.4 + (i % 10) / 10,
    response: answers.get(status),
  });
  // Let the writer's timers run now and then, as a server's event loop would.
  if (i % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
}
await writer.close();
ctx.requests.close();
console.log(JSON.stringify({ written: count - writer.lost, lost: writer.lost, ms: performance.now() - t0 }));
