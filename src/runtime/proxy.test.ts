import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { Endpoint } from '../core/model/endpoint.js';
import type { NewRecording } from '../core/ports.js';
import type { Exchange } from './exchange.js';
import { waitUntil } from '../../test/helpers/wait.js';
import { compileForward, type ProxyOptions } from './proxy.js';

const listening = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A front server answering every request through one proxy endpoint; returns its URL. */
async function front(e: Endpoint, options: ProxyOptions): Promise<{ url: string; server: Server }> {
  const forward = compileForward(e, options);
  const server = createServer((req, res) => {
    const ex = {
      req,
      res,
      method: req.method!,
      url: req.url!,
      start: performance.now(),
      body: null,
      bodyTruncated: false,
      endpoint: null,
    } as unknown as Exchange;
    void forward(ex).then((answer) => {
      if (answer.streamed) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  return { url: await listening(server), server };
}

const get = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });

const endpoint = (target: string): Endpoint => ({
  id: 'p1',
  name: 'upstream',
  method: 'GET',
  path: '/api/*',
  status: 200,
  headers: {},
  body: '',
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'proxy',
  proxy: { target, record: true },
  variations: [],
});

describe('proxy: a target rendered with the environment', () => {
  it('masks secrets in recordings and in the 502 it answers, and forwards with the real value', async (t) => {
    const seen: string[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.url!);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    const base = await listening(upstream);
    t.after(() => closed(upstream));
    const secret = 's3cr3t/key+1';
    const recordings: NewRecording[] = [];
    const options: ProxyOptions = {
      bodyLimitBytes: 1000,
      record: (r) => recordings.push(r),
      templates: { env: { BASE: base, KEY: secret }, secrets: [secret] },
    };
    const ok = await front(endpoint('{{env.BASE}}/v1?key={{urlEncode env.KEY}}'), options);
    t.after(() => closed(ok.server));
    const answer = await get(`${ok.url}/api/users`);
    assert.equal(answer.status, 200);
    assert.equal(seen[0], `/v1/users?key=${encodeURIComponent(secret)}`, 'the target gets the real value');
    await waitUntil(() => recordings.length === 1, 'the recording (taken off the request path)');
    assert.ok(!JSON.stringify(recordings[0]).includes(encodeURIComponent(secret)), recordings[0]!.target);
    assert.match(recordings[0]!.target, /key=\*{8}$/);

    // An unreachable target: the 502's text never carries the secret.
    const down = createServer();
    const downUrl = await listening(down);
    await closed(down);
    const failing = await front(endpoint(`${downUrl}/{{env.KEY}}`), { ...options, record: undefined });
    t.after(() => closed(failing.server));
    const bad = await get(`${failing.url}/api/x`);
    assert.equal(bad.status, 502);
    assert.ok(!bad.body.includes(secret) && !bad.body.includes(encodeURIComponent(secret)), bad.body);
    assert.match(bad.body, /\*{8}/);
  });
  it('masks a secret host however the URL parser wrote it (lower-cased), and a secret whole origin', async (t) => {
    const down = createServer();
    const port = Number(new URL(await listening(down)).port);
    await closed(down);
    const env = { HOST: 'LocalHost', BASE: `http://LocalHost:${port}` };
    for (const [target, secret, shown] of [
      [`http://{{env.HOST}}:${port}/v1`, env.HOST, `http://********:${port}/v1/x`],
      ['{{lowercase env.BASE}}/v1', env.BASE, '********'],
    ] as const) {
      const options: ProxyOptions = { bodyLimitBytes: 1000, templates: { env, secrets: [secret] } };
      const failing = await front(endpoint(target), options);
      t.after(() => closed(failing.server));
      const bad = await get(`${failing.url}/api/x`);
      assert.equal(bad.status, 502, bad.body);
      assert.ok(!/localhost/i.test(bad.body), bad.body);
      assert.ok(bad.body.includes(shown), `${bad.body} shows ${shown}`);
    }
  });
});
