// Flows (issue 21) in `npm run bench`: requests/s of an endpoint whose every request starts a run
// of a flow with one callback to a local receiver, beside the plain endpoint of the same server
// (alternating turns), and the count of callbacks the receiver got against the requests that
// endpoint logged: all of them, each once. The receiver is a node:http server of its own process,
// pinned with the load generator (core 1), so the mock server's core does the flow's work only.
// `BENCH_ONLY_FLOWS=1 npm run bench` runs this alone.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const PATH = '/api/users/42';
const FLOWED_PATH = '/api/flowed/users/42';

/** Spawns the callback receiver (pinned to core 1); resolves with its URL and a way to read its counts. */
async function startReceiver({ dataDir, pin, freePort, children }) {
  const script = join(dataDir, 'flow-receiver.cjs');
  writeFileSync(
    script,
    `const http = require('node:http');
let total = 0;
const runs = new Set();
http.createServer((req, res) => {
  if (req.method === 'GET') {
    const body = JSON.stringify({ total, distinct: runs.size });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    return res.end(body);
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    total++;
    try { runs.add(JSON.parse(body).run); } catch {}
    res.writeHead(204);
    res.end();
  });
}).listen(Number(process.argv[2]), '127.0.0.1');`,
  );
  const port = await freePort();
  const [cmd, ...args] = pin(1, [process.execPath, script, String(port)]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  // A keep-alive connection left idle while the (blocking) load ran may have been closed: retried.
  const counts = async (tries = 3) => {
    try {
      return await (await fetch(`${url}/count`)).json();
    } catch (e) {
      if (tries <= 1) throw e;
      return counts(tries - 1);
    }
  };
  for (let i = 0; ; i++) {
    try {
      await counts();
      break;
    } catch {
      if (i > 400) throw new Error('the flow callback receiver did not start');
      await sleep(25);
    }
  }
  return { url, counts, child };
}

/**
 * Measures the flow scenario. Takes the bench's measurer (scripts/bench-measure.mjs) and its
 * settings; returns the row for the table and the summary lines.
 */
export async function measureFlows({ cli, dataDir, mockdev, measurer, children, plain }) {
  const { startServer, stopServer, measure, measurePair, freePort, pin } = measurer;
  const receiver = await startReceiver({ dataDir, pin, freePort, children });
  const dir = join(dataDir, 'flowed');
  mockdev('init', dir, '--name', 'flowed', '--with-examples');
  const endpoints = JSON.parse(readFileSync(join(dir, 'endpoints.json'), 'utf8'));
  const user = endpoints.find((e) => e.method === 'GET' && /^\/api\/users\/[:{]/.test(e.path));
  const flowed = {
    ...user,
    id: 'flowed-user',
    name: `${user.name} (flow)`,
    path: user.path.replace('/api/users/', '/api/flowed/users/'),
  };
  endpoints.push(flowed);
  writeFileSync(join(dir, 'endpoints.json'), JSON.stringify(endpoints, null, 2));
  const flows = [
    {
      id: 'bench-flow',
      name: 'bench flow',
      description: '',
      enabled: true,
      steps: [
        {
          id: 'notify',
          trigger: { type: 'request', endpointId: flowed.id },
          action: {
            type: 'callback',
            method: 'POST',
            url: `${receiver.url}/hook`,
            headers: {},
            body: '{"run":"{{run.id}}","user":"{{params.id}}"}',
            timeoutMs: 10000,
            retries: 0,
          },
        },
      ],
    },
  ];
  writeFileSync(join(dir, 'flows.json'), JSON.stringify(flows, null, 2));
  const projectId = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')).id;

  const port = await freePort();
  const url = `http://127.0.0.1:${port}${FLOWED_PATH}`;
  const server = await startServer([process.execPath, cli, 'serve', dir, '-p', String(port)], url);
  const row = measure('mockdev, endpoint starting a flow (one callback each)', server, url);
  const pair = measurePair(server, `http://127.0.0.1:${port}${PATH}`, url);
  // Callbacks still under way finish before the stop (which would cancel them after 5 s).
  let last = -1;
  let counts = await receiver.counts();
  for (let stable = 0, waited = 0; stable < 5 && waited < 600; waited++) {
    await sleep(200);
    counts = await receiver.counts();
    stable = counts.total === last ? stable + 1 : 0;
    last = counts.total;
  }
  await stopServer(server);
  receiver.child.kill('SIGTERM');

  const Database = createRequire(import.meta.url)('better-sqlite3');
  const db = new Database(join(dataDir, 'requests.db'), { readonly: true });
  const logged = db
    .prepare('SELECT COUNT(*) AS n FROM requests WHERE project_id = ? AND endpoint_id = ?')
    .get(projectId, flowed.id).n;
  db.close();
  const ok = counts.total === logged && counts.distinct === logged;
  const f = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const { a, b, rounds, secs } = pair;
  const lines = [
    `flow per request (one callback to a local receiver) vs the plain endpoint, same server, ${rounds} alternating ${secs}s turns each: ` +
      `${f(b.rps)} vs ${f(a.rps)} req/s = ${(b.rps / a.rps).toFixed(3)}x, CPU per request ${f(b.cpuUsPerReq, 1)} vs ${f(a.cpuUsPerReq, 1)} µs` +
      (plain
        ? `; its own row vs the plain row: ${(row.rps / plain.rps).toFixed(3)}x, p99 ${f(row.p99Ms, 2)} ms`
        : ''),
    `flow callbacks: ${f(counts.total)} received (${f(counts.distinct)} distinct runs) for ${f(logged)} requests logged on the flow's endpoint: ${ok ? 'OK (all, each once)' : 'MISMATCH'}`,
  ];
  return { row, lines, ok };
}
