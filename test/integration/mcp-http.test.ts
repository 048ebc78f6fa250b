/**
 * `mockdev mcp --http`, spawned from the built CLI: the SDK's Streamable HTTP and legacy SSE
 * clients, change notifications from another process, logging modes, the token from the
 * environment, clients vanishing mid-call, and exit 4 on a busy port. The side paths, the guard
 * and the errors are tested in process (src/mcp/http-handler.test.ts).
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

describe('mockdev mcp --http: the process', () => {
  it('answers its side paths (the paths, the guard and the errors are tested in process)', async () => {
    const { status, type, body } = await getJson('/mcp/health');
    assert.equal(status, 200);
    assert.match(type, /application\/json/);
    assert.deepEqual([body.status, body.name, body.toolCount], ['ok', 'mockdev', 18]);
    assert.match(String(body.version), /^\d+\.\d+\.\d+/);
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

  it('refuses a non-loopback host without a token (exit 2); with MOCKDEV_MCP_TOKEN, every request needs it', async () => {
    const refused = await runCliInProcess(['mcp', '--http', '--host', '0.0.0.0', '-p', '0'], { dataDir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /needs a token.*MOCKDEV_MCP_TOKEN.*--token-file <FILE>.*--token -/);
    const proc = await startHttpMcp(join(tmp.dir, 'open'), ['--host', '0.0.0.0'], {
      MOCKDEV_MCP_TOKEN: 'env-s3cret',
    });
    cleanups.push(proc.kill);
    try {
      const health = `http://127.0.0.1:${new URL(proc.url).port}/mcp/health`;
      assert.equal((await fetch(health)).status, 401);
      assert.equal((await fetch(health, { headers: { authorization: 'Bearer env-s3cret' } })).status, 200);
      assert.doesNotMatch(proc.stderr(), /env-s3cret/, 'no log line quotes the token');
    } finally {
      await proc.kill();
    }
  });
});
