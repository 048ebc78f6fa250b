/**
 * MCP over HTTP in process (its handler on a free port): the guard (Host, Origin, token), the
 * side paths, the route table's 404 and 405, JSON-RPC errors on /mcp with the problem as their
 * data, and the body cap. `test/integration/mcp-http.test.ts` spawns `mockdev mcp --http` to
 * prove the wiring.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { rawRequest } from '../../test/helpers/http.js';
import { fails, ok, RAW_INITIALIZE, startMcpHttp, TOOL_NAMES } from '../../test/helpers/mcp.js';
import { waitUntil } from '../../test/helpers/wait.js';
import type { ProjectDetail } from '../core/model/project.js';
import { ProblemSchema } from '../core/model/problem.js';
import { createProject } from '../app/projects.js';

type Json = Record<string, unknown>;
const INIT = JSON.stringify(RAW_INITIALIZE);
const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A client connected over Streamable HTTP (or SSE), closed after the test. */
async function connect(
  t: { after(fn: () => Promise<void>): void },
  url: string,
  options: { kind?: 'streamable' | 'sse'; name?: string; token?: string } = {},
): Promise<Client> {
  const requestInit = options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : undefined;
  const transport =
    options.kind === 'sse'
      ? new SSEClientTransport(new URL(`${url}/sse`), { requestInit })
      : new StreamableHTTPClientTransport(new URL(url), { requestInit });
  const client = new Client({ name: options.name ?? 'in-process', version: '3.1.4' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

describe('MCP over HTTP, in process: the transports', () => {
  it('serves the 18 tools over Streamable HTTP and the legacy SSE transport', async (t) => {
    const mcp = await startMcpHttp(t);
    const client = await connect(t, mcp.url);
    assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), TOOL_NAMES);
    const made = await ok<ProjectDetail>(client, 'create_project', { name: 'Over HTTP' });
    await fails(client, 'get_project', { projectId: 'missing' }, /PROJECT_NOT_FOUND/);
    const sse = await connect(t, mcp.url, { kind: 'sse', name: 'sse' });
    const { projects } = await ok<{ projects: { id: string }[] }>(sse, 'list_projects');
    assert.ok(projects.some((p) => p.id === made.id));
  });

  it('tells every session of a project change, whoever made it', async (t) => {
    const mcp = await startMcpHttp(t);
    const client = await connect(t, mcp.url, { name: 'listener' });
    const seen: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params.data));
    await waitUntil(
      () => mcp.sessions.list().some((c) => c.client?.name === 'listener' && c.streams > 0),
      'the stream',
    );
    const made = await createProject(mcp.ctx, { name: 'Watched' });
    await waitUntil(
      () => seen.some((d) => (d as Json).event === 'project_changed' && (d as Json).projectId === made.id),
      'the notification',
    );
  });
});

describe('MCP over HTTP, in process: side paths', () => {
  it('answers health, connections and recent calls as JSON', async (t) => {
    const mcp = await startMcpHttp(t);
    const client = await connect(t, mcp.url, { name: 'side-paths' });
    await ok(client, 'list_projects');
    const health = await rawRequest(mcp.base, '/mcp/health');
    assert.equal(health.status, 200);
    assert.match(String(health.headers['content-type']), /application\/json/);
    assert.deepEqual(
      [(health.json as Json).status, (health.json as Json).toolCount, (health.json as Json).loggingMode],
      ['ok', 18, 'all'],
    );
    const connections = (await rawRequest(mcp.base, '/mcp/connections')).json as { connections: Json[] };
    assert.ok(connections.connections.some((c) => (c.client as Json | null)?.name === 'side-paths'));
    const logs = (await rawRequest(mcp.base, '/mcp/logs?limit=1')).json as { logs: Json[] };
    assert.deepEqual([logs.logs.length, logs.logs[0]!.tool], [1, 'list_projects']);
  });

  it('answers a bad limit, an unknown path and a wrong method with the one problem shape', async (t) => {
    const mcp = await startMcpHttp(t);
    const bad = await rawRequest(mcp.base, '/mcp/logs?limit=zero');
    const missing = await rawRequest(mcp.base, '/nope');
    const wrong = await rawRequest(mcp.base, '/mcp/health', { method: 'POST' });
    for (const [answer, status, code] of [
      [bad, 400, 'INVALID_ARGUMENT'],
      [missing, 404, 'NOT_FOUND'],
      [wrong, 405, 'METHOD_NOT_ALLOWED'],
    ] as const) {
      assert.equal(answer.status, status);
      assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
      const problem = ProblemSchema.parse(answer.json);
      assert.deepEqual([problem.status, problem.code], [status, code]);
    }
    assert.match(String((missing.json as Json).detail), /\/mcp/);
    assert.equal(wrong.headers.allow, 'GET');
  });
});

describe('MCP over HTTP, in process: JSON-RPC errors on /mcp', () => {
  it('keeps the JSON-RPC shape, with the problem as its data', async (t) => {
    const mcp = await startMcpHttp(t);
    const noSession = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers: { ...RPC_HEADERS, 'mcp-session-id': 'gone' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(noSession.status, 404);
    const error = (noSession.json as { error: { code: number; message: string; data: Json } }).error;
    assert.equal(error.code, -32001);
    assert.match(error.message, /not found/);
    assert.equal(ProblemSchema.parse(error.data).code, 'NOT_FOUND');
    const notJson = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers: RPC_HEADERS,
      body: '{oops',
    });
    assert.deepEqual(
      [notJson.status, (notJson.json as { error: { code: number } }).error.code],
      [400, -32700],
    );
    const put = await rawRequest(mcp.base, '/mcp', { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.allow, 'GET, POST, DELETE');
    assert.equal((put.json as { jsonrpc: string }).jsonrpc, '2.0');
  });

  it('refuses a message over 32 MiB from its Content-Length, and a chunked one as it passes the limit', async (t) => {
    const mcp = await startMcpHttp(t);
    const announced = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers: { ...RPC_HEADERS, 'content-length': String(33 * 1024 * 1024) },
      body: '{"jsonrpc":',
    });
    assert.equal(announced.status, 413);
    const data = (announced.json as { error: { data: Json } }).error.data;
    assert.equal(data.code, 'PAYLOAD_TOO_LARGE');
    assert.match(String(data.detail), /32 MiB/);
    assert.equal(announced.headers.connection, 'close');
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const chunked = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers: RPC_HEADERS,
      body: Array.from({ length: 40 }, () => chunk),
    });
    assert.equal(chunked.status, 413);
    assert.equal((await rawRequest(mcp.base, '/mcp/health')).status, 200, 'the server keeps serving');
  });
});

describe('MCP over HTTP, in process: the guard', () => {
  it('refuses a rebound Host and foreign Origins on every path; passes pages of this machine', async (t) => {
    const mcp = await startMcpHttp(t);
    for (const path of ['/mcp', '/mcp/health', '/mcp/logs', '/mcp/connections', '/mcp/sse']) {
      const foreign = await rawRequest(mcp.base, path, {
        method: path === '/mcp' ? 'POST' : 'GET',
        headers: { ...RPC_HEADERS, origin: 'http://evil.example' },
        body: path === '/mcp' ? INIT : undefined,
      });
      assert.equal(foreign.status, 403, path);
      const problem = ProblemSchema.parse(foreign.json);
      assert.equal(problem.code, 'FORBIDDEN_ORIGIN');
      assert.match(problem.detail, /evil\.example.*localhost/);
    }
    assert.equal((await rawRequest(mcp.base, '/mcp/health', { headers: { origin: 'null' } })).status, 403);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', mcp.base])
      assert.equal((await rawRequest(mcp.base, '/mcp/health', { headers: { origin } })).status, 200, origin);
    const rebound = await rawRequest(mcp.base, '/mcp/health', { headers: { host: 'attacker.test:3100' } });
    assert.deepEqual([rebound.status, (rebound.json as Json).code], [403, 'FORBIDDEN_HOST']);
  });

  it('with a token, answers only "Authorization: Bearer <token>", on every path, never quoting it', async (t) => {
    const mcp = await startMcpHttp(t, { token: 'mcp-s3cret' });
    for (const path of ['/mcp', '/mcp/health', '/mcp/sse']) {
      for (const authorization of [undefined, 'Bearer wrong', 'Basic mcp-s3cret']) {
        const refused = await rawRequest(mcp.base, path, {
          method: path === '/mcp' ? 'POST' : 'GET',
          headers: { ...RPC_HEADERS, ...(authorization ? { authorization } : {}) },
          body: path === '/mcp' ? INIT : undefined,
        });
        assert.equal(refused.status, 401, `${path} ${authorization}`);
        assert.equal(refused.headers['www-authenticate'], 'Bearer');
        assert.equal(ProblemSchema.parse(refused.json).code, 'UNAUTHORIZED');
        assert.doesNotMatch(refused.body, /mcp-s3cret/);
        assert.match(refused.body, /MOCKDEV_MCP_TOKEN/);
      }
    }
    const health = await rawRequest(mcp.base, '/mcp/health', {
      headers: { authorization: 'Bearer mcp-s3cret' },
    });
    assert.equal(health.status, 200);
    const client = await connect(t, mcp.url, { token: 'mcp-s3cret' });
    await ok(client, 'list_projects');
    const sse = await connect(t, mcp.url, { kind: 'sse', token: 'mcp-s3cret' });
    await ok(sse, 'list_projects');
  });
});
