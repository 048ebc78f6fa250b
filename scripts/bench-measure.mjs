// The measuring side of `npm run bench` (scripts/bench.mjs): starting and stopping servers,
// running the load generator (wrk, else autocannon, else scripts/bench-load.mjs) pinned to core 1
// while servers are pinned to core 0, and reading a process's CPU time and memory from /proc.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The measuring functions over one bench run's settings: `env` for the servers it starts,
 * `children` (a Set) where it keeps them, `root` of the package, the load's duration and
 * warm-up (s) and its connection count.
 */
/** The fields of a plain mock endpoint the bench's generated projects share (endpoints.json). */
export const MOCK_ENDPOINT = {
  headers: {},
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
};

export function createMeasurer({ env, children, root, DURATION, WARMUP, CONNS }) {
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  const TASKSET = process.platform === 'linux' && has('taskset');
  const pin = (core, argv) => (TASKSET ? ['taskset', '-c', String(core), ...argv] : argv);
  const require = createRequire(import.meta.url);
  let autocannon;
  try {
    autocannon = require.resolve('autocannon/autocannon.js');
  } catch {
    autocannon = undefined;
  }
  const LOADGEN = has('wrk') ? 'wrk' : autocannon ? 'autocannon' : 'node';

  /** A GET of `url`, its body read: its status. */
  const fetchStatus = async (url) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  };

  /**
   * Spawns a server, polls `url` every `pollMs` until it answers 200 (body read; `status` makes
   * the request, e.g. over HTTPS with the bench's CA); returns the child.
   */
  async function startServer(argv, url, pollMs = 50, status = fetchStatus) {
    const [cmd, ...args] = pin(0, argv);
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    children.add(child);
    child.on('exit', () => children.delete(child));
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        if ((await status(url)) === 200) return child;
      } catch {
        /* not up yet */
      }
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`server ${argv.join(' ')} did not start`);
      await sleep(pollMs);
    }
  }

  async function stopServer(child) {
    if (child.exitCode !== null) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await done;
    clearTimeout(t);
  }

  const cpuTicks = (pid) => {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      return Number(f[11]) + Number(f[12]);
    } catch {
      return NaN;
    }
  };
  const rssMiB = (pid) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };
  const peakRssMiB = (pid) => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };
  const TICK_US = 1e6 / 100; // USER_HZ on Linux

  const toMs = (v, unit) => Number(v) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);

  /** Runs a node load generator of scripts/ (pinned to core 1) with `args`; its JSON line. */
  const nodeLoad = (script, args) => {
    const argv = pin(1, [process.execPath, join(root, 'scripts', script), ...args]);
    return JSON.parse(execFileSync(argv[0], argv.slice(1), { encoding: 'utf8' }));
  };

  /** wrk's script for a JSON POST of `body` (written once per body). */
  const wrkScripts = new Map();
  const wrkPost = (body) => {
    if (!wrkScripts.has(body)) {
      const file = join(mkdtempSync(join(tmpdir(), 'mockdev-bench-wrk-')), 'post.lua');
      writeFileSync(
        file,
        `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`,
      );
      wrkScripts.set(body, file);
    }
    return ['-s', wrkScripts.get(body)];
  };

  /**
   * Runs the load generator (GETs, or with `post` JSON POSTs of `post.body`); returns
   * { requests, rps, p50Ms, p99Ms, errors }.
   */
  function load(url, secs, post) {
    if (LOADGEN === 'wrk') {
      const out = execFileSync(
        pin(1, ['wrk'])[0],
        [
          ...pin(1, ['wrk']).slice(1),
          '-t1',
          `-c${CONNS}`,
          `-d${secs}s`,
          '--latency',
          ...(post ? wrkPost(post.body) : []),
          url,
        ],
        { encoding: 'utf8' },
      );
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
      const lat = (p) => {
        const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
        return m ? toMs(m[1], m[2]) : NaN;
      };
      const errors = /Socket errors: (.*)/.exec(out)?.[1] ?? '';
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      return {
        requests,
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
        p50Ms: lat(50),
        p99Ms: lat(99),
        errors: errors + (non2xx ? ` non2xx ${non2xx}` : ''),
      };
    }
    if (LOADGEN === 'autocannon') {
      const posting = post ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', post.body] : [];
      const argv = pin(1, [
        process.execPath,
        autocannon,
        '-c',
        String(CONNS),
        '-d',
        String(secs),
        ...posting,
        '-j',
        url,
      ]);
      const out = JSON.parse(
        execFileSync(argv[0], argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      );
      return {
        requests: out.requests.total,
        rps: out.requests.average,
        p50Ms: out.latency.p50,
        p99Ms: out.latency.p99,
        errors: String(out.errors || ''),
      };
    }
    const out = nodeLoad('bench-load.mjs', [
      url,
      String(CONNS),
      String(secs),
      ...(post ? ['POST', post.body] : []),
    ]);
    return {
      requests: out.requests,
      rps: out.requests / out.durationS,
      p50Ms: out.p50Ms,
      p99Ms: out.p99Ms,
      errors: out.errors ? String(out.errors) : '',
    };
  }

  /** Warm-up, then the measured window; CPU per request from /proc when available. */
  function measure(name, child, url) {
    const idleRssMiB = rssMiB(child.pid);
    const warm = load(url, WARMUP);
    const t0 = cpuTicks(child.pid);
    const r = load(url, DURATION);
    const t1 = cpuTicks(child.pid);
    return {
      name,
      ...r,
      warmRequests: warm.requests,
      cpuUsPerReq: ((t1 - t0) * TICK_US) / r.requests,
      idleRssMiB,
      rssMiB: peakRssMiB(child.pid),
    };
  }

  /**
   * Two endpoints of one server measured in turn, ROUNDS times each (DURATION / ROUNDS seconds a
   * turn, after one warm-up of each): both see the same machine state, so their ratio is not moved
   * by drift between runs measured apart. Returns the req/s and CPU per request of each. A
   * target is a URL to GET, or `{ url, post: { body } }` to POST JSON to.
   */
  function measurePair(child, urlA, urlB, rounds = 4) {
    const load1 = (target, secs) =>
      typeof target === 'string' ? load(target, secs) : load(target.url, secs, target.post);
    load1(urlA, 1);
    load1(urlB, 1);
    const total = { a: { requests: 0, secs: 0, ticks: 0 }, b: { requests: 0, secs: 0, ticks: 0 } };
    const secs = Math.max(1, Math.round(DURATION / rounds));
    for (let i = 0; i < rounds; i++)
      for (const [key, url] of [
        ['a', urlA],
        ['b', urlB],
      ]) {
        const t0 = cpuTicks(child.pid);
        const r = load1(url, secs);
        total[key].ticks += cpuTicks(child.pid) - t0;
        total[key].requests += r.requests;
        total[key].secs += secs;
      }
    const of = (t) => ({ rps: t.requests / t.secs, cpuUsPerReq: (t.ticks * TICK_US) / t.requests });
    return { a: of(total.a), b: of(total.b), rounds, secs };
  }

  const freePort = async () => {
    const { createServer } = await import('node:net');
    return new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address();
        s.close(() => resolve(port));
      });
    });
  };

  return {
    LOADGEN,
    TASKSET,
    pin,
    nodeLoad,
    startServer,
    stopServer,
    cpuTicks,
    rssMiB,
    peakRssMiB,
    TICK_US,
    load,
    measure,
    measurePair,
    freePort,
  };
}
