// The admin API measurement of `npm run bench` (issue 13): a spawned `mockdev ui` (the built
// dist/cli/main.js) over a data dir holding a project of 1,000 endpoints whose request log has
// 100,000 records. Timed, one call at a time over one keep-alive connection, after one warm-up
// call each: GET /api/v1/projects/{p}/endpoints and GET /api/v1/projects/{p}/requests?limit=200,
// BENCH_API_CALLS calls (default 20) each; the median and p95 of the time from sending the
// request to the last byte of the answer, against the target of 50 ms. The records are written
// through the request log's own writer (scripts/bench-api-fill.mjs) rather than served.
// A route this build does not have yet is said so; GET /api/v1/projects (the list) and
// GET /api/v1/projects/{p} (the project with its endpoints) are measured beside them, with no target.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const TARGET_MS = 50;
const ENDPOINTS = 1000;
const N = (n) => n.toLocaleString('en-US');
const RECORDS = 100_000;

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** 1,000 endpoints as a user's project has them: lists, items with a parameter, writes. */
export function endpoints() {
  const base = { headers: {}, contentType: 'application/json', delay: 0, enabled: true, kind: 'mock' };
  const out = [];
  for (let i = 0; out.length < ENDPOINTS; i++) {
    const item = {
      id: 1,
      name: `item of r${i}`,
      price: 9.99,
      tags: ['a', 'b'],
      createdAt: '2026-01-01T00:00:00Z',
    };
    out.push(
      {
        ...base,
        id: `r${i}a`,
        name: `r${i} list`,
        method: 'GET',
        path: `/api/r${i}/items`,
        status: 200,
        body: JSON.stringify([item, item]),
        variations: [],
      },
      {
        ...base,
        id: `r${i}b`,
        name: `r${i} one`,
        method: 'GET',
        path: `/api/r${i}/items/{itemId}`,
        status: 200,
        body: JSON.stringify(item),
        variations: [
          {
            id: `r${i}b-404`,
            name: 'missing',
            status: 404,
            headers: {},
            body: '{"error":"not found"}',
            contentType: 'application/json',
            delay: 0,
            rules: [{ source: 'param', key: 'itemId', op: 'equals', value: '0' }],
          },
        ],
      },
      {
        ...base,
        id: `r${i}c`,
        name: `r${i} create`,
        method: 'POST',
        path: `/api/r${i}/items`,
        status: 201,
        body: JSON.stringify(item),
        variations: [],
      },
      {
        ...base,
        id: `r${i}d`,
        name: `r${i} delete`,
        method: 'DELETE',
        path: `/api/r${i}/items/{itemId}`,
        status: 204,
        body: '',
        variations: [],
      },
    );
  }
  return out.slice(0, ENDPOINTS);
}

/** One GET over the keep-alive agent: status, body text and ms from send to the last byte. */
function get(agent, url) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Runs the measurement; returns the lines to print. `env` is the bench's environment (no data
 * dir of its own is used: this one makes its own).
 */
export async function measureAdminApi({ root, cli, env: baseEnv, calls = 20 }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-bench-api-'));
  const env = { ...baseEnv, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'warn' };
  delete env.MOCKDEV_UI_TOKEN;
  let child;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const mockdev = (...args) => execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ requestLogLimit: 10 * RECORDS }));
    const project = JSON.parse(mockdev('project', 'create', 'apibench', '--json'));
    writeFileSync(
      join(dataDir, 'projects', project.id, 'endpoints.json'),
      JSON.stringify(endpoints(), null, 2),
    );

    const fill = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'scripts', 'bench-api-fill.mjs'),
          dataDir,
          project.id,
          String(RECORDS),
        ],
        { cwd: root, env, encoding: 'utf8' },
      ),
    );
    if (fill.written !== RECORDS)
      throw new Error(`the request log took ${fill.written} of ${RECORDS} records`);

    child = spawn(process.execPath, [cli, 'ui', '-p', '0'], {
      env: { ...env, MOCKDEV_LOG_LEVEL: 'info' }, // the URL line is at info level
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d) => (printed += d));
    const deadline = Date.now() + 20_000;
    let base;
    while (!(base = /admin API on (http:\/\/\S+:\d+)/.exec(printed)?.[1])) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`mockdev ui did not start: ${printed}`);
      await sleep(20);
    }
    const api = `${base}/api/v1`;
    const p = encodeURIComponent(project.id);
    const targets = [
      {
        name: `GET /projects/{p}/endpoints (${N(ENDPOINTS)} endpoints)`,
        url: `${api}/projects/${p}/endpoints`,
        expect: (j) => (Array.isArray(j) ? j : j.endpoints)?.length === ENDPOINTS,
        target: true,
      },
      {
        name: `GET /projects/{p}/requests?limit=200 (of ${N(RECORDS)} records)`,
        url: `${api}/projects/${p}/requests?limit=200`,
        expect: (j) => (Array.isArray(j) ? j : j.requests)?.length === 200,
        target: true,
      },
      {
        name: `GET /projects/{p}/requests?limit=200&path=/r7/ (a path filter, of ${N(RECORDS)} records)`,
        url: `${api}/projects/${p}/requests?limit=200&path=${encodeURIComponent('/r7/')}`,
        expect: (j) => Array.isArray(j) && j.length === 200 && j.every((r) => r.path.includes('/r7/')),
      },
      {
        // The request log's charts (issue 24): the records are 100 ms apart, so the last 15 minutes
        // hold 9,000 of them and the last day all of them.
        name: `GET /projects/{p}/requests/stats (the charts of the last 15 minutes, of ${N(RECORDS)} records)`,
        url: `${api}/projects/${p}/requests/stats`,
        expect: (j) => j.rate?.length === 60 && j.total >= 8000,
        target: true,
      },
      {
        name: `GET /projects/{p}/requests/stats?minutes=1440 (the charts of a day: every record)`,
        url: `${api}/projects/${p}/requests/stats?minutes=1440`,
        expect: (j) => j.total === RECORDS,
      },
      {
        name: `GET /projects (the list, one project of ${N(ENDPOINTS)} endpoints)`,
        url: `${api}/projects`,
        expect: (j) => Array.isArray(j) && j.length === 1,
      },
      {
        name: `GET /projects/{p} (the project with its ${N(ENDPOINTS)} endpoints)`,
        url: `${api}/projects/${p}`,
        expect: (j) => j.endpoints?.length === ENDPOINTS,
      },
    ];
    const lines = [
      `admin API (mockdev ui, dist build): ${N(ENDPOINTS)} endpoints, ${N(RECORDS)} request-log records written through the log's own writer in ${Math.round(fill.ms)} ms (scripts/bench-api-fill.mjs); ${calls} sequential calls each after 1 warm-up, one keep-alive connection, send -> last byte`,
    ];
    let allOk = true;
    for (const t of targets) {
      const warm = await get(agent, t.url);
      if (warm.status === 404 && /No admin API route/.test(warm.body)) {
        lines.push(`  ${t.name}: not on this build (the route is not there yet): not measured`);
        if (t.target) allOk = false;
        continue;
      }
      if (warm.status !== 200 || !t.expect(JSON.parse(warm.body)))
        throw new Error(`${t.url} answered ${warm.status}: ${warm.body.slice(0, 300)}`);
      const times = [];
      for (let i = 0; i < calls; i++) {
        const r = await get(agent, t.url);
        if (r.status !== 200) throw new Error(`${t.url} answered ${r.status}: ${r.body.slice(0, 300)}`);
        times.push(r.ms);
      }
      const med = percentile(times, 50);
      const p95 = percentile(times, 95);
      const ok = p95 < TARGET_MS;
      if (t.target) allOk &&= ok;
      lines.push(
        `  ${t.name}: median ${med.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ${(Buffer.byteLength(warm.body) / 1024).toFixed(0)} KiB` +
          (t.target ? ` (target < ${TARGET_MS} ms) ${ok ? 'OK' : 'ABOVE TARGET'}` : ' (no target)'),
      );
    }
    return { lines, ok: allOk };
  } finally {
    agent.destroy();
    if (child && child.exitCode === null) {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: node scripts/bench-api.mjs (after npm run build).
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const { lines, ok } = await measureAdminApi({
    root,
    cli: join(root, 'dist', 'cli', 'main.js'),
    env: process.env,
    calls: Number(process.env.BENCH_API_CALLS ?? 20),
  });
  for (const l of lines) console.log(l);
  process.exitCode = ok ? 0 : 1;
}
