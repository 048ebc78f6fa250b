#!/usr/bin/env node
// `npm run bench`: mockdev (logging on) beside a bare node:http server returning the same bytes,
// in one run. Each server is pinned to core 0 and the load generator to core 1 where taskset
// exists. Load: wrk if installed, else autocannon if installed, else scripts/bench-load.mjs.
// Also: a project of 1,000 endpoints (cost per request and RSS), the demo project whose
// GET /api/users/:id has three rule-based variations with the load matching the third (issue 11;
// BENCH_SKIP_VARIATIONS=1 skips it), the same endpoint with a templated body (path parameter,
// environment variable and one fake first name; issue 12; BENCH_SKIP_TEMPLATES=1 skips it) and one
// using twelve of the Mockoon/WireMock helpers of issue 25 (skipped with it), and a
// count check that every
// request of the mockdev run is in the request log (retention raised above the run's count), and an
// endpoint whose every request starts a flow run with one callback to a local receiver, with the
// count of callbacks received (issue 21, scripts/bench-flows.mjs; BENCH_SKIP_FLOWS=1 skips it,
// BENCH_ONLY_FLOWS=1 runs only it), and HTTPS: `serve --tls` against bare node:https / node:http2
// servers with the same certificate and bytes, HTTP/1.1 and HTTP/2 (issue 22,
// scripts/bench-https.mjs; BENCH_SKIP_HTTPS=1 skips it, BENCH_ONLY_HTTPS=1 runs only it), and
// contract testing: `contract validate` of 10,000 logged requests against 100 operations, and
// `serve --contract` against plain `serve` (issue 23, scripts/bench-contract.mjs;
// BENCH_SKIP_CONTRACT=1 skips it, BENCH_ONLY_CONTRACT=1 runs only it), and resources: GET one
// item, GET a filtered page and POST on a resource of 1,000 items against the static endpoint
// (issue 26, scripts/bench-resources.mjs; BENCH_SKIP_RESOURCES=1 skips it, BENCH_ONLY_RESOURCES=1
// runs only it), and imports of other tools' files: a generated 5,000-entry HAR and a
// 1,000-mapping WireMock folder, each against a 2 s target (issue 27,
// scripts/bench-import-formats.mjs; BENCH_SKIP_IMPORT_FORMATS=1 skips it,
// BENCH_ONLY_IMPORT_FORMATS=1 runs only it).
//
// Cold start: exec -> first 200 answer of `mockdev serve` beside the bare server (median of
// BENCH_COLD_RUNS, default 7, alternating), polled every 5 ms from this process.
//
// Import: `mockdev import` of GitHub's REST description (@octokit/openapi 23.0.2, generated/
// api.github.com.json: 12.4 MiB, 1,223 operations), each run in a fresh data dir, process start
// included; the median of BENCH_IMPORT_RUNS. The package is fetched once with `npm pack` (the
// registry npm is configured with) into .bench-cache/, and only that file is kept.
//
// Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (50),
//      BENCH_SKIP_1000=1 to skip the 1,000-endpoint run, BENCH_SKIP_VARIATIONS=1 to skip the
//      run with variations, BENCH_SKIP_TEMPLATES=1 to skip the templated one, BENCH_COLD_RUNS (7),
//      BENCH_ONLY_IMPORT=1 to run only the import measurement, BENCH_SKIP_IMPORT=1 to skip it,
//      BENCH_IMPORT_RUNS (5), BENCH_GITHUB_DOC=<file> to use a copy of api.github.com.json at hand,
//      BENCH_ONLY_API=1 to run only the admin API measurement, BENCH_SKIP_API=1 to skip it,
//      BENCH_API_CALLS (20), BENCH_ONLY_UI=1 to run only the web UI measurement, BENCH_SKIP_UI=1
//      to skip it, BENCH_UI_RUNS (7), BENCH_ONLY_FLOWS=1 to run only the flow measurement,
//      BENCH_SKIP_FLOWS=1 to skip it, BENCH_ONLY_HTTPS=1 to run only the HTTPS measurement,
//      BENCH_SKIP_HTTPS=1 to skip it, BENCH_ONLY_CONTRACT=1 to run only the contract
//      measurement, BENCH_SKIP_CONTRACT=1 to skip it, BENCH_CONTRACT_RUNS (3),
//      BENCH_ONLY_IMPORT_FORMATS=1 / BENCH_SKIP_IMPORT_FORMATS=1 for the HAR and WireMock imports,
//      BENCH_IMPORT_FORMATS_RUNS (3).
//
// Web UI (issues 14 and 24, scripts/bench-ui.mjs): the script a page load fetches before its
// first screen, gzipped (budget 250 KB; the chunks a screen loads when it needs them apart), and
// the time to the first interactive screen in chromium (target 1 s).
//
// Admin API (issue 13, scripts/bench-api.mjs): a spawned `mockdev ui` over a project of 1,000
// endpoints with 100,000 request-log records (written through the log's own writer,
// scripts/bench-api-fill.mjs); GET /api/v1/projects/{p}/endpoints and
// GET /api/v1/projects/{p}/requests?limit=200, median and p95 of BENCH_API_CALLS sequential
// calls after one warm-up each (target: under 50 ms).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { generateKeyPairSync, sign } from 'node:crypto';
import { measureGithubImport, median } from './bench-import.mjs';
import { measureAdminApi } from './bench-api.mjs';
import { measureUi } from './bench-ui.mjs';
import { measureFlows } from './bench-flows.mjs';
import { measureImportFormats } from './bench-import-formats.mjs';
import { measureResources } from './bench-resources.mjs';
import { measureHttps } from './bench-https.mjs';
import { measureContract } from './bench-contract.mjs';
import { measureTemplated, prepareTemplated } from './bench-templates.mjs';
import { createMeasurer, MOCK_ENDPOINT } from './bench-measure.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('dist/ is missing: run "npm run build" first');
  process.exit(1);
}
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PATH = '/api/users/42';

const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-bench-'));
const children = new Set();
const cleanup = () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

const env = { ...process.env, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'warn' };
const measurer = createMeasurer({
  env,
  children,
  root,
  DURATION,
  WARMUP,
  CONNS,
});
const { LOADGEN, TASKSET, startServer, stopServer, measure, freePort } = measurer;
const onlyHttps = process.env.BENCH_ONLY_HTTPS === '1';
const onlyContract = process.env.BENCH_ONLY_CONTRACT === '1';
const onlyResources = process.env.BENCH_ONLY_RESOURCES === '1';
const onlyFlows = process.env.BENCH_ONLY_FLOWS === '1' || onlyHttps || onlyContract || onlyResources;
const require = createRequire(import.meta.url);
const mockdev = (...args) => execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });

// ---------------------------------------------------------------- imports of other tools' files
let importFormatsRes;
if (
  !onlyFlows &&
  process.env.BENCH_SKIP_IMPORT_FORMATS !== '1' &&
  !['BENCH_ONLY_UI', 'BENCH_ONLY_API', 'BENCH_ONLY_IMPORT'].some((k) => process.env[k] === '1')
) {
  importFormatsRes = await measureImportFormats({ cli, env });
  for (const line of importFormatsRes.lines) console.log(line);
  if (process.env.BENCH_ONLY_IMPORT_FORMATS === '1') process.exit(importFormatsRes.ok ? 0 : 1);
}

// ---------------------------------------------------------------- web UI
let uiLines;
if (
  !onlyFlows &&
  process.env.BENCH_SKIP_UI !== '1' &&
  process.env.BENCH_ONLY_IMPORT !== '1' &&
  process.env.BENCH_ONLY_API !== '1'
) {
  const ui = await measureUi({ root, cli, env, runs: Number(process.env.BENCH_UI_RUNS ?? 7) });
  uiLines = ui.lines;
  for (const line of uiLines) console.log(line);
  if (process.env.BENCH_ONLY_UI === '1') process.exit(ui.ok ? 0 : 1);
}

// ---------------------------------------------------------------- admin API
let apiLines;
if (
  !onlyFlows &&
  process.env.BENCH_SKIP_API !== '1' &&
  process.env.BENCH_ONLY_IMPORT !== '1' &&
  process.env.BENCH_ONLY_UI !== '1'
) {
  const api = await measureAdminApi({ root, cli, env, calls: Number(process.env.BENCH_API_CALLS ?? 20) });
  apiLines = api.lines;
  for (const line of apiLines) console.log(line);
  if (process.env.BENCH_ONLY_API === '1') process.exit(api.ok ? 0 : 1);
}

// ---------------------------------------------------------------- import
let importLine;
if (
  !onlyFlows &&
  process.env.BENCH_SKIP_IMPORT !== '1' &&
  process.env.BENCH_ONLY_API !== '1' &&
  process.env.BENCH_ONLY_UI !== '1'
) {
  importLine = await measureGithubImport({ root, cli, env });
  console.log(importLine);
}
if (process.env.BENCH_ONLY_IMPORT === '1') process.exit(0);

// ---------------------------------------------------------------- projects
const demoDir = join(dataDir, 'demo');
mockdev('init', demoDir, '--name', 'demo', '--with-examples');
const projectId = JSON.parse(readFileSync(join(demoDir, 'project.json'), 'utf8')).id;
// Retention above the run's request count, so that the count check can see every request.
writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ requestLogLimit: 100_000_000 }));

const bigDir = join(dataDir, 'big');
mockdev('init', bigDir, '--name', 'big', '--with-examples');
const demoEndpoints = JSON.parse(readFileSync(join(demoDir, 'endpoints.json'), 'utf8'));
const bigEndpoints = [...demoEndpoints];
for (let i = 0; bigEndpoints.length < 1000; i++) {
  const base = { ...MOCK_ENDPOINT, status: 200 };
  bigEndpoints.push({
    ...base,
    id: `r${i}a`,
    name: `r${i} list`,
    method: 'GET',
    path: `/api/r${i}/items`,
    body: '[]',
  });
  bigEndpoints.push({
    ...base,
    id: `r${i}b`,
    name: `r${i} one`,
    method: 'GET',
    path: `/api/r${i}/items/{itemId}`,
    body: '{}',
  });
  bigEndpoints.push({
    ...base,
    id: `r${i}c`,
    name: `r${i} create`,
    method: 'POST',
    path: `/api/r${i}/items`,
    body: '{}',
    status: 201,
  });
}
writeFileSync(join(bigDir, 'endpoints.json'), JSON.stringify(bigEndpoints.slice(0, 1000), null, 2));

// The demo project with three rule-based variations on GET /api/users/:id (a header regex, a
// path parameter, a query parameter regex); the load sends ?variant=3, so every request checks
// the first two variations' rules and is answered by the third, whose regex (`^[3-9]$`, not plain
// text) runs on the linear-time engine (RE2's, src/core/linear-regex.ts) for every request.
const variedDir = join(dataDir, 'varied');
mockdev('init', variedDir, '--name', 'varied', '--with-examples');
const variedEndpoints = JSON.parse(readFileSync(join(variedDir, 'endpoints.json'), 'utf8'));
const byId = variedEndpoints.find((e) => e.method === 'GET' && /^\/api\/users\/[:{]/.test(e.path));
const variant = (n, rules) => ({
  id: `v${n}`,
  name: `variant ${n}`,
  status: byId.status,
  headers: byId.headers,
  body: byId.body,
  contentType: byId.contentType,
  delay: 0,
  rules,
});
byId.variations = [
  variant(1, [{ source: 'header', key: 'x-role', op: 'regex', value: '^adm' }]),
  variant(2, [{ source: 'param', key: 'id', op: 'equals', value: '0' }]),
  variant(3, [{ source: 'query', key: 'variant', op: 'regex', value: '^[3-9]$' }]),
];
writeFileSync(join(variedDir, 'endpoints.json'), JSON.stringify(variedEndpoints, null, 2));

// The templated copies of the demo endpoint (scripts/bench-templates.mjs). Their environment is a
// Pro feature: this run trusts a signing key it makes and activates a key signed with it.
const templatedDir = prepareTemplated({ dataDir, mockdev });
{
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  env.MOCKDEV_LICENSE_PUBLIC_KEY = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const claims = { sub: 'bench@example.com', plan: 'pro', iat: Math.floor(Date.now() / 1000), exp: null };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign(null, Buffer.from(payload, 'ascii'), privateKey).toString('base64url');
  mockdev('license', 'activate', `${payload}.${signature}`);
  mockdev(
    'environment',
    'create',
    '-n',
    'bench',
    '-p',
    templatedDir,
    '--var',
    'API=https://api.example.test',
  );
  mockdev('environment', 'activate', templatedDir, 'bench');
}

console.log(
  `mockdev bench: ${DURATION}s at ${CONNS} keep-alive connections on GET ${PATH} (warm-up ${WARMUP}s)`,
);
const flowBench = (plain) => measureFlows({ cli, dataDir, mockdev, measurer, children, plain });
const httpsBench = () => measureHttps({ cli, dataDir, mockdev, measurer, CONNS, DURATION, WARMUP });
const contractBench = () => measureContract({ cli, dataDir, mockdev, measurer, env });
const resourcesBench = () => measureResources({ cli, dataDir, mockdev, measurer });
if (onlyResources) {
  console.log(`load generator: ${LOADGEN}; pinning: ${TASKSET ? 'server core 0, load core 1' : 'none'}`);
  for (const line of (await resourcesBench()).lines) console.log(line);
  process.exit(0);
}
if (onlyContract) {
  console.log(
    `load generator: ${LOADGEN}; pinning: ${TASKSET ? 'server core 0, load core 1' : 'none (taskset not found)'}`,
  );
  const contract = await contractBench();
  for (const line of contract.lines) console.log(line);
  process.exit(contract.ok ? 0 : 1);
}
if (onlyHttps) {
  console.log(
    `load generator: scripts/bench-load-tls.mjs; pinning: ${TASKSET ? 'server core 0, load core 1' : 'none'}`,
  );
  const https = await httpsBench();
  for (const line of https.lines) console.log(line);
  process.exit(https.ok ? 0 : 1);
}
if (onlyFlows) {
  const flows = await flowBench(undefined);
  console.log(
    `load generator: ${LOADGEN}; pinning: ${TASKSET ? 'server core 0, load and receiver core 1' : 'none'}`,
  );
  const { name, rps, p99Ms, errors } = flows.row;
  console.log(`${name}: ${Math.round(rps)} req/s, p99 ${p99Ms.toFixed(2)} ms, errors ${errors || '0'}`);
  for (const line of flows.lines) console.log(line);
  process.exit(flows.ok ? 0 : 1);
}
console.log(
  `load generator: ${LOADGEN}; pinning: ${TASKSET ? 'server core 0, load core 1' : 'none (taskset not found)'}; node ${process.version}`,
);

const results = [];
const mPort = await freePort();
const mUrl = `http://127.0.0.1:${mPort}${PATH}`;
const serveDemo = () => startServer([process.execPath, cli, 'serve', demoDir, '-p', String(mPort)], mUrl);

// The bare server returns exactly the bytes mockdev returns: take them from mockdev.
let m = await serveDemo();
const sample = await fetch(mUrl);
const sampleBody = Buffer.from(await sample.arrayBuffer());
const sampleHeaders = {};
for (const k of ['content-type', 'access-control-allow-origin'])
  if (sample.headers.get(k)) sampleHeaders[k] = sample.headers.get(k);
await stopServer(m);

const bPort = await freePort();
const bareScript = join(dataDir, 'bare.cjs');
writeFileSync(
  bareScript,
  `const http = require('node:http');
const body = Buffer.from(${JSON.stringify(sampleBody.toString('base64'))}, 'base64');
const headers = ${JSON.stringify(sampleHeaders)};
const okHeaders = { ...headers, 'Content-Length': body.length };
http.createServer((req, res) => {
  const url = req.url.split('?')[0];
  if (req.method === 'GET' && url.startsWith('/api/users/') && url.indexOf('/', 11) === -1) {
    res.writeHead(200, okHeaders);
    res.end(body);
  } else { res.writeHead(404, { 'Content-Length': 2 }); res.end('{}'); }
}).listen(Number(process.argv[2] ?? ${bPort}), '127.0.0.1');`,
);
const bUrl = `http://127.0.0.1:${bPort}${PATH}`;
const bare = async (name) => {
  const b = await startServer([process.execPath, bareScript], bUrl);
  const r = measure(name, b, bUrl);
  await stopServer(b);
  return r;
};

// Order: bare, mockdev, mockdev with 1,000 endpoints, bare again (drift); ratios use the mean
// of the two bare runs.
const bStart = await bare('bare node:http (start)');
results.push(bStart);

m = await serveDemo();
const mRes = measure('mockdev (logging on)', m, mUrl);
results.push(mRes);
await stopServer(m);

// Every request mockdev answered must be in the log.
const Database = require('better-sqlite3');
const db = new Database(join(dataDir, 'requests.db'), { readonly: true });
const logged = db.prepare('SELECT COUNT(*) AS n FROM requests WHERE project_id = ?').get(projectId).n;
db.close();
// + 3 probes: start-up check and sample of the first instance, start-up check of the second
const sent = mRes.requests + mRes.warmRequests + 3;
const slack = 2 * CONNS; // requests answered while the load generator was stopping are logged too

// The same with the default retention (10,000 records per project), as users run it: old
// records are deleted while the load runs.
const dPort = await freePort();
const dUrl = `http://127.0.0.1:${dPort}${PATH}`;
const retentionSettings = readFileSync(join(dataDir, 'settings.json'), 'utf8');
writeFileSync(join(dataDir, 'settings.json'), '{}');
const d = await startServer([process.execPath, cli, 'serve', demoDir, '-p', String(dPort)], dUrl);
const dRes = measure('mockdev (logging on, default retention)', d, dUrl);
results.push(dRes);
await stopServer(d);
writeFileSync(join(dataDir, 'settings.json'), retentionSettings);

let variedRes;
if (process.env.BENCH_SKIP_VARIATIONS !== '1') {
  const vPort = await freePort();
  const vUrl = `http://127.0.0.1:${vPort}${PATH}?variant=3`;
  const v = await startServer([process.execPath, cli, 'serve', variedDir, '-p', String(vPort)], vUrl);
  const check = await fetch(vUrl);
  if (check.status !== 200 || (await check.text()) !== sampleBody.toString('utf8'))
    throw new Error('the variations project does not answer like the demo');
  variedRes = measure('mockdev, 3 rule-based variations (3rd matches, by regex)', v, vUrl);
  results.push(variedRes);
  await stopServer(v);
}

let templatedRes;
if (process.env.BENCH_SKIP_TEMPLATES !== '1') {
  templatedRes = await measureTemplated({ cli, templatedDir, measurer, PATH });
  results.push(templatedRes.res);
}

let flowsRes;
if (process.env.BENCH_SKIP_FLOWS !== '1') {
  flowsRes = await flowBench(mRes);
  results.push(flowsRes.row);
}

let httpsRes;
if (process.env.BENCH_SKIP_HTTPS !== '1') httpsRes = await httpsBench();

let contractRes;
if (process.env.BENCH_SKIP_CONTRACT !== '1') contractRes = await contractBench();

let resourcesRes;
if (process.env.BENCH_SKIP_RESOURCES !== '1') resourcesRes = await resourcesBench();

let bigRes;
if (process.env.BENCH_SKIP_1000 !== '1') {
  const gPort = await freePort();
  const gUrl = `http://127.0.0.1:${gPort}${PATH}`;
  const g = await startServer([process.execPath, cli, 'serve', bigDir, '-p', String(gPort)], gUrl);
  bigRes = measure('mockdev, 1,000 endpoints', g, gUrl);
  results.push(bigRes);
  await stopServer(g);
}

const bEnd = await bare('bare node:http (end)');
results.push(bEnd);
const bRes = { rps: (bStart.rps + bEnd.rps) / 2, p99Ms: (bStart.p99Ms + bEnd.p99Ms) / 2 };

// Cold start: spawn -> first complete 200, the server pinned like the others. The log the runs
// above left (up to ~10,000 records, spool files of killed runs) is what a user's log looks like.
async function coldStart(argv, url) {
  const t0 = performance.now();
  const child = await startServer(argv, url, 5);
  const ms = performance.now() - t0;
  await stopServer(child);
  return ms;
}
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const coldBare = [];
const coldMockdev = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const bp = await freePort();
  coldBare.push(await coldStart([process.execPath, bareScript, String(bp)], `http://127.0.0.1:${bp}${PATH}`));
  const mp = await freePort();
  coldMockdev.push(
    await coldStart(
      [process.execPath, cli, 'serve', demoDir, '-p', String(mp)],
      `http://127.0.0.1:${mp}${PATH}`,
    ),
  );
}

// ---------------------------------------------------------------- report
const f = (n, d = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
    : 'n/a';
console.log('\n| server | req/s | p50 ms | p99 ms | CPU µs/req | idle RSS MiB | peak RSS MiB | errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of results)
  console.log(
    `| ${r.name} | ${f(r.rps)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 2)} | ${f(r.cpuUsPerReq, 1)} | ${f(r.idleRssMiB)} | ${f(r.rssMiB)} | ${r.errors || '0'} |`,
  );
const ratio = mRes.rps / bRes.rps;
const p99Ratio = mRes.p99Ms / bRes.p99Ms;
const dRatio = dRes.rps / bRes.rps;
const dP99Ratio = dRes.p99Ms / bRes.p99Ms;
console.log(`\nbare node:http, mean of start and end: ${f(bRes.rps)} req/s, p99 ${f(bRes.p99Ms, 2)} ms`);
console.log(
  `mockdev / bare req/s: ${ratio.toFixed(3)} (target >= 0.85) ${ratio >= 0.85 ? 'OK' : 'BELOW TARGET'}`,
);
console.log(
  `mockdev / bare p99:   ${p99Ratio.toFixed(2)} (target <= 1.5) ${p99Ratio <= 1.5 ? 'OK' : 'ABOVE TARGET'}`,
);
console.log(
  `with the default retention (deletes while serving): req/s ${dRatio.toFixed(3)}x, p99 ${dP99Ratio.toFixed(2)}x of bare`,
);
const countOk = logged >= sent && logged <= sent + slack;
console.log(
  `request log: ${f(logged)} records for ${f(sent)} requests counted by the load generator (+ up to ${slack} answered while it stopped): ${countOk ? 'OK' : 'MISMATCH'}`,
);
if (variedRes) {
  console.log(
    `3 rule-based variations (header regex, path param, query regex on the linear-time engine; the 3rd matches) vs plain: req/s ${(variedRes.rps / mRes.rps).toFixed(3)}x, CPU per request ${(variedRes.cpuUsPerReq / mRes.cpuUsPerReq).toFixed(3)}x, p99 ${f(variedRes.p99Ms, 2)} ms`,
  );
}
if (templatedRes) for (const line of templatedRes.lines(mRes)) console.log(line);
if (flowsRes) for (const line of flowsRes.lines) console.log(line);
if (httpsRes) for (const line of httpsRes.lines) console.log(line);
if (contractRes) for (const line of contractRes.lines) console.log(line);
if (resourcesRes) for (const line of resourcesRes.lines) console.log(line);
if (bigRes) {
  console.log(
    `1,000 endpoints vs 4: req/s ${(bigRes.rps / mRes.rps).toFixed(3)}x, CPU per request ${(bigRes.cpuUsPerReq / mRes.cpuUsPerReq).toFixed(3)}x, RSS idle ${f(bigRes.idleRssMiB)} MiB, peak under load ${f(bigRes.rssMiB)} MiB (target < 100)`,
  );
}
const coldRatio = median(coldMockdev) / median(coldBare);
console.log(
  `cold start (exec -> first answer, median of ${COLD_RUNS}): bare ${f(median(coldBare))} ms, mockdev serve ${f(median(coldMockdev))} ms: ${coldRatio.toFixed(2)}x (target <= 2) ${coldRatio <= 2 ? 'OK' : 'ABOVE TARGET'}`,
);
console.log(
  `  bare runs: ${coldBare.map((x) => f(x)).join(', ')}; mockdev runs: ${coldMockdev.map((x) => f(x)).join(', ')}`,
);
if (importLine) console.log(importLine);
if (importFormatsRes) for (const line of importFormatsRes.lines) console.log(line);
if (apiLines) for (const line of apiLines) console.log(line);
if (uiLines) for (const line of uiLines) console.log(line);
process.exitCode =
  countOk &&
  (flowsRes?.ok ?? true) &&
  (httpsRes?.ok ?? true) &&
  (contractRes?.ok ?? true) &&
  (importFormatsRes?.ok ?? true)
    ? 0
    : 1;
