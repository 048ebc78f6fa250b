/**
 * `mockdev mcp --http`, spawned from the built CLI: the SDK's Streamable HTTP and legacy SSE
 * clients, the JSON side paths, Origin/Host checks, change notifications, logging modes,
 * clients vanishing mid-call, and exit 4 on a busy port.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { TOOL_NAMES, fails, ok, startHttpMcp } from '../helpers/mcp.js';
import { waitUntil } from '../helpers/wait.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let server: Awaited<ReturnType<typeof startHttpMcp>>;
const clients: Client[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function connect(kind: 'streamable' | 'sse', name: string): Promise<Client> {
  const client = new Client({ name, version: '3.1.4' });
  const transport =
    kind === 'streamable'
      ? new StreamableHTTPClientTransport(new URL(server.url))
      : new SSEClientTransport(new URL(`${server.url}/sse`));
  await client.connect(transport);
  clients.push(client);
  return client;
}

const getJson = async <T = Record<string, unknown>>(path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.base}${path}`, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as T };
};

/** A raw HTTP request with full control of headers (fetch cannot set Host). */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.base);
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

before(async () => {
  tmp = tempDir('mockdev-mcp-http-');
  dataDir = join(tmp.dir, 'data');
  server = await startHttpMcp(dataDir);
});

after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  for (const c of cleanups) await c();
  await server?.kill();
  tmp.cleanup();
});

describe('mockdev mcp --http: Streamable HTTP and SSE', () => {
  it('serves the 18 tools over Streamable HTTP with a session', async () => {
    const client = await connect('streamable', 'streamable-test');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
    const created = await ok<ProjectDetail>(client, 'create_project', { name: 'Over HTTP' });
    await ok(client, 'create_endpoint', {
      projectId: created.id,
      path: '/ping',
      body: 'pong',
      contentType: 'text/plain',
    });
    await fails(client, 'get_project', { projectId: 'missing' }, /PROJECT_NOT_FOUND/);
    const shown = await runCliInProcess(['endpoint', 'list', 'Over HTTP', '--json'], { dataDir });
    assert.equal(JSON.parse(shown.stdout)[0].path, '/ping');
  });

  it('serves older clients over the legacy HTTP+SSE transport on /mcp/sse', async () => {
    const other = await connect('streamable', 'made-over-streamable');
    await ok(other, 'create_project', { name: 'Seen over SSE' });
    const client = await connect('sse', 'sse-test');
    const { tools } = await client.listTools();
    assert.equal(tools.length, TOOL_NAMES.length);
    const { projects } = await ok<{ projects: { name: string }[] }>(client, 'list_projects');
    assert.ok(projects.some((p) => p.name === 'Seen over SSE'));
  });

  it('notifies connected clients when a project changes, whoever changes it', async () => {
    const streamable = await connect('streamable', 'notify-streamable');
    const sse = await connect('sse', 'notify-sse');
    const seen: { streamable: unknown[]; sse: unknown[] } = { streamable: [], sse: [] };
    streamable.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void seen.streamable.push(n.params.data),
    );
    sse.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.sse.push(n.params.data));
    await waitUntil(async () => {
      const { body } = await getJson<{ connections: { client: { name: string } | null; streams: number }[] }>(
        '/mcp/connections',
      );
      return body.connections.some((c) => c.client?.name === 'notify-streamable' && c.streams > 0);
    }, 'the Streamable HTTP client to open its notification stream');
    const made = await runCliInProcess(['project', 'create', 'Watched', '--json'], { dataDir });
    assert.equal(made.code, 0, made.stderr);
    const id = JSON.parse(made.stdout).id as string;
    const isCreated = (d: unknown) => {
      const x = d as { event?: string; change?: string; projectId?: string };
      return x.event === 'project_changed' && x.change === 'created' && x.projectId === id;
    };
    await waitUntil(() => seen.sse.some(isCreated), 'the SSE client to hear about the new project');
    await waitUntil(
      () => seen.streamable.some(isCreated),
      'the Streamable HTTP client to hear about the new project',
    );
  });
});

describe('mockdev mcp --http: side paths', () => {
  it('GET /mcp/health reports status, version, uptime and the tool count', async () => {
    const { status, type, body } = await getJson('/mcp/health');
    assert.equal(status, 200);
    assert.match(type, /application\/json/);
    assert.equal(body.status, 'ok');
    assert.equal(body.name, 'mockdev');
    assert.match(String(body.version), /^\d+\.\d+\.\d+/);
    assert.equal(typeof body.uptime, 'number');
    assert.equal(body.toolCount, 18);
    assert.deepEqual([...(body.tools as string[])].sort(), TOOL_NAMES);
    assert.equal(body.loggingMode, 'all');
  });

  it('GET /mcp/connections lists the open sessions with their client', async () => {
    await connect('sse', 'connections-sse');
    await connect('streamable', 'connections-test');
    const { status, body } = await getJson<{
      connections: {
        id: string;
        transport: string;
        client: { name: string; version: string } | null;
        since: string;
      }[];
    }>('/mcp/connections');
    assert.equal(status, 200);
    const mine = body.connections.find((c) => c.client?.name === 'connections-test');
    assert.ok(mine, JSON.stringify(body));
    assert.equal(mine.transport, 'streamable-http');
    assert.equal(mine.client!.version, '3.1.4');
    assert.ok(!Number.isNaN(Date.parse(mine.since)));
    assert.ok(body.connections.some((c) => c.transport === 'sse' && c.client?.name === 'connections-sse'));
  });

  it('GET /mcp/logs shows recent calls newest first, with ?limit=', async () => {
    const client = await connect('streamable', 'logs-test');
    const project = await ok<ProjectDetail>(client, 'create_project', { name: 'Logged calls' });
    await ok(client, 'list_projects');
    await fails(client, 'get_endpoint', { projectId: project.id, endpointId: 'nope' }, /NOT_FOUND/);
    const { status, body } = await getJson<{
      loggingMode: string;
      logs: {
        time: string;
        tool: string;
        durationMs: number;
        ok: boolean;
        error?: { code: string };
        client: { name: string } | null;
        transport: string;
      }[];
    }>('/mcp/logs?limit=2');
    assert.equal(status, 200);
    assert.equal(body.loggingMode, 'all');
    assert.equal(body.logs.length, 2);
    const [last, before] = body.logs;
    assert.deepEqual(
      [last!.tool, last!.ok, last!.error?.code, last!.client?.name, last!.transport],
      ['get_endpoint', false, 'NOT_FOUND', 'logs-test', 'streamable-http'],
    );
    assert.deepEqual([before!.tool, before!.ok], ['list_projects', true]);
    assert.equal(typeof last!.durationMs, 'number');
    const bad = await getJson('/mcp/logs?limit=zero');
    assert.equal(bad.status, 400);
    assert.match(bad.type, /application\/problem\+json/);
    assert.match(String(bad.body.detail), /limit/);
  });

  it('answers unknown paths, wrong methods and unknown sessions with JSON errors', async () => {
    const missing = await getJson('/nope');
    assert.equal(missing.status, 404);
    assert.match(String(missing.body.detail), /\/mcp/);
    const wrongMethod = await fetch(`${server.base}/mcp/health`, { method: 'POST' });
    assert.equal(wrongMethod.status, 405);
    const noSession = await raw('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'gone',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(noSession.status, 404);
    assert.match(JSON.parse(noSession.body).error.message, /not found/);
    const notJson = await raw('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    assert.equal(notJson.status, 400);
    assert.equal(JSON.parse(notJson.body).error.code, -32700);
  });
});

describe('mockdev mcp --http: safety', () => {
  it('refuses requests from a foreign Origin with 403, and allows localhost origins', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '0' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const evil = await raw('/mcp', {
      method: 'POST',
      headers: { ...headers, origin: 'http://evil.example' },
      body: init,
    });
    assert.equal(evil.status, 403);
    assert.match(JSON.parse(evil.body).detail, /evil\.example.*localhost/);
    for (const path of ['/mcp/health', '/mcp/logs', '/mcp/connections', '/mcp/sse']) {
      assert.equal((await raw(path, { headers: { origin: 'https://attacker.test' } })).status, 403, path);
    }
    assert.equal((await raw('/mcp/health', { headers: { origin: 'null' } })).status, 403);
    assert.equal((await raw('/mcp/health', { headers: { origin: 'http://localhost:5173' } })).status, 200);
    assert.equal((await raw('/mcp/health', { headers: { origin: 'http://127.0.0.1:3000' } })).status, 200);
    const rebound = await raw('/mcp/health', { headers: { host: 'attacker.test:3100' } });
    assert.equal(rebound.status, 403, 'a DNS-rebound Host is refused on a loopback bind');
  });

  it('keeps serving when clients disconnect mid-call', async () => {
    const client = await connect('streamable', 'survivor');
    await ok(client, 'create_project', { name: 'Survivor' });
    const sessionId = (clients.at(-1) as unknown as { transport: StreamableHTTPClientTransport }).transport
      .sessionId!;
    assert.ok(sessionId);
    const big = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Big', version: '1' },
      paths: Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [
          `/r${i}/{id}`,
          { get: { responses: { 200: { description: 'ok' } } } },
        ]),
      ),
    });
    const calls = [
      { name: 'list_projects', arguments: {} },
      { name: 'import_openapi', arguments: { text: big } },
      { name: 'get_project', arguments: { projectId: 'Survivor' } },
    ];
    for (let i = 0; i < 9; i++) {
      await new Promise<void>((resolve) => {
        const req = request(new URL('/mcp', server.base), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1000 + i,
            method: 'tools/call',
            params: calls[i % calls.length],
          }),
        );
        setTimeout(() => req.destroy(), i % 3);
      });
    }
    // A legacy SSE stream dropped while open.
    await new Promise<void>((resolve) => {
      const req = request(new URL('/mcp/sse', server.base), (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end();
    });
    await ok(client, 'list_projects');
    const other = await connect('streamable', 'after-drops');
    await ok(other, 'list_projects');
    assert.equal((await getJson('/mcp/health')).body.status, 'ok');
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });
});

describe('mockdev mcp --http: options', () => {
  it('exits 4 when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const r = await runCli(['mcp', '--http', '-p', String(port)], { dataDir, timeoutMs: 20_000 });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, new RegExp(`Port ${port}.*already in use.*--port`));
      assert.equal(r.stdout, '');
    } finally {
      blocker.close();
    }
  });

  it('takes the logging mode from the settings file, and --logging-mode overrides it', async () => {
    const dir = join(tmp.dir, 'modes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ mcpLoggingMode: 'off' }));
    for (const [extra, mode, kept] of [
      [[], 'off', 0],
      [['--logging-mode', 'errors'], 'errors', 1],
    ] as const) {
      const proc = await startHttpMcp(dir, [...extra]);
      cleanups.push(proc.kill);
      const client = new Client({ name: `mode-${mode}`, version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(proc.url)));
      try {
        await ok(client, 'list_projects');
        await fails(client, 'get_project', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
        const res = await fetch(`${proc.base}/mcp/logs`);
        const body = (await res.json()) as { loggingMode: string; logs: { ok: boolean }[] };
        assert.equal(body.loggingMode, mode);
        assert.equal(body.logs.length, kept);
        assert.ok(body.logs.every((l) => !l.ok));
      } finally {
        await client.close();
        await proc.kill();
      }
    }
  });

  it('warns that a non-loopback host has no authentication', async () => {
    const proc = await startHttpMcp(join(tmp.dir, 'open'), ['--host', '0.0.0.0']);
    cleanups.push(proc.kill);
    try {
      assert.match(proc.stderr(), /no authentication/);
      const res = await fetch(`http://127.0.0.1:${new URL(proc.url).port}/mcp/health`);
      assert.equal(res.status, 200);
    } finally {
      await proc.kill();
    }
  });
});
