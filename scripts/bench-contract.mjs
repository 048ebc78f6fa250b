// Contract testing (issue 23) in `npm run bench`:
// (a) `mockdev contract validate` of 10,000 logged requests against a generated OpenAPI 3.0
//     document of 100 operations (25 resources x list, create, get, delete; parameters with
//     bounds, JSON request and response bodies against schemas), process start included, the
//     median of BENCH_CONTRACT_RUNS (3). Target: under 2 s. The 10,000 requests are real
//     traffic to a plain `serve` of a project answering every operation (about 1% of them
//     break the contract, so the report has violations to build).
// (b) `serve --contract` (live checking) against a plain `serve` of the same project, requests/s
//     on one endpoint: plain, --contract, plain again (the ratio uses the mean of the plain runs).
//     Target: 0.8x or better. Run with the default retention (10,000 records), as users run it;
//     after the stop, the records left in the log are counted checked (the stop catches up).
// `BENCH_ONLY_CONTRACT=1 npm run bench` runs this alone; BENCH_SKIP_CONTRACT=1 skips it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median } from './bench-import.mjs';
import { MOCK_ENDPOINT } from './bench-measure.mjs';

const RESOURCES = 25; // x 4 operations = 100
const REQUESTS = 10_000;
const VALIDATE_TARGET_MS = 2000;
const LIVE_TARGET = 0.8;
const LIVE_PATH = '/api/r0/items/42';

const ITEM = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, uniqueItems: true },
    createdAt: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};
const ITEM_JSON = { id: 42, name: 'Ada', tags: ['a'], createdAt: '2024-05-01T10:00:00Z' };
const json = (schema) => ({ content: { 'application/json': { schema } } });

/** The 100-operation document. */
function contractDocument() {
  const paths = {};
  for (let r = 0; r < RESOURCES; r++) {
    const tag = `r${r}`;
    paths[`/api/r${r}/items`] = {
      get: {
        operationId: `list${r}`,
        tags: [tag],
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        ],
        responses: { 200: { description: 'items', ...json({ type: 'array', items: ITEM }) } },
      },
      post: {
        operationId: `create${r}`,
        tags: [tag],
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['name'],
            properties: { name: ITEM.properties.name, tags: ITEM.properties.tags },
          }),
        },
        responses: { 201: { description: 'created', ...json(ITEM) } },
      },
    };
    paths[`/api/r${r}/items/{itemId}`] = {
      parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: {
        operationId: `get${r}`,
        tags: [tag],
        responses: {
          200: { description: 'one item', ...json(ITEM) },
          404: { description: 'none', ...json({ type: 'object', required: ['error'] }) },
        },
      },
      delete: { operationId: `delete${r}`, tags: [tag], responses: { 204: { description: 'deleted' } } },
    };
  }
  return { openapi: '3.0.3', info: { title: 'bench', version: '1.0.0' }, paths };
}

/** Endpoints answering every operation as the document says. */
function endpoints() {
  const out = [];
  for (let r = 0; r < RESOURCES; r++) {
    const one = (id, name, method, path, status, body) =>
      out.push({ ...MOCK_ENDPOINT, id: `r${r}${id}`, name: `r${r} ${name}`, method, path, status, body });
    one('l', 'list', 'GET', `/api/r${r}/items`, 200, JSON.stringify([ITEM_JSON, { ...ITEM_JSON, id: 43 }]));
    one('c', 'create', 'POST', `/api/r${r}/items`, 201, JSON.stringify(ITEM_JSON));
    one('g', 'get', 'GET', `/api/r${r}/items/:itemId`, 200, JSON.stringify(ITEM_JSON));
    one('d', 'delete', 'DELETE', `/api/r${r}/items/:itemId`, 204, '');
  }
  return out;
}

/** Request i of the traffic: every operation in turn; every 97th breaks the contract. */
function trafficRequest(i) {
  const r = i % RESOURCES;
  const bad = i % 97 === 0;
  switch (Math.floor(i / RESOURCES) % 4) {
    case 0:
      return { method: 'GET', path: `/api/r${r}/items?page=${(i % 9) + 1}&limit=${bad ? 500 : 20}` };
    case 1:
      return {
        method: 'POST',
        path: `/api/r${r}/items`,
        body: JSON.stringify(bad ? { tags: ['a'] } : { name: `item ${i}`, tags: ['a', 'b'] }),
      };
    case 2:
      return { method: 'GET', path: `/api/r${r}/items/${bad ? 'x' : i + 1}` };
    default:
      return { method: 'DELETE', path: `/api/r${r}/items/${i + 1}` };
  }
}

/** Sends the REQUESTS requests over 16 keep-alive connections; resolves with how many got an answer. */
async function sendTraffic(base) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const target = new URL(base);
  let next = 0;
  let answered = 0;
  const one = (req) =>
    new Promise((resolve) => {
      const headers = req.body
        ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) }
        : {};
      const r = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.path, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            answered++;
            resolve();
          });
        },
      );
      r.on('error', () => resolve());
      r.end(req.body);
    });
  const worker = async () => {
    while (next < REQUESTS) await one(trafficRequest(next++));
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  agent.destroy();
  return answered;
}

/** Measures both; returns the summary lines and whether both met their targets. */
export async function measureContract({ cli, dataDir, mockdev, measurer, env }) {
  const { startServer, stopServer, measure, freePort } = measurer;
  const require = createRequire(import.meta.url);
  const dir = join(dataDir, 'contracted');
  mockdev('init', dir, '--name', 'contracted');
  writeFileSync(join(dir, 'endpoints.json'), JSON.stringify(endpoints(), null, 2));
  const projectId = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')).id;
  const specFile = join(dataDir, 'contract-100.json');
  writeFileSync(specFile, JSON.stringify(contractDocument(), null, 2));
  const settingsFile = join(dataDir, 'settings.json');
  const settingsBefore = (() => {
    try {
      return readFileSync(settingsFile, 'utf8');
    } catch {
      return undefined;
    }
  })();
  const lines = [];

  // (a) the traffic, then validate
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(
    [process.execPath, cli, 'serve', dir, '-p', String(port)],
    `${base}${LIVE_PATH}`,
  );
  const answered = await sendTraffic(base);
  await stopServer(server);
  const runs = [];
  let report;
  for (let i = 0; i < Number(process.env.BENCH_CONTRACT_RUNS ?? 3); i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'contract', 'validate', dir, '-s', specFile, '--json'], {
      env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    runs.push(performance.now() - t0);
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`contract validate failed (${r.status}): ${r.stderr}`);
    report = JSON.parse(r.stdout);
  }
  const ms = median(runs);
  // The traffic plus the start-up probe of the server.
  const validateOk = ms < VALIDATE_TARGET_MS && report.checked >= REQUESTS && report.checked <= answered + 1;
  lines.push(
    `contract validate: ${report.checked.toLocaleString('en-US')} logged requests against 100 operations in ${Math.round(ms)} ms ` +
      `(median of ${runs.length}: ${runs.map((x) => Math.round(x)).join(', ')} ms; process start included): ` +
      `${report.passed} passed, ${report.failed} failed, ${report.violations.length} violations, ${report.skipped} skipped ` +
      `(target < ${VALIDATE_TARGET_MS} ms) ${validateOk ? 'OK' : 'ABOVE TARGET'}`,
  );

  // (b) live checking vs plain, with the default retention
  writeFileSync(settingsFile, '{}');
  const url = `${base}${LIVE_PATH}`;
  const plainRun = async () => {
    const s = await startServer([process.execPath, cli, 'serve', dir, '-p', String(port)], url);
    const r = measure('serve', s, url);
    await stopServer(s);
    return r;
  };
  const Database = require('better-sqlite3');
  const query = (sql, ...args) => {
    const db = new Database(join(dataDir, 'requests.db'), { readonly: true });
    try {
      return db.prepare(sql).get(...args);
    } finally {
      db.close();
    }
  };
  const before = await plainRun();
  const lastId = query('SELECT COALESCE(MAX(id), 0) AS id FROM requests').id;
  server = await startServer(
    [process.execPath, cli, 'serve', dir, '-p', String(port), '--contract', specFile],
    url,
  );
  const live = measure('serve --contract', server, url);
  const t0 = performance.now();
  await stopServer(server);
  const stopMs = performance.now() - t0;
  // What the --contract server logged and kept (retention): every record of it checked on stop.
  const counts = query(
    'SELECT COUNT(*) AS total, COUNT(contract_ok) AS checked FROM requests WHERE project_id = ? AND id > ?',
    projectId,
    lastId,
  );
  const after = await plainRun();
  if (settingsBefore === undefined) writeFileSync(settingsFile, '{}');
  else writeFileSync(settingsFile, settingsBefore);

  const plain = (before.rps + after.rps) / 2;
  const ratio = live.rps / plain;
  const liveOk = ratio >= LIVE_TARGET && !live.errors;
  lines.push(
    `serve --contract: ${Math.round(live.rps)} req/s (p99 ${live.p99Ms.toFixed(2)} ms, ${Math.round(live.cpuUsPerReq)} µs CPU/req, errors ${live.errors || '0'}) ` +
      `vs plain serve ${Math.round(plain)} req/s (${Math.round(before.rps)}, ${Math.round(after.rps)}): ${ratio.toFixed(2)}x ` +
      `(target >= ${LIVE_TARGET}x) ${liveOk ? 'OK' : 'BELOW TARGET'}; its stop took ${Math.round(stopMs)} ms and left ` +
      `${counts.checked.toLocaleString('en-US')} of the ${counts.total.toLocaleString('en-US')} records it kept checked`,
  );
  return { lines, ok: validateOk && liveOk && counts.checked === counts.total };
}
