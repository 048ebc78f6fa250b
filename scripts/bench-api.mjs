// The admin API measurement of `npm run bench` (also `node scripts/bench-api.mjs` alone, after
// `npm run build`): a spawned `mockdev ui` answering
//   GET /api/v1/projects/{p}/requests?limit=200 over 100,000 logged records, and
//   GET /api/v1/projects/{p}/endpoints of a 1,000-endpoint project (when that route exists),
// each the median and p95 of BENCH_API_RUNS calls (default 50) after a warm-up call; target
// < 50 ms. The records are logged by a `mockdev serve` sent 100,000 requests (retention raised).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const RECORDS = 100_000;
const ENDPOINTS = 1000;
const TARGET_MS = 50;

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Spawns `mockdev <args>` and waits for a URL on its output. */
async function spawnWithUrl(cli, args, env, re) {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => (out += d));
  const deadline = Date.now() + 30_000;
  while (!re.exec(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`mockdev ${args.join(' ')} did not start:\n${out}`);
    }
    await sleep(20);
  }
  return { child, url: re.exec(out)[1] };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** Sends `count` GETs over `connections` keep-alive connections. */
async function load(url, count, connections = 32) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < count) {
        sent++;
        await one();
      }
    }),
  );
  agent.destroy();
}

/** Times `runs` calls of a URL (after one warm-up call); null when the route does not exist. */
async function time(url, runs) {
  const first = await fetch(url);
  const body = await first.text();
  if (first.status === 404 && body.includes('No admin API route')) return null;
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${body}`);
  const times = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    const text = await res.text();
    times.push(performance.now() - t0);
    size = JSON.parse(text).length;
  }
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), size };
}

export async function measureAdminApi({ cli, runs = Number(process.env.BENCH_API_RUNS ?? 50) }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-bench-api-'));
  const env = { ...process.env, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'warn' };
  const mockdev = (...args) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mockdev ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const children = [];
  try {
    mockdev('settings', 'update', '--request-log-limit', String(RECORDS * 2));
    const logged = JSON.parse(mockdev('project', 'create', 'logged', '--json'));
    mockdev('endpoint', 'add', 'logged', '-p', '/ping', '-b', '{"pong":true}');
    const big = JSON.parse(mockdev('project', 'create', 'big', '--json'));
    const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => ({
      id: `bench${i}`,
      name: `endpoint ${i}`,
      method: 'GET',
      path: `/api/resource${i}/:id`,
      status: 200,
      headers: {},
      body: `{"n":${i}}`,
      contentType: 'application/json',
      delay: 0,
      enabled: true,
      kind: 'mock',
      variations: [],
    }));
    const bigDir = join(dataDir, 'projects', big.id);
    writeFileSync(join(bigDir, '.endpoints.tmp'), JSON.stringify(endpoints, null, 2));
    renameSync(join(bigDir, '.endpoints.tmp'), join(bigDir, 'endpoints.json'));

    const serve = await spawnWithUrl(cli, ['serve', 'logged', '-p', '0'], env, /(http:\/\/127\.0\.0\.1:\d+)/);
    children.push(serve.child);
    const t0 = performance.now();
    await load(`${serve.url}/ping`, RECORDS);
    const fillSecs = (performance.now() - t0) / 1000;
    await stop(serve.child);

    const ui = await spawnWithUrl(
      cli,
      ['ui', '-p', '0'],
      { ...env, MOCKDEV_LOG_LEVEL: 'info' },
      /admin API on (http:\/\/[^\s)]+)/,
    );
    children.push(ui.child);
    const api = `${ui.url}/api/v1`;
    const requests = await time(`${api}/projects/${logged.id}/requests?limit=200`, runs);
    const eps = await time(`${api}/projects/${big.id}/endpoints`, runs);
    const line = (what, r) =>
      r === null
        ? `${what}: the route does not exist yet`
        : `${what} (${r.size} items): median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms (target < ${TARGET_MS}) ${r.p95 < TARGET_MS ? 'OK' : 'ABOVE TARGET'}`;
    return [
      `admin API, ${runs} calls each (${RECORDS.toLocaleString('en')} records logged in ${fillSecs.toFixed(1)} s):`,
      `  ${line(`GET …/requests?limit=200 over ${RECORDS.toLocaleString('en')} records`, requests)}`,
      `  ${line(`GET …/endpoints of ${ENDPOINTS.toLocaleString('en')} endpoints`, eps)}`,
    ].join('\n');
  } finally {
    for (const c of children) await stop(c);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('..', import.meta.url).pathname;
  console.log(await measureAdminApi({ cli: join(root, 'dist', 'cli', 'main.js') }));
}
