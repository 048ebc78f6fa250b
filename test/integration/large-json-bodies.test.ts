/**
 * A single request never freezes a server (issue 20, part 1): a 10 MB JSON body made of tiny
 * values (`[[],[],…]`: JSON.parse takes one to several seconds over it, holding the event loop)
 * sent to the mock server, the admin API and MCP over HTTP, while another client asks the same
 * server for something plain again and again. The big body is parsed in slices
 * (core/sliced-json.ts): the other client is answered all along, and the big request's answer is
 * what it was (the rule matched, the template read the body, the project was created). Parsed at
 * once, the body kept the other client waiting most of the big request's time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createContext } from '../../src/app/context.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { addVariation } from '../../src/app/variations.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { tempDir } from '../helpers/cli.js';
import { rawRequest, type RawAnswer } from '../helpers/http.js';
import { RAW_INITIALIZE, startMcpHttp } from '../helpers/mcp.js';
import { assertServed, probeWhile } from '../helpers/probe.js';

/** About 10 MB of empty arrays: over three million JSON values. */
const TINY_VALUES = `[${'[],'.repeat(3_300_000)}[]]`;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A context over a temp data directory, closed and removed after the test. */
function sandbox(t: AfterHook) {
  const { dir, cleanup } = tempDir('mockdev-large-json-');
  const ctx = createContext({ dataDir: dir, cwd: dir });
  t.after(() => {
    ctx.close();
    cleanup();
  });
  return ctx;
}

/**
 * How much of the big request's time a probe may wait at most. Parsed at once, the body kept a
 * probe waiting 85–95% of it; in slices, 10–25%: the slices are a few ms, but the garbage
 * collector pauses up to ~100 ms over three million arrays, whoever makes them.
 */
const SHARE = 1 / 2;

/** A probe: a plain request that must answer `status`. */
const plain =
  (base: string, path: string, status = 200) =>
  async () => {
    const r = await rawRequest(base, path);
    assert.equal(r.status, status, r.body.slice(0, 300));
  };

describe('a large JSON body never freezes a server', () => {
  it('mock server: a body rule and a template read 10 MB of tiny values; another client is answered meanwhile', async (t: AfterHook) => {
    const ctx = sandbox(t);
    await createProject(ctx, { name: 'Shop' });
    await addEndpoint(ctx, 'Shop', { method: 'GET', path: '/ping', body: '{"pong":true}' });
    await addEndpoint(ctx, 'Shop', {
      method: 'POST',
      path: '/orders',
      status: 201,
      body: '{"name":"{{body.name}}"}',
    });
    await addVariation(ctx, 'Shop', 'POST /orders', {
      name: 'ada',
      status: 200,
      body: '{"rule":"matched","name":"{{body.name}}"}',
      rules: ['body.name=Ada'],
    });
    const server = await startServer(ctx, { project: 'Shop', port: 0 });
    t.after(() => server.stop());

    let answer: RawAnswer | undefined;
    const probed = await probeWhile(
      async () => {
        answer = await rawRequest(server.url, '/orders', {
          method: 'POST',
          headers: JSON_HEADERS,
          body: `{"items":${TINY_VALUES},"name":"Ada"}`,
        });
      },
      { 'GET /ping': plain(server.url, '/ping') },
    );
    assert.deepEqual([answer?.status, answer?.json], [200, { rule: 'matched', name: 'Ada' }]);
    assertServed(probed, 'request', SHARE);
  });

  it('admin API: a 10 MB body of tiny values to a route that takes JSON; another client is answered meanwhile', async (t: AfterHook) => {
    const ctx = sandbox(t);
    await createProject(ctx, { name: 'Shop' });
    const admin = await startAdminServer({ ctx, routes: ALL_ROUTES, host: '127.0.0.1', port: 0 });
    t.after(() => admin.close());

    let answer: RawAnswer | undefined;
    const probed = await probeWhile(
      async () => {
        answer = await rawRequest(admin.url, '/api/v1/projects/Shop/endpoints', {
          method: 'POST',
          headers: JSON_HEADERS,
          body: `{"filler":${TINY_VALUES},"method":"POST","path":"/big","body":"made"}`,
        });
      },
      { 'GET /api/v1/health': plain(admin.url, '/api/v1/health') },
    );
    assert.equal(answer?.status, 201, answer?.body.slice(0, 300));
    assert.deepEqual(
      [(answer?.json as { path: string }).path, (answer?.json as { body: string }).body],
      ['/big', 'made'],
    );
    assertServed(probed, 'request', SHARE);
  });

  it('MCP over HTTP: a 10 MB message of tiny values; another client is answered meanwhile', async (t: AfterHook) => {
    const mcp = await startMcpHttp(t);
    const headers = { ...JSON_HEADERS, accept: 'application/json, text/event-stream' };
    const init = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(RAW_INITIALIZE),
    });
    const session = init.headers['mcp-session-id'] as string;
    assert.ok(session, `a session: ${init.body.slice(0, 200)}`);

    let answer: RawAnswer | undefined;
    const probed = await probeWhile(
      async () => {
        answer = await rawRequest(mcp.base, '/mcp', {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': session },
          body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_project","arguments":{"filler":${TINY_VALUES},"name":"Big"}}}`,
        });
      },
      { 'GET /mcp/health': plain(mcp.base, '/mcp/health') },
    );
    assert.equal(answer?.status, 200, answer?.body.slice(0, 300));
    const data = /^data: (.*)$/m.exec(answer!.body)?.[1] ?? answer!.body;
    const result = (JSON.parse(data) as { result: { isError?: boolean; content: { text: string }[] } })
      .result;
    assert.notEqual(result.isError, true, result.content[0]?.text);
    assert.match(result.content[0]!.text, /"name": ?"Big"/);
    assertServed(probed, 'request', SHARE);
  });
});
