/**
 * `mockdev mcp` over stdio, spawned from the built CLI and driven by the SDK's own Client:
 * the tool list, CLI <-> MCP visibility on the same data dir, a clean protocol-only stdout,
 * and shutdown when stdin closes or on SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { CLI, json, runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { RAW_INITIALIZE, TOOL_NAMES, fails, ok } from '../helpers/mcp.js';
import { startServe } from '../helpers/server.js';
import { waitUntil, within } from '../helpers/wait.js';

let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let client: Client;
let transport: StdioClientTransport;
/** The CLI in-process on the MCP server's data dir (`mcp` itself is spawned: runCli). */
const cli = (...args: string[]) => runCliInProcess(args, { dataDir, cwd: tmp.dir });

before(async () => {
  tmp = tempDir('mockdev-mcp-stdio-');
  dataDir = join(tmp.dir, 'data');
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { ...(process.env as Record<string, string>), MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'stdio-test', version: '2.0.0' });
  await client.connect(transport);
});

after(async () => {
  const pid = transport?.pid;
  await client?.close().catch(() => undefined);
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already exited
    }
  }
  tmp.cleanup();
});

describe('mockdev mcp (stdio)', () => {
  it('identifies itself and lists the 18 tools', async () => {
    assert.equal(client.getServerVersion()?.name, 'mockdev');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
  });

  it('sees what the CLI creates on the same data dir', async () => {
    const created = await cli('project', 'create', 'From CLI', '-p', '4300', '--json');
    assert.equal(created.code, 0, created.stderr);
    const id = json<{ id: string }>(created).id;
    assert.equal(
      (await cli('endpoint', 'add', 'From CLI', '-m', 'POST', '-p', '/orders', '-s', '201')).code,
      0,
    );
    const project = await ok<ProjectDetail>(client, 'get_project', { projectId: 'From CLI' });
    assert.equal(project.id, id);
    assert.equal(project.port, 4300);
    assert.deepEqual(
      project.endpoints.map((e) => `${e.method} ${e.path} ${e.status}`),
      ['POST /orders 201'],
    );
    const found = await ok<{ found: boolean }>(client, 'find_endpoint', {
      projectId: id,
      method: 'POST',
      path: '/orders',
    });
    assert.equal(found.found, true);
  });

  it('makes changes the CLI sees on the same data dir', async () => {
    const project = await ok<ProjectDetail>(client, 'create_project', {
      name: 'From MCP',
      description: 'made by an assistant',
    });
    const endpoint = await ok<Endpoint>(client, 'create_endpoint', {
      projectId: project.id,
      path: '/api/items/{id}',
      body: '{"id":1}',
    });
    const shown = json<ProjectDetail>(await cli('project', 'show', 'From MCP', '--json'));
    assert.equal(shown.description, 'made by an assistant');
    assert.deepEqual(
      shown.endpoints.map((e) => e.id),
      [endpoint.id],
    );

    await ok(client, 'update_endpoint', { projectId: project.id, endpointId: endpoint.id, enabled: false });
    const listed = json<Endpoint[]>(await cli('endpoint', 'list', 'From MCP', '--json', '--enabled-only'));
    assert.deepEqual(listed, []);

    await ok(client, 'delete_project', { projectId: project.id });
    const gone = await cli('project', 'show', 'From MCP');
    assert.equal(gone.code, 3, gone.stderr);
  });

  it('sees the requests a running mock server logs; request changes go both ways', async () => {
    assert.equal((await cli('project', 'create', 'Served')).code, 0);
    assert.equal(
      (await cli('endpoint', 'add', 'Served', '-m', 'POST', '-p', '/orders', '-s', '201')).code,
      0,
    );
    const serve = await startServe(['Served'], { dataDir });
    try {
      const res = await fetch(`${serve.url}/orders?via=test`, { method: 'POST', body: '{"n":1}' });
      assert.equal(res.status, 201);
      const logged = await waitUntil(async () => {
        const { requests } = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
          projectId: 'Served',
        });
        return requests.length ? requests : undefined;
      }, 'the request to be logged');
      const id = logged[0]!.id;
      assert.deepEqual(
        [logged[0]!.method, logged[0]!.path, logged[0]!.query, logged[0]!.status],
        ['POST', '/orders', { via: 'test' }, 201],
      );

      assert.equal((await cli('requests', 'star', id)).code, 0);
      assert.equal(
        (await ok<RequestRecord>(client, 'get_request', { requestId: id })).starred,
        true,
        'MCP sees the CLI star',
      );
      await ok(client, 'star_request', { requestId: id, starred: false });
      assert.equal(
        json<RequestRecord>(await cli('requests', 'show', id, '--json')).starred,
        false,
        'the CLI sees the MCP unstar',
      );
      await ok(client, 'delete_request', { requestId: id });
      assert.notEqual(
        (await cli('requests', 'show', id)).code,
        0,
        'the CLI no longer finds the deleted request',
      );
    } finally {
      await serve.stop();
    }
  });

  it('answers bad input with isError and keeps serving', async () => {
    const project = await ok<ProjectDetail>(client, 'create_project', { name: 'Bad input' });
    const before = await ok<{ projects: unknown[] }>(client, 'list_projects');
    await fails(client, 'create_endpoint', { projectId: project.id, path: '/x', status: 1000 }, /status/);
    await fails(client, 'get_project', { projectId: '/etc' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'create_project', { name: '../escape' }, /name/i);
    assert.deepEqual(await ok(client, 'list_projects'), before, 'nothing was created');
    assert.deepEqual(
      (await ok<ProjectDetail>(client, 'get_project', { projectId: project.id })).endpoints,
      [],
    );
  });
});

describe('mockdev mcp (stdio) process', () => {
  it('writes only protocol messages to stdout, answers what it got, and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
      send(RAW_INITIALIZE);
      await waitUntil(() => out.includes('"id":1'), 'the initialize response');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_project', arguments: { projectId: 'nope' } },
      });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      child.stdin.end(); // at once: requests already sent are still answered
      assert.equal(await within(exited, 10_000, 'the exit once stdin closed'), 0, err);
      const lines = out.trim().split('\n');
      assert.deepEqual(
        lines.map((l) => (JSON.parse(l) as { id?: number }).id).sort(),
        [1, 2, 3],
        'every request is answered before the exit',
      );
      for (const line of lines)
        assert.equal(JSON.parse(line).jsonrpc, '2.0', `stdout line is JSON-RPC: ${line}`);
      assert.match(err, /get_project error PROJECT_NOT_FOUND/, 'diagnostics go to stderr');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, MOCKDEV_DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.stdout.resume();
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
      await new Promise((r) => child.stdout.once('data', r));
      child.kill('SIGTERM');
      assert.equal(await within(exited, 10_000, 'the exit on SIGTERM'), 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses --port without --http, and a bad --logging-mode, with exit 2', async () => {
    const port = await runCli(['mcp', '-p', '3999'], { dataDir });
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--http/);
    const mode = await runCli(['mcp', '--logging-mode', 'loud'], { dataDir });
    assert.equal(mode.code, 2);
    assert.match(mode.stderr, /off, errors, all/);
  });
});
