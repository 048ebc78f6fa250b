import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewRequestRecord, RequestLogWriter } from '../core/ports.js';
import { buildAnswer } from './answer.js';
import { compileProject, type CompiledProject } from './compile.js';
import { createMockHandler, type MockHandler } from './handler.js';
import { listen, type Listening } from '../http/listen.js';
import { endpointOf } from '../../test/helpers/endpoint.js';

const endpoint = endpointOf;

/** A body sent in chunks (no Content-Length). */
const chunked = (text: string): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (let i = 0; i < text.length; i += 1000)
        controller.enqueue(new TextEncoder().encode(text.slice(i, i + 1000)));
      controller.close();
    },
  });

/** A log writer that keeps what it is given. */
const memoryLog = (): RequestLogWriter & { records: NewRequestRecord[] } => {
  const records: NewRequestRecord[] = [];
  return { records, lost: 0, push: (r) => void records.push(r), close: async () => undefined };
};

describe('the response pipeline', () => {
  let project: CompiledProject;
  let log: ReturnType<typeof memoryLog>;
  let handler: MockHandler;
  let server: Listening;
  const hooked: string[] = [];

  before(async () => {
    project = compileProject(
      [
        endpoint('static', { headers: { 'X-Static': '1' } }),
        endpoint('varied', {
          variations: [
            {
              id: 'v1',
              name: 'teapot',
              status: 418,
              headers: {},
              body: 'short and stout',
              contentType: 'text/plain',
              delay: 0,
            },
          ],
          activeVariationId: 'v1',
        }),
        endpoint('bad-header', { headers: { 'X-Bad': 'line\nbreak' } }),
        endpoint('dynamic'),
        endpoint('dynamic', { id: 'posted', method: 'POST' }),
      ],
      1024,
    );
    // A dynamic endpoint: its answer is produced for each request, as templates and proxying will be.
    const dynamic = project.routes.endpoints.find((e) => e.id === 'dynamic')!;
    // What a template or a rule sees of the request body: its length, in a header.
    const posted = project.routes.endpoints.find((e) => e.id === 'posted')!;
    posted.choose = () => ({
      delay: 0,
      answer: undefined,
      produce: (ex) =>
        buildAnswer(
          { status: 201, headers: { 'X-Seen': String(ex.body?.length ?? 0) }, body: '' },
          1024,
          false,
        ),
    });
    dynamic.choose = () => ({
      delay: 0,
      produce: async (ex) =>
        buildAnswer(
          {
            status: 202,
            headers: { 'X-Echo': ex.url },
            body: `you asked for ${ex.url}`,
            contentType: 'text/plain',
          },
          1024,
          false,
        ),
    });
    log = memoryLog();
    handler = createMockHandler({
      current: () => project,
      log,
      bodyLimitBytes: 1024,
      requestSizeLimitBytes: 4096,
      afterResponse: [(ex, r) => hooked.push(`${ex.method} ${ex.url} ${r.status}`)],
    });
    server = await listen(handler, { host: '127.0.0.1', port: 0 });
  });
  after(() => server.server.close());

  it('answers a static response as precompiled and logs the shared response once-stored', async () => {
    const res = await fetch(`${server.url}/static`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-static'), '1');
    assert.equal(await res.text(), '{"id":"static"}');
    const record = log.records.at(-1)!;
    assert.equal(record.endpointId, 'static');
    assert.equal(record.response.shared, true);
    assert.equal(record.response.body?.toString(), '{"id":"static"}');
    assert.equal(hooked.at(-1), 'GET /static 200', 'after-response hooks run with the record');
  });

  it('logs a dynamic answer with its own status, headers and body', async () => {
    const res = await fetch(`${server.url}/dynamic?x=1`);
    assert.equal(res.status, 202);
    assert.equal(await res.text(), 'you asked for /dynamic?x=1');
    const record = log.records.at(-1)!;
    assert.equal(record.status, 202);
    assert.equal(record.response.shared, false);
    assert.equal(JSON.parse(record.response.headersJson)['X-Echo'], '/dynamic?x=1');
    assert.equal(record.response.body?.toString(), 'you asked for /dynamic?x=1');
  });

  it('chooses the active variation', async () => {
    const res = await fetch(`${server.url}/varied`);
    assert.equal(res.status, 418);
    assert.equal(await res.text(), 'short and stout');
    assert.equal(log.records.at(-1)!.status, 418);
  });

  it('answers 500, and logs it, when node refuses to send a response; the server keeps serving', async () => {
    const res = await fetch(`${server.url}/bad-header`);
    assert.equal(res.status, 500);
    assert.equal(res.statusText, 'Internal Server Error', "the 500's own reason phrase, not the endpoint's");
    const body = (await res.json()) as { title: string; code: string };
    assert.equal(body.code, 'RESPONSE_FAILED');
    assert.equal(log.records.at(-1)!.status, 500);
    assert.equal((await fetch(`${server.url}/static`)).status, 200);
  });

  it('hands the whole body to what answers, up to the request size limit; the log keeps its own cap', async () => {
    const res = await fetch(`${server.url}/dynamic`, { method: 'POST', body: 'x'.repeat(3000) });
    assert.equal(res.status, 201);
    assert.equal(
      res.headers.get('x-seen'),
      '3000',
      'the answer saw all 3000 bytes, past the log cap of 1024',
    );
    const record = log.records.at(-1)!;
    assert.equal(record.body?.length, 1024);
    assert.equal(record.truncated, true);
    const small = await fetch(`${server.url}/dynamic`, { method: 'POST', body: 'x'.repeat(100) });
    assert.equal(small.headers.get('x-seen'), '100');
    assert.equal(log.records.at(-1)!.truncated, false);
  });

  it('answers a body over the request size limit 413 naming the limit, and logs it', async () => {
    for (const body of ['x'.repeat(5000), chunked('x'.repeat(5000))]) {
      const res = await fetch(`${server.url}/dynamic`, {
        method: 'POST',
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      const problem = (await res.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'PAYLOAD_TOO_LARGE');
      assert.match(problem.detail, /request size limit, 4096 bytes.*requestSizeLimitBytes/);
      const record = log.records.at(-1)!;
      assert.deepEqual([record.status, record.endpointId, record.truncated], [413, 'posted', true]);
    }
    assert.equal((await fetch(`${server.url}/static`)).status, 200, 'the server keeps serving');
  });

  it('logs HEAD without a body, a miss as 404 with the closest endpoints, and answers preflights', async () => {
    const head = await fetch(`${server.url}/static`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(log.records.at(-1)!.response.body, null);
    const miss = await fetch(`${server.url}/statics`);
    assert.equal(miss.status, 404);
    const problem = (await miss.json()) as { closest: { id: string }[] };
    assert.equal(problem.closest[0]?.id, 'static');
    assert.equal(log.records.at(-1)!.response.shared, false);
    const pre = await fetch(`${server.url}/static`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://x.test' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'http://x.test');
  });
});
