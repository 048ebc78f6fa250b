import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { json, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { makeProject, startServe, waitUntil, type ServeHandle } from '../helpers/server.js';

interface Rec {
  id: string;
  method: string;
  path: string;
  status: number;
  endpointId: string | null;
  body: string;
  truncated: boolean;
  query: Record<string, unknown>;
  response: { status: number; body: string; headers: Record<string, string> };
}

/**
 * One spawned server answers every test: the tests only read its endpoints, and each finds the
 * log records of the requests it sent itself. The CLI that reads the log runs in-process.
 */
describe('mock server: matching and responses', () => {
  const tmp = tempDir();
  let server: ServeHandle;
  let projectId: string;
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
  const cli = (args: string[]) => runCliInProcess(args, { dataDir: tmp.dir });
  const logged = async (filters: string[] = []) =>
    json<Rec[]>(await cli(['requests', 'list', projectId, '--json', '-l', '1000', ...filters]));

  before(async () => {
    const project = await makeProject(tmp.dir, 'matching', [
      { id: 'list', path: '/api/users', body: '[{"id":1}]' },
      { id: 'one', path: '/api/users/:id', body: '{"id":"any"}' },
      { id: 'me', path: '/api/users/me', body: '{"id":"me"}' },
      {
        id: 'create',
        method: 'POST',
        path: '/api/users',
        status: 201,
        headers: { Location: '/api/users/4', 'X-Custom': 'yes' },
        body: '{"id":4}',
      },
      { id: 'csv', path: '/report', contentType: 'text/csv', body: 'a,b\n1,2\n' },
      { id: 'slow', path: '/slow', delay: 300, body: 'late', contentType: 'text/plain' },
      { id: 'off', path: '/disabled', enabled: false },
      { id: 'call', path: '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json', body: '{"call":true}' },
      { id: 'compare', path: '/repos/{owner}/{repo}/compare/{base}...{head}', body: '{"compare":true}' },
      { id: 'team', path: '/enterprises/{enterprise}/teams/{enterprise-team}', body: '{"team":true}' },
      {
        id: 'varied',
        path: '/flaky',
        status: 200,
        body: '{"ok":true}',
        variations: [
          {
            id: 'v500',
            name: 'Server error',
            status: 503,
            headers: { 'Retry-After': '5' },
            body: '{"ok":false}',
            contentType: 'application/json',
            delay: 0,
          },
        ],
        activeVariationId: 'v500',
      },
      {
        id: 'opt',
        method: 'OPTIONS',
        path: '/custom-options',
        status: 200,
        body: 'mine',
        contentType: 'text/plain',
      },
      { id: 'upload', method: 'POST', path: '/upload', status: 202, body: '{"received":true}' },
      { id: 'gone', method: 'DELETE', path: '/api/users/:id', status: 204, body: '{"ignored":true}' },
      {
        id: 'cached',
        path: '/cached',
        status: 304,
        headers: { ETag: '"v1"', 'Content-Type': 'text/plain' },
        body: 'stale',
      },
    ]);
    projectId = project.id;
    server = await startServe([projectId], { dataDir: tmp.dir });
  });

  after(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('answers method + path with :id parameters and the endpoint response', async () => {
    const res = await get('/api/users/42');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(await res.text(), '{"id":"any"}');
    const created = await get('/api/users', {
      method: 'POST',
      body: '{"name":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), '/api/users/4');
    assert.equal(created.headers.get('x-custom'), 'yes');
    assert.equal(await created.text(), '{"id":4}');
  });

  it('prefers a literal segment over a parameter', async () => {
    assert.equal(await (await get('/api/users/me')).text(), '{"id":"me"}');
    assert.equal(await (await get('/api/users/you')).text(), '{"id":"any"}');
  });

  it('tolerates a trailing slash and a query string', async () => {
    assert.equal(await (await get('/api/users/')).text(), '[{"id":1}]');
    assert.equal(await (await get('/api/users?page=2&page=3')).text(), '[{"id":1}]');
    assert.equal(await (await get('/api/users/7/?x=1')).text(), '{"id":"any"}');
  });

  it('honours the content type, and a delay in milliseconds', async () => {
    const csv = await get('/report');
    assert.equal(csv.headers.get('content-type'), 'text/csv');
    assert.equal(await csv.text(), 'a,b\n1,2\n');
    const t0 = Date.now();
    const slow = await get('/slow');
    assert.equal(await slow.text(), 'late');
    assert.ok(Date.now() - t0 >= 290, `delay honoured (${Date.now() - t0} ms)`);
  });

  it('skips disabled endpoints', async () => {
    assert.equal((await get('/disabled')).status, 404);
  });

  it('matches OpenAPI path templates: a suffix, two parameters in a segment, hyphenated names', async () => {
    assert.equal(await (await get('/2010-04-01/Accounts/AC123/Calls/CA456.json')).text(), '{"call":true}');
    assert.equal(await (await get('/repos/octo/hello/compare/main...feature')).text(), '{"compare":true}');
    assert.equal(await (await get('/enterprises/acme/teams/blue-team')).text(), '{"team":true}');
  });

  it('answers with the active variation instead of the default response', async () => {
    const res = await get('/flaky');
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
    assert.equal(await res.text(), '{"ok":false}');
  });

  it('sends 204 and 304 without Content-Type, Content-Length or a body', async () => {
    /** The raw answer: node:http shows the header names exactly as sent. */
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; names: string[]; headers: IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          const req = request(`${server.url}${path}`, { method }, (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (d: string) => (body += d));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
                headers: res.headers,
                body,
              }),
            );
          });
          req.on('error', reject).end();
        },
      );
    const noContent = await raw('DELETE', '/api/users/9');
    assert.equal(noContent.status, 204);
    assert.equal(noContent.body, '');
    const cached = await raw('GET', '/cached');
    assert.equal(cached.status, 304);
    assert.equal(cached.headers.etag, '"v1"', 'other headers are kept');
    for (const answer of [noContent, cached]) {
      for (const name of ['content-type', 'content-length', 'transfer-encoding']) {
        assert.ok(!answer.names.includes(name), `${answer.status} sent ${name}: ${answer.names.join(', ')}`);
      }
    }
    const records = await waitUntil(async () => {
      const found = await logged(['-s', '204,304']);
      return found.length === 2 ? found : undefined;
    }, 'the 204 and 304 in the log');
    assert.deepEqual(
      records.map((r) => [r.status, r.response.body, 'Content-Type' in r.response.headers]).sort(),
      [
        [204, '', false],
        [304, '', false],
      ],
      'the log stores what was sent',
    );
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await get('/api/users', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength('[{"id":1}]')));
    assert.equal(await res.text(), '');
  });

  it('answers CORS preflights, unless an endpoint defines OPTIONS for the path', async () => {
    const pre = await get('/api/users', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(pre.headers.get('access-control-allow-headers'), 'content-type');
    const own = await get('/custom-options', { method: 'OPTIONS' });
    assert.equal(own.status, 200);
    assert.equal(await own.text(), 'mine');
  });

  it('answers unmatched requests with a JSON 404 naming method, path and the closest endpoints', async () => {
    const res = await get('/api/user?x=1', { method: 'GET' });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /json/);
    const body = (await res.json()) as {
      method: string;
      path: string;
      closest: { method: string; path: string }[];
    };
    assert.equal(body.method, 'GET');
    assert.equal(body.path, '/api/user');
    assert.ok(body.closest.length > 0 && body.closest.length <= 3);
    assert.deepEqual([body.closest[0]!.method, body.closest[0]!.path], ['GET', '/api/users']);
    assert.equal((await get('/api/users', { method: 'DELETE' })).status, 404);
  });

  it('logs every request, matched or not, with the record shape', async () => {
    await (await get('/api/users/42?verbose=1&tag=a&tag=b', { headers: { 'X-Trace': 't1' } })).text();
    await (await get('/not/logged/before')).text();
    const records = await waitUntil(async () => {
      const all = await logged();
      return all.some((r) => r.path === '/api/users/42' && r.query.verbose === '1') &&
        all.some((r) => r.path === '/not/logged/before')
        ? all
        : undefined;
    }, 'records in the log');
    const rec = records.find((r) => r.path === '/api/users/42' && r.query.verbose === '1')!;
    const full = json<Record<string, unknown>>(await cli(['requests', 'show', rec.id, '--json']));
    for (const key of [
      'id',
      'projectId',
      'endpointId',
      'timestamp',
      'method',
      'path',
      'query',
      'headers',
      'body',
      'status',
      'durationMs',
      'starred',
      'truncated',
      'response',
    ]) {
      assert.ok(key in full, `record has ${key}`);
    }
    assert.equal(full.projectId, projectId);
    assert.equal(full.endpointId, 'one');
    assert.deepEqual(full.query, { verbose: '1', tag: ['a', 'b'] });
    assert.equal(
      (full.headers as Record<string, string>)['x-trace'] ??
        (full.headers as Record<string, string>)['X-Trace'],
      't1',
    );
    assert.deepEqual((full.response as { status: number; body: string }).body, '{"id":"any"}');
    const miss = records.find((r) => r.path === '/not/logged/before')!;
    assert.equal(miss.status, 404);
    assert.equal(miss.endpointId, null);
    assert.match(miss.response.body, /No endpoint matches/);
  });

  it('accepts a 2 MiB body, answers, and logs it truncated at the cap', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const res = await get('/upload', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 202);
    assert.equal(await res.text(), '{"received":true}');
    const rec = await waitUntil(
      async () => (await logged(['-m', 'POST', '-s', '202']))[0],
      'the upload in the log',
    );
    assert.equal(rec.truncated, true);
    assert.equal(rec.body.length, 1024 * 1024);
  });

  it('answers a malformed request line with 400 and keeps serving', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.setTimeout(5000, () => {
        socket.destroy();
        reject(new Error(`no answer; got ${data}`));
      });
      socket.write('THIS IS NOT HTTP\r\n\r\n');
    });
    assert.match(reply, /^HTTP\/1\.1 400/);
    assert.equal((await get('/api/users')).status, 200);
  });

  it('answers and logs 200 concurrent requests', async () => {
    assert.equal((await cli(['requests', 'clear', projectId, '--force'])).code, 0);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        get(`/api/users/${i}?n=${i}&run=concurrent`).then(async (r) => [r.status, await r.text()] as const),
      ),
    );
    assert.equal(results.filter(([s, b]) => s === 200 && b === '{"id":"any"}').length, 200);
    // Only this test's records: one answered by an earlier test just before the clear can still
    // reach the log after it (the server spools its records a few milliseconds later).
    const records = await waitUntil(async () => {
      const mine = (await logged(['-m', 'GET'])).filter((r) => r.query.run === 'concurrent');
      return mine.length >= 200 ? mine : undefined;
    }, '200 records');
    assert.equal(records.length, 200);
    const ns = new Set(records.map((r) => r.query.n));
    assert.equal(ns.size, 200);
  });
});
