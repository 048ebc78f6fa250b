import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpHttp } from '../../test/helpers/mcp.js';
import { waitUntil } from '../../test/helpers/wait.js';
import type { RunningHttpMode } from './http.js';

interface Connection {
  client: { name: string } | null;
  streams: number;
}

/** The HTTP mode on a free port and a data dir of the test's own, closed after the test. */
async function start(
  t: { after(fn: () => Promise<void>): void },
  sessionIdleMs: number,
): Promise<{ running: RunningHttpMode; connections: () => Promise<Connection[]> }> {
  const running = await startMcpHttp(t, { sessionIdleMs });
  const connections = async () =>
    ((await (await fetch(`${running.url}/connections`)).json()) as { connections: Connection[] }).connections;
  return { running, connections };
}

const named = (list: Connection[], name: string) => list.find((c) => c.client?.name === name);

describe('HTTP mode sessions', () => {
  it('ends a session at once when the client ends it', async (t) => {
    const { running, connections } = await start(t, 300);
    const transport = new StreamableHTTPClientTransport(new URL(running.url));
    const client = new Client({ name: 'polite', version: '1' });
    await client.connect(transport);
    assert.ok(named(await connections(), 'polite'));
    await transport.terminateSession();
    await client.close();
    assert.ok(!named(await connections(), 'polite'));
  });

  it('ends the session of a client that went away without ending it, once idle', async (t) => {
    const { running, connections } = await start(t, 300);
    const client = new Client({ name: 'vanished', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    await client.listTools();
    await client.close(); // closes its streams, sends no DELETE
    await waitUntil(async () => !named(await connections(), 'vanished'), 'the idle session to end');
  });

  it('keeps a session whose client holds its stream open, however long it is idle', async (t) => {
    // Sessions idle for a minute end; the sweeper runs every 30 s, so only the call below expires.
    const idleMs = 60_000;
    const { running, connections } = await start(t, idleMs);
    const listening = new Client({ name: 'listening', version: '1' });
    await listening.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    t.after(() => listening.close());
    const gone = new Client({ name: 'gone', version: '1' });
    await gone.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    await waitUntil(async () => {
      const list = await connections();
      return (named(list, 'listening')?.streams ?? 0) > 0 && (named(list, 'gone')?.streams ?? 0) > 0;
    }, 'both clients to open their streams');
    await gone.close(); // closes its stream, sends no DELETE
    await waitUntil(
      async () => named(await connections(), 'gone')?.streams === 0,
      'the stream of "gone" to close',
    );

    // Time passes: both sessions are more than idleMs past their last request.
    await running.sessions.expireIdle(idleMs, Date.now() + 2 * idleMs);
    const after = await connections();
    assert.ok(named(after, 'listening'), 'the session with an open stream is kept');
    assert.equal(named(after, 'gone'), undefined, 'the same call ends the session without a stream');
    assert.ok((await listening.listTools()).tools.length > 0, 'and it still answers');
  });
});
