import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createContext, type AppContext } from '../../src/app/context.js';
import { createMcpServer, type CallRecord } from '../../src/mcp/server.js';
import { startHttpMode, type HttpModeOptions, type RunningHttpMode } from '../../src/mcp/http.js';
import { rawRequest } from './http.js';
import { loggedResponse } from './records.js';
import { CLI, cliEnv, tempDir } from './cli.js';
import { waitUntil, within } from './wait.js';

/** The 18 tools of SPEC 4.3. */
export const TOOL_NAMES = [
  'list_projects',
  'create_project',
  'get_project',
  'update_project',
  'delete_project',
  'list_endpoints',
  'create_endpoint',
  'get_endpoint',
  'update_endpoint',
  'delete_endpoint',
  'find_endpoint',
  'list_requests',
  'get_request',
  'star_request',
  'delete_request',
  'clear_requests',
  'import_openapi',
  'export_openapi',
].sort();

/** The initialize request of a raw client (no SDK), as the first message of a session. */
export const RAW_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** Opens a session of a raw client on MCP's HTTP mode: its id and the headers its requests carry. */
export async function openRawSession(
  base: string,
): Promise<{ session: string; headers: Record<string, string> }> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await rawRequest(base, '/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify(RAW_INITIALIZE),
  });
  const session = init.headers['mcp-session-id'];
  assert.ok(typeof session === 'string', `a session: ${init.body.slice(0, 200)}`);
  return { session, headers: { ...headers, 'mcp-session-id': session } };
}

export const textOf = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** Calls a tool that must succeed; returns its structured result. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!r.isError, `${name} ${JSON.stringify(args)} failed: ${textOf(r)}`);
  assert.ok(r.structuredContent, `${name} returns structuredContent`);
  assert.ok(textOf(r).length > 0, `${name} returns text`);
  return r.structuredContent as T;
}

/** Calls a tool that must fail with isError and a message matching `re`. */
export async function fails(client: Client, name: string, args: unknown, re: RegExp): Promise<string> {
  const r = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got: ${textOf(r)}`);
  assert.equal(r.structuredContent, undefined);
  const text = textOf(r);
  assert.match(text, re);
  assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
  return text;
}

export interface SpawnedMcp {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  kill: () => Promise<void>;
}

/** Starts the built CLI (`mockdev <args>`) with its own data dir; killed by pid in kill(). */
export function spawnCli(
  args: string[],
  dataDir: string,
  env: Record<string, string | undefined> = {},
): SpawnedMcp {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv(dataDir, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => err,
    stdout: () => out,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await within(exited, 5000, 'the killed process to exit').catch(() => undefined);
    },
  };
}

/** Starts `mockdev mcp --http -p 0 …` (`stdin` piped in, when given) and waits for the URL it prints. */
export async function startHttpMcp(
  dataDir: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
  stdin?: string,
) {
  const proc = spawnCli(['mcp', '--http', '-p', '0', ...extra], dataDir, env);
  if (stdin !== undefined) proc.child.stdin!.end(stdin);
  const url = await Promise.race([
    waitUntil(
      () => /listening on (http:\/\/\S+\/mcp)\b/.exec(proc.stderr())?.[1],
      'the MCP HTTP server to start',
      20_000,
    ),
    proc.exited.then((code) => {
      throw new Error(`mockdev mcp --http exited early (${code}): ${proc.stderr()}`);
    }),
  ]);
  return { ...proc, url, base: url.replace(/\/mcp$/, '') };
}

/** An MCP server and the SDK's Client linked in process (InMemoryTransport), on a temp data dir. */
export interface InMemoryMcp {
  dir: string;
  ctx: AppContext;
  client: Client;
  calls: CallRecord[];
  close(): Promise<void>;
}

/** An MCP server and client in process, over a temp data dir (or the context given, left open). */
export async function startInMemoryMcp(given?: AppContext): Promise<InMemoryMcp> {
  const tmp = tempDir('mockdev-mcp-');
  const ctx = given ?? createContext({ dataDir: join(tmp.dir, 'data'), cwd: tmp.dir });
  const calls: CallRecord[] = [];
  const server = createMcpServer({ ctx, version: '0.0.0-test', onCall: (c) => calls.push(c) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new SdkClient({ name: 'mcp-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    dir: tmp.dir,
    ctx,
    client,
    calls,
    close: async () => {
      await client.close();
      if (!given) ctx.close();
      tmp.cleanup();
    },
  };
}

/** Writes request-log records for a project through a writer, as a server would. */
export async function seedRequests(
  ctx: AppContext,
  projectId: string,
  endpointId: string | null,
  rows: { method: string; url: string; status: number }[],
): Promise<void> {
  const writer = ctx.requests.openWriter({ projectId, limit: 10_000 });
  const response = loggedResponse({ 'Content-Type': 'application/json' }, '{"ok":true}');
  rows.forEach((r, i) =>
    writer.push({
      endpointId,
      ts: Date.now() + i,
      method: r.method,
      url: r.url,
      rawHeaders: ['Accept', 'application/json'],
      body: null,
      truncated: false,
      status: r.status,
      durationMs: 1,
      response,
    }),
  );
  await writer.close();
}

/**
 * The MCP HTTP mode in this process (its handler on a free port, a data dir of its own), closed
 * after the test. `base` is http://127.0.0.1:<port>, `url` the /mcp endpoint.
 */
export async function startMcpHttp(
  t: { after(fn: () => Promise<void> | void): void },
  options: Partial<Omit<HttpModeOptions, 'ctx'>> = {},
): Promise<RunningHttpMode & { base: string; ctx: AppContext; dataDir: string }> {
  const tmp = tempDir('mockdev-mcp-http-');
  const dataDir = join(tmp.dir, 'data');
  const ctx = createContext({ dataDir, cwd: tmp.dir, dataDirPollMs: 100 });
  const running = await startHttpMode({
    ctx,
    version: '0.0.0-test',
    host: '127.0.0.1',
    port: 0,
    loggingMode: 'all',
    ...options,
  });
  t.after(async () => {
    await running.close();
    ctx.close();
    tmp.cleanup();
  });
  return Object.assign(running, { base: running.url.replace(/\/mcp$/, ''), ctx, dataDir });
}
