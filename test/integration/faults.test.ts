/**
 * Faults and delay distributions (issue 26) on the wire, against a mock server in process (the
 * server `serve` runs): each fault as a raw socket client sees it (reset, empty, garbage, drip at
 * its rate), a fault rate over 200 requests with another client answered throughout, sampled
 * delays applied, and the request log recording the delay applied and the fault sent.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { apiSandbox } from '../helpers/api.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

interface Outcome {
  /** The socket's error code (ECONNRESET), or null when it closed cleanly. */
  error: string | null;
  data: Buffer;
  /** From the request written to the socket closed. */
  ms: number;
}

/** One GET on a socket of its own (Connection: close), read until the socket closes. */
function rawGet(port: number, path: string, timeoutMs = 20_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let error: string | null = null;
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      sent = performance.now();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${path}: the socket stayed open ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ error, data: Buffer.concat(chunks), ms: performance.now() - sent });
    });
  });
}

const DRIP_BODY = 'x'.repeat(2000);

async function faultServer(t: { after(fn: () => unknown): void }) {
  const api = apiSandbox(t);
  await makeProject(api.dataDir, 'faulty', [
    { path: '/reset', body: '{"never":"sent"}', fault: 'reset' },
    { path: '/empty', body: '{"never":"sent"}', fault: 'empty' },
    { path: '/garbage', body: '{"never":"sent"}', fault: 'garbage' },
    { path: '/drip', body: DRIP_BODY, contentType: 'text/plain', fault: 'drip:1000' },
    { path: '/half', body: '{"ok":true}', fault: 'reset', faultRate: 0.5 },
    { path: '/ok', body: '{"ok":true}' },
    { path: '/uniform', body: '{}', delay: { uniform: [300, 400] } },
    { path: '/lognormal', body: '{}', delay: { lognormal: { median: 150, sigma: 0.3 } } },
    {
      path: '/variation',
      body: '{}',
      variations: [{ id: 'v', name: 'broken', status: 200, headers: {}, delay: 0, fault: 'empty' }],
      activeVariationId: 'v',
    },
  ]);
  const server = await startServer(api.ctx, { project: 'faulty', port: 0 });
  t.after(() => server.stop());
  const requests = async () =>
    (await api.call('GET', '/api/v1/projects/faulty/requests?limit=1000')).json as RequestRecord[];
  return { api, server, port: Number(new URL(server.url).port), requests };
}

describe('faults', () => {
  it('reset, empty, garbage and a drip at its rate, as a raw socket client sees them; the log records each', async (t) => {
    const { port, requests } = await faultServer(t);

    const reset = await rawGet(port, '/reset');
    assert.equal(reset.error, 'ECONNRESET');
    assert.equal(reset.data.length, 0);

    const empty = await rawGet(port, '/empty');
    assert.deepEqual([empty.error, empty.data.length], [null, 0]);
    const variation = await rawGet(port, '/variation');
    assert.deepEqual([variation.error, variation.data.length], [null, 0], "a variation's own fault");

    const garbage = await rawGet(port, '/garbage');
    assert.equal(garbage.error, null);
    assert.ok(garbage.data.length >= 64, `${garbage.data.length} bytes`);
    assert.ok(!garbage.data.toString('latin1').startsWith('HTTP/'), 'not an HTTP answer');

    // 2,000 bytes at 1,000 bytes per second: about two seconds, within 20 %.
    const drip = await rawGet(port, '/drip');
    assert.equal(drip.error, null);
    const text = drip.data.toString('latin1');
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.ok(text.endsWith(`\r\n\r\n${DRIP_BODY}`), 'the whole answer, slowly');
    assert.ok(drip.ms >= 1600 && drip.ms <= 2400, `dripped in ${Math.round(drip.ms)} ms`);

    await waitUntil(async () => (await requests()).length === 5, 'the five requests logged');
    const byPath = Object.fromEntries((await requests()).map((r) => [r.path, r]));
    assert.deepEqual(
      ['/reset', '/empty', '/variation', '/garbage', '/drip'].map((p) => [
        p,
        byPath[p]!.status,
        byPath[p]!.fault,
      ]),
      [
        ['/reset', 0, 'reset'],
        ['/empty', 0, 'empty'],
        ['/variation', 0, 'empty'],
        ['/garbage', 0, 'garbage'],
        ['/drip', 200, 'drip:1000'],
      ],
    );
  });

  it('a fault rate of 0.5 over 200 requests faults 70 to 130 of them; other clients are answered throughout', async (t) => {
    const { port, server } = await faultServer(t);
    let others = 0;
    let running = true;
    const other = (async () => {
      while (running) {
        const res = await fetch(`${server.url}/ok`);
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { ok: true });
        others++;
      }
    })();
    let faults = 0;
    let answers = 0;
    for (let i = 0; i < 200; i++) {
      const got = await rawGet(port, '/half');
      if (got.error === 'ECONNRESET') faults++;
      else {
        assert.match(got.data.toString('latin1'), /^HTTP\/1\.1 200 [^]*\{"ok":true\}$/);
        answers++;
      }
    }
    running = false;
    await other;
    assert.equal(faults + answers, 200);
    assert.ok(faults >= 70 && faults <= 130, `${faults} faults of 200`);
    assert.ok(others >= 10, `the other client was answered ${others} times meanwhile`);
    const after = await fetch(`${server.url}/ok`);
    assert.equal(after.status, 200, 'the server is well after all those resets');
  });

  it('sampled delays hold the answer back and the log records the delay applied', async (t) => {
    const { server, requests } = await faultServer(t);
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const start = performance.now();
      const res = await fetch(`${server.url}/uniform`);
      await res.text();
      times.push(performance.now() - start);
    }
    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/lognormal`)).text();
    assert.ok(Math.min(...times) >= 290, `answered after ${times.map(Math.round).join(', ')} ms`);
    await waitUntil(async () => (await requests()).length === 7, 'the seven requests logged');
    const logged = await requests();
    const uniform = logged.filter((r) => r.path === '/uniform').map((r) => r.delayMs!);
    assert.equal(uniform.length, 4);
    assert.ok(
      uniform.every((d) => d >= 300 && d <= 400),
      `delays ${uniform.join(', ')}`,
    );
    const lognormal = logged.filter((r) => r.path === '/lognormal').map((r) => r.delayMs);
    assert.ok(
      lognormal.every((d) => typeof d === 'number' && d > 0),
      `delays ${lognormal.join(', ')}`,
    );
    const plain = await fetch(`${server.url}/ok`);
    await plain.text();
    await waitUntil(async () => (await requests()).length === 8, 'the plain request logged');
    const last = (await requests())[0]!;
    assert.deepEqual([last.path, 'delayMs' in last, 'fault' in last], ['/ok', false, false]);
  });
});

describe('a dripping answer when the server stops', () => {
  it('is sent whole at once, and the server stops', async (t) => {
    const api = apiSandbox(t);
    const body = 'y'.repeat(5000);
    await makeProject(api.dataDir, 'slow', [
      { path: '/drip', body, contentType: 'text/plain', fault: 'drip:10' },
    ]);
    const server = await startServer(api.ctx, { project: 'slow', port: 0 });
    let stopped = false;
    t.after(() => (stopped ? undefined : server.stop()));
    // 5,000 bytes at 10 a second: more than eight minutes unless the stop sends the rest.
    let received = '';
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () =>
      socket.write('GET /drip HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    t.after(() => socket.destroy());
    await waitUntil(() => /\r\n\r\ny/.test(received), 'the drip under way');
    assert.ok(received.length < 1000, 'only a little of it so far');
    await server.stop();
    stopped = true;
    await closed;
    assert.ok(received.endsWith(`\r\n\r\n${body}`), 'the whole answer');
  });
});

describe('a fault on a proxy endpoint', () => {
  it('reset forwards nothing; drip leaves the forwarded answer as the target sends it', async (t) => {
    let hits = 0;
    const target = createServer((_req, res) => {
      hits++;
      res.end('{"from":"target"}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => target.close(resolve)));
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const api = apiSandbox(t);
    await makeProject(api.dataDir, 'fwd', [
      { path: '/reset/*', kind: 'proxy', proxy: { target: base, record: false }, fault: 'reset' },
      { path: '/drip/*', kind: 'proxy', proxy: { target: base, record: false }, fault: 'drip:1' },
    ]);
    const server = await startServer(api.ctx, { project: 'fwd', port: 0 });
    t.after(() => server.stop());
    const port = Number(new URL(server.url).port);
    const reset = await rawGet(port, '/reset/x');
    assert.deepEqual([reset.error, hits], ['ECONNRESET', 0]);
    // At one byte a second a drip would take 17 s: the forwarded answer comes as the target sends it.
    const forwarded = await rawGet(port, '/drip/x', 10_000);
    assert.match(forwarded.data.toString('latin1'), /\{"from":"target"\}$/);
    assert.equal(hits, 1);
  });
});
