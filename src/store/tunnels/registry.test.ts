import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TunnelRecord } from '../../core/model/tunnel.js';
import { hasEnded } from './process-tree.js';
import { FileTunnelRegistry, tunnelLogFile } from './registry.js';

const root = mkdtempSync(join(tmpdir(), 'mockdev-tunnels-'));
after(() => rmSync(root, { recursive: true, force: true }));

const tunnel = (projectId: string, pid: number, extra: Partial<TunnelRecord> = {}): TunnelRecord => ({
  projectId,
  provider: 'cloudflared',
  url: `https://${projectId}.trycloudflare.com`,
  port: 4000,
  pid,
  startedAt: new Date().toISOString(),
  ...extra,
});

/** A process that ends at once: its pid is free (dead) when read. */
const deadPid = (): Promise<number> =>
  new Promise((resolve) => {
    const c = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    c.on('exit', () => resolve(c.pid!));
  });

describe('FileTunnelRegistry', () => {
  it('records, reads, lists and removes tunnels, one per project; a dead pid is removed when seen', async () => {
    const dataDir = join(root, 'a');
    const registry = new FileTunnelRegistry(dataDir);
    assert.equal(await registry.get('p1'), undefined);
    await registry.record(tunnel('p1', process.pid));
    writeFileSync(tunnelLogFile(dataDir, 'p1'), 'log');
    const dead = await deadPid();
    await registry.record(tunnel('p2', dead));
    assert.equal((await registry.get('p1'))?.url, 'https://p1.trycloudflare.com');
    assert.deepEqual(
      (await registry.list()).map((t) => t.projectId),
      ['p1'],
    );
    assert.equal(existsSync(join(dataDir, 'tunnels', 'p2.json')), false);
    await registry.remove('p1');
    assert.equal(await registry.get('p1'), undefined);
    assert.equal(existsSync(tunnelLogFile(dataDir, 'p1')), false);
    await assert.rejects(registry.get('../x'), /Invalid project id/);
  });

  it("stops and forgets the tunnel of a server gone (serve --tunnel's, its server killed)", async (t) => {
    const registry = new FileTunnelRegistry(join(root, 'b'));
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
      detached: true,
      stdio: 'ignore',
    });
    t.after(() => holder.kill('SIGKILL'));
    await registry.record(tunnel('p1', holder.pid!, { withServer: true, serverPid: await deadPid() }));
    assert.equal(await registry.get('p1'), undefined);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(hasEnded(holder.pid!), true);
  });

  it('keeps the guarded ports of running processes until closed; those of processes gone are dropped', async () => {
    const registry = new FileTunnelRegistry(join(root, 'c'));
    const guard = await registry.guardPort({ port: 3200, what: 'mockdev ui', pid: process.pid });
    await registry.guardPort({ port: 3100, what: 'mockdev mcp --http', pid: await deadPid() });
    assert.deepEqual(await registry.guardedPorts(), [{ port: 3200, what: 'mockdev ui', pid: process.pid }]);
    guard.close();
    assert.deepEqual(await registry.guardedPorts(), []);
  });
});
