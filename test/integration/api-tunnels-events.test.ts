/**
 * Admin API: a tunnel started or stopped by any process is a `tunnel` event on the live stream
 * (the tunnel registry, polled). The tunnel is recorded by another context over the same data
 * directory, as `mockdev tunnel start` in a terminal records it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createApiServices } from '../../src/api/services.js';
import type { TunnelRecord } from '../../src/core/model/tunnel.js';
import { tempDir } from '../helpers/cli.js';
import { openSse } from '../helpers/sse.js';

type Json = Record<string, unknown>;

describe('admin API: tunnel events', () => {
  it('publishes a tunnel recorded by another process as started, and its removal as stopped', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-api-tunnel-events-');
    t.after(cleanup);
    const options = { dataDir: dir, cwd: dir, env: {} };
    const ctx = createContext(options);
    const services = createApiServices(ctx, { watchers: { tunnelPollMs: 100 } });
    const admin = await startAdminServer({ ctx, routes: ALL_ROUTES, services, host: '127.0.0.1', port: 0 });
    const other = createContext(options);
    const stream = await openSse(`${admin.url}/api/v1/events`);
    t.after(async () => {
      stream.close();
      await admin.close();
      await services.close();
      other.close();
      ctx.close();
    });
    // The tunnel's process: this one (alive), as the registry checks.
    const tunnelAt = (url: string): TunnelRecord => ({
      projectId: 'p1',
      provider: 'cloudflared',
      url,
      port: 4321,
      pid: process.pid,
      startedAt: new Date().toISOString(),
    });
    // Watching starts with the first subscriber, from what the registry holds then: a record
    // that lands before that first look is not news, so another URL is recorded until one is.
    let tunnel = tunnelAt('https://quiet-river-0.trycloudflare.com');
    let started;
    for (let attempt = 1; !started; attempt++) {
      await other.tunnels.record(tunnel);
      const url = tunnel.url;
      started = await stream
        .next(
          (e, d) =>
            e.event === 'tunnel' &&
            (d as Json).change === 'started' &&
            ((d as Json).tunnel as Json).url === url,
          'the tunnel started event',
          attempt < 3 ? 2000 : 5000,
        )
        .catch((e: unknown) => {
          if (attempt >= 3) throw e;
          tunnel = tunnelAt(`https://quiet-river-${attempt}.trycloudflare.com`);
          return undefined;
        });
    }
    // As the registry holds it (it adds the process's start time, which tells a reused pid).
    const { procStart: _start, ...announced } = (JSON.parse(started.data) as { tunnel: TunnelRecord }).tunnel;
    assert.deepEqual(announced, tunnel);
    await other.tunnels.remove('p1');
    const stopped = await stream.next(
      (e, d) => e.event === 'tunnel' && (d as Json).change === 'stopped',
      'the tunnel stopped event',
      5000,
    );
    assert.equal(((JSON.parse(stopped.data) as Json).tunnel as Json).url, tunnel.url);
  });
});
