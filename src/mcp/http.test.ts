import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createContext } from '../app/context.js';
import { startHttpMode, type RunningHttpMode } from './http.js';

let dir: string;
let running: RunningHttpMode;

const connections = async () =>
  (
    (await (await fetch(`${running.url}/connections`)).json()) as {
      connections: { client: { name: string } | null }[];
    }
  ).connections;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mockdev-mcp-http-unit-'));
  running = await startHttpMode({
    ctx: createContext({ dataDir: dir, cwd: dir, dataDirPollMs: 100 }),
    version: '0.0.0-test',
    host: '127.0.0.1',
    port: 0,
    loggingMode: 'all',
    sessionIdleMs: 300,
  });
});
after(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP mode sessions', () => {
  it('ends a session at once when the client ends it', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(running.url));
    const client = new Client({ name: 'polite', version: '1' });
    await client.connect(transport);
    assert.ok((await connections()).some((c) => c.client?.name === 'polite'));
    await transport.terminateSession();
    await client.close();
    assert.ok(!(await connections()).some((c) => c.client?.name === 'polite'));
  });

  it('ends the session of a client that went away without ending it, once idle', async () => {
    const client = new Client({ name: 'vanished', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    await client.listTools();
    await client.close(); // closes its streams, sends no DELETE
    await until(
      async () => !(await connections()).some((c) => c.client?.name === 'vanished'),
      'the idle session to end',
    );
  });

  it('keeps a session whose client holds its stream open', async () => {
    const client = new Client({ name: 'listening', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    await until(async () => running.sessions.list().length > 0, 'the session');
    await new Promise((r) => setTimeout(r, 900));
    assert.ok((await connections()).some((c) => c.client?.name === 'listening'));
    await client.close();
  });
});
